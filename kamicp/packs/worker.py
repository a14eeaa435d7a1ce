"""Levels in processes of their own: a crash, a MemoryError or an overrun is that level's row, not the run's
end.

A `LevelWorker` answers levels one after another in one process (`run_isolated`: one level, one
process). It forks a child (leading its own process group, so it and the portfolio's processes its
work starts are stopped together), caps the work's address space (RLIMIT_AS, `PackSettings.memory_mb`),
and waits for its row. The group dies with the runner (Linux PR_SET_PDEATHSIG), so a killed runner or
Dask worker leaves no process behind. `stop_all()` ends every running child (Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import resource
import signal
import threading
import time
from dataclasses import dataclass, replace

from kamicp.errors import KamiError
from kamicp.packs.rows import Loaded, PackSettings, Row, error_row, row_from_validation
from kamicp.prover.outcome import Verdict
from kamicp.prover.request import Budget, Request, Rules
from kamicp.prover.watch import Snapshot, Watch
from kamicp.runtime.clock import Deadline
from kamicp.runtime.processes import on_parent_death, signal_group, stop_group

Todo = tuple[int, Loaded, str, Rules]  # a level to run: (its index, the level read, its content hash, its rules)
GRACE = 30.0  # seconds past the time limit before a level's process is killed (it ends on its own before)
STOP_WAIT = 2.0  # seconds between SIGTERM and SIGKILL when stopping children

_children: set[mp.process.BaseProcess] = set()
_lock = threading.Lock()
_stopping = threading.Event()


def solve_level(loaded: Loaded, key: str, settings: PackSettings, rules: Rules, watch: Watch | None = None
                ) -> Row:
    """The work of one level (in the child): validate it with the pack's settings and the level's `rules`
    (named by the runner), its request built here, so its clock starts in the level's process. `watch`: its
    progress snapshots (no estimate: a pack's levels do not pay for probes)."""
    level = loaded.level
    assert level is not None
    budget = Budget.start(settings.time_limit, workers=settings.workers, seed=settings.seed,
                          engine=settings.engine, watch=watch, estimator=None if watch is None else _no_estimate)
    validation = Request(level, rules, budget).validate(settings.par, slack=settings.slack)
    row = row_from_validation(loaded, key, validation, settings)
    # the rules and the pivot cell used (the default resolved), as `solve --rules pivot --json` gives them
    extra = rules.data(level)
    return replace(row, result={**(row.result or {}), **extra}) if extra else row


def _no_estimate(_horizon: int, _snap: Snapshot) -> None:
    return None


@dataclass(frozen=True)
class Live:
    """A running level's facts, as its process last published them: seconds since it started, the proven
    bounds (`upper` None: no plan yet), the horizon being refuted (None: none)."""

    level: str
    elapsed: float
    lower: int
    upper: int | None
    horizon: int | None


LIVE = 5  # the shared slots of a worker's running level: running (0/1), elapsed, lower, upper, horizon (-1: none)


def _publisher(live) -> Watch:
    """A watch that writes each snapshot's facts into the worker's shared `live` slots (the runner reads them)."""
    def watch(snap: Snapshot) -> None:
        live[1], live[2] = snap.elapsed, snap.lower
        live[3] = -1 if snap.upper is None else snap.upper
        live[4] = -1 if snap.horizon is None else snap.horizon
        live[0] = 1

    return watch


def _cap_memory(megabytes: int | None) -> None:
    if megabytes:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _child(conn, settings: PackSettings, live) -> None:
    """A worker's process: a supervisor leading its own process group, with the work in a child.

    The supervisor only waits, so a SIGTERM (the runner stopping, or the runner or Dask worker dying,
    through PR_SET_PDEATHSIG) is handled at once: it kills the whole group, work and the race's
    processes included, even while they are inside a long C++ call. The work keeps the default SIGTERM,
    so the portfolio can still stop its own processes as usual."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's to handle
    signal.signal(signal.SIGTERM, lambda *_: os.killpg(0, signal.SIGKILL))
    on_parent_death(signal.SIGTERM)
    work = mp.get_context("fork").Process(target=_serve, args=(conn, settings, live))
    work.start()
    conn.close()
    work.join()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.killpg(0, signal.SIGTERM)  # whatever the work left behind (not this process: it ignores it now)
    code = work.exitcode or 0
    os._exit(code if code >= 0 else 128 - code)  # a signal that ended the work, as a shell reports it


def _serve(conn, settings: PackSettings, live) -> None:
    """Answer each level sent on `conn`, one after another, until None (or the pipe's end)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    on_parent_death(signal.SIGTERM)
    with contextlib.suppress(ValueError, OSError):  # a crashing level leaves its row, not a core file
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if settings.rules != "pivot" or settings.engine != "auto":  # (the pivot rules' A* needs no CP-SAT)
        import kamicp.prover.model  # noqa: F401 - OR-Tools loaded once a worker, inherited by the race's forks
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            break
        if job is None:
            break
        conn.send(_answer(*job, settings, _publisher(live)))
        live[0] = 0
    conn.close()


def _answer(loaded: Loaded, key: str, rules: Rules, settings: PackSettings, watch: Watch | None = None) -> Row:
    """The level's row, or the row saying why there is none."""
    start = time.monotonic()
    try:
        _cap_memory(settings.memory_mb)
        return solve_level(loaded, key, settings, rules, watch)
    except MemoryError:
        return error_row(loaded, key, Verdict.ERROR, f"out of memory (the cap is {settings.memory_mb} MiB per "
                         "level, --memory-limit)", settings, time.monotonic() - start)
    except KamiError as e:
        return error_row(loaded, key, Verdict.BAD_INPUT, str(e), settings, time.monotonic() - start)
    except Exception as e:  # noqa: BLE001 - any failure is this level's row
        return error_row(loaded, key, Verdict.ERROR, f"crashed: {e!r}", settings, time.monotonic() - start)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _death(proc: mp.process.BaseProcess) -> str:
    """Why a worker's process ended, as a row's error says it."""
    code = proc.exitcode
    number = None if code is None else -code if code < 0 else code - 128 if code > 128 else None
    why = f"killed by {_signal_name(number)}" if number else f"exit code {code}"
    if number == signal.SIGKILL:
        why += " (out of memory?)"
    return f"the level's process died: {why}"


class LevelWorker:
    """A process that validates levels one after another, so that a pack of many small levels pays a
    process start per worker, not per level. Each level keeps what a process of its own gave it: the
    memory cap, the time limit (an overrun kills the process, and the next level starts a fresh one), a
    crash as that level's row. `close()` ends the process; `stop_all()` ends every worker's."""

    def __init__(self, settings: PackSettings) -> None:
        self.settings = settings
        self._proc: mp.process.BaseProcess | None = None
        self._conn = None
        self.live = mp.get_context("fork").Array("d", LIVE, lock=False)  # the running level's facts (shared)
        self._level: str | None = None  # the name of the level it runs, None when idle

    def running(self) -> Live | None:
        """The running level's facts as its process last published them (None: idle, or nothing yet)."""
        name, live = self._level, list(self.live)
        if name is None or not live[0]:
            return None
        return Live(name, live[1], int(live[2]), None if live[3] < 0 else int(live[3]),
                    None if live[4] < 0 else int(live[4]))

    def _start(self) -> bool:
        ctx = mp.get_context("fork")
        with _lock:  # stop_all sets _stopping under this lock: a process is either not started or seen by it
            if _stopping.is_set():
                return False
            # The pipe is made under the lock too: made outside it, another thread's fork could copy its
            # child end into that worker's processes, and this worker's crash would never reach EOF here.
            parent, child = ctx.Pipe(duplex=True)
            proc = ctx.Process(target=_child, args=(child, self.settings, self.live))
            proc.start()
            child.close()  # before another thread forks: a copy left open there would delay this EOF
            _children.add(proc)
        with contextlib.suppress(PermissionError, ProcessLookupError):
            os.setpgid(proc.pid, proc.pid)  # also here: no window in which a stop misses the group
        self._proc, self._conn = proc, parent
        return True

    def run(self, loaded: Loaded, key: str, rules: Rules) -> Row:
        """Validate one level by its `rules` and return its row (never raises for the level's failures)."""
        try:
            return self._run(loaded, key, rules)
        finally:
            self._level = None

    def _run(self, loaded: Loaded, key: str, rules: Rules) -> Row:
        settings = self.settings
        if mp.current_process().daemon:
            return error_row(loaded, key, Verdict.ERROR, "this worker process is daemonic and cannot start the "
                             "level's process (Dask: start workers with DASK_DISTRIBUTED__WORKER__DAEMON=False)",
                             settings)
        if _stopping.is_set() or (self._proc is None and not self._start()):
            return error_row(loaded, key, Verdict.ERROR, "stopped", settings)
        assert self._proc is not None and self._conn is not None
        start = time.monotonic()
        limit = None if settings.time_limit is None else settings.time_limit + GRACE
        self.live[0], self._level = 0, loaded.path
        try:
            self._conn.send((loaded, key, rules))
            if self._conn.poll(limit):
                return self._conn.recv()
        except (EOFError, OSError):
            pass
        else:
            self.close()
            return error_row(loaded, key, Verdict.ERROR, f"no answer within {limit:.0f} s: killed", settings,
                             time.monotonic() - start)
        self._proc.join(STOP_WAIT)
        why = _death(self._proc)
        self.close()
        return error_row(loaded, key, Verdict.ERROR, why, settings, time.monotonic() - start)

    def close(self) -> None:
        """End the process (asked first; stopped after STOP_WAIT seconds)."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if proc is None or conn is None:
            return
        with contextlib.suppress(OSError):
            conn.send(None)
        proc.join(STOP_WAIT)
        if proc.is_alive():
            stop_group(proc, STOP_WAIT)
        with _lock:
            _children.discard(proc)
        conn.close()


def run_isolated(loaded: Loaded, key: str, settings: PackSettings, rules: Rules) -> Row:
    """Validate one level in a process of its own and return its row (never raises for the level's
    failures)."""
    level_worker = LevelWorker(settings)
    try:
        return level_worker.run(loaded, key, rules)
    finally:
        level_worker.close()


def stop_all() -> None:
    """End every level's process (and what it started); later `run_isolated` calls return at once."""
    with _lock:
        _stopping.set()
        procs = list(_children)
    for proc in procs:
        signal_group(proc, signal.SIGTERM)
    deadline = Deadline.slice(STOP_WAIT)
    for proc in procs:
        proc.join(deadline.left())
    for proc in procs:
        signal_group(proc, signal.SIGKILL)


def reset() -> None:
    """Allow runs again after `stop_all()` (the next run in this process)."""
    _stopping.clear()
