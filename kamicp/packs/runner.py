"""Running a pack: files read in this process, each level validated in its own process, locally
(`jobs` at a time) or on a Dask cluster, every answer stored as it comes.

Levels are read here and sent as data, so Dask workers on other machines need no access to the files.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from queue import Empty, Queue

from kamicp.board.hashing import level_hash
from kamicp.errors import KamiError, Terminated, UsageError
from kamicp.formats import PACK_READERS, detect_format, load_level, load_levels, split_selection
from kamicp.packs import worker
from kamicp.packs.discover import SCREENSHOT_SUFFIXES
from kamicp.packs.results import PackStore
from kamicp.packs.rows import Loaded, PackSettings, Row, error_row
from kamicp.prover.outcome import Verdict
from kamicp.prover.request import Rules
from kamicp.rulebook import check_rules, rules_named
from kamicp.runtime.clock import checked_limit
from kamicp.runtime.cluster import check_address
from kamicp.runtime.extras import require

OnRow = Callable[[Row, bool], None]  # (row, skipped: answered before, taken from the store)
OnLive = Callable[[list[worker.Live]], None]  # the running levels' live facts


def default_jobs(engine: str) -> int:
    """The machine's cores, halved for `auto` (its race runs two processes per level)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores // 2) if engine == "auto" else cores


def _read(path: Path, fmt: str | None, geometry: str | None) -> list[Loaded]:
    """The levels of one file: one, or every board of a pack file (named FILE#K), or its error."""
    selected = split_selection(path)[1] is not None  # FILE#K: one board of a pack file
    if not path.exists() and not selected:
        return [Loaded(str(path), None, f"{path}: no such file or folder (or no file matches this pattern)")]
    try:
        if fmt is None and path.suffix.lower() in SCREENSHOT_SUFFIXES:
            from kamicp.formats.screenshot import read_screenshot  # numpy and PIL: only for a picture

            return [Loaded(str(path), read_screenshot(path, geometry).level)]  # the game's geometry, or the board's
        if selected:
            return [Loaded(str(path), load_level(path, fmt, geometry))]
        # in a mixed pack, --geometry is for the text grids (game files know their geometry)
        fmt = fmt or detect_format(path)
        levels = load_levels(path, fmt, geometry if fmt in ("text", *PACK_READERS) else None)
    except KamiError as e:
        return [Loaded(str(path), None, str(e))]
    except (OSError, ValueError, MemoryError) as e:
        return [Loaded(str(path), None, f"{path}: cannot read: {e}")]
    if len(levels) == 1 and fmt not in PACK_READERS:
        return [Loaded(str(path), levels[0])]
    return [Loaded(f"{path}#{k}", level) for k, level in enumerate(levels, start=1)]


def load_pack(files: Sequence[Path], fmt: str | None = None, geometry: str | None = None) -> list[Loaded]:
    """Read every file (a pack file gives one item per board, `FILE#K`); a file that cannot be read is
    kept with its error (it becomes a bad-input row). `geometry` applies to text grids and screenshots
    (game files and JSON carry their own)."""
    return [item for f in files for item in _read(Path(f), fmt, geometry)]


def with_pars(items: Sequence[Loaded], pars: Sequence[int], source: str) -> list[Loaded]:
    """Each level with its par from `pars` (a pars file, in the pack's order): UsageError when the counts
    differ, so no par is ever matched to the wrong level."""
    if len(pars) != len(items):
        raise UsageError(f"{source}: {len(pars)} pars for {len(items)} levels (one par a line, in the pack's "
                         "order)")
    return [item if item.level is None else replace(item, level=replace(item.level, par=par))
            for item, par in zip(items, pars, strict=True)]


def _precheck(item: Loaded, settings: PackSettings) -> Row | Rules:
    """The row of a level that cannot run (unreadable, or no par), else the rules it is validated by (named
    once per level here; its process takes them as they are)."""
    if item.level is None:
        return error_row(item, "", Verdict.BAD_INPUT, item.error, settings)
    if settings.par is None and item.level.par is None:
        return error_row(item, "", Verdict.BAD_INPUT, f"{item.path}: no par in the file (give --par)", settings)
    try:
        return rules_named(item.level, settings.rules, settings.pivot)
    except KamiError as e:  # --pivot names no cell of this level
        return error_row(item, "", Verdict.BAD_INPUT, f"{item.path}: {e}", settings)


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a run like Ctrl-C does (children ended, answers kept), raised as `Terminated` (a
    KeyboardInterrupt) so the caller can tell the two apart; main thread only."""
    def terminated(_signum: int, _frame: object) -> None:
        raise Terminated

    try:
        old = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def run_pack(items: Sequence[Loaded], settings: PackSettings, *, jobs: int | None = None,
             dask: str | None = None, store: PackStore | None = None, resume: bool = False,
             on_row: OnRow | None = None, on_live: OnLive | None = None) -> list[Row]:
    """Validate every level; rows come back in the order of `items`.

    Each row is stored (and `on_row` called) as soon as it is known. With `resume`, a level the store
    already answered with these settings (same content, any file; a proof under any time limit, engine,
    workers or seed: `PackStore.answered`) is not run again. On Ctrl-C or SIGTERM every level's process is
    ended and KeyboardInterrupt (`Terminated` for SIGTERM) propagates; stored rows stay. A row the store
    cannot take stops the run the same way, with a `StoreWriteError`. `on_live`: called about twice a
    second with the running levels' live facts (`worker.Live`: elapsed, bounds, horizon; local runs only).
    """
    if resume and store is None:
        raise UsageError("--resume needs --store")
    check_rules(settings.rules, settings.pivot)
    if dask is not None:  # before any work
        check_address(dask)
        require("dask", "--dask")
    settings = replace(settings, time_limit=checked_limit(settings.time_limit))  # inf: none; huge: clamped
    jobs = default_jobs(settings.engine) if jobs is None else jobs
    if jobs < 1:
        raise UsageError(f"jobs must be at least 1, got {jobs}")
    rows: dict[int, Row] = {}
    todo: list[worker.Todo] = []

    def record(i: int, row: Row, skipped: bool) -> None:
        rows[i] = row
        if store is not None and not skipped:
            store.put(row)
        if on_row:
            on_row(row, skipped)

    for i, item in enumerate(items):
        rules = _precheck(item, settings)
        if isinstance(rules, Row):
            record(i, rules, False)
            continue
        assert item.level is not None
        key = level_hash(item.level)
        old = store.answered(key, settings.key()) if resume and store is not None else None
        if old is not None:
            row = Row.from_dict({**old.to_dict(), "path": item.path})
            if old.path != item.path:
                assert store is not None
                store.put(row)  # the same level under another file name: answered for this file too
            record(i, row, True)
        else:
            todo.append((i, item, key, rules))
    jobs = min(jobs, max(len(todo), 1))  # never more processes (or Dask workers) than levels to run
    if not todo:
        return [rows[i] for i in sorted(rows)]
    with _sigterm_as_interrupt():
        if dask is None:
            _run_local(todo, settings, jobs, record, on_live)
        else:
            from kamicp.packs.dask_runner import run_dask

            run_dask(todo, settings, dask, jobs, record)
    return [rows[i] for i in sorted(rows)]


def _run_local(todo: list[worker.Todo], settings: PackSettings, jobs: int,
               record: Callable[[int, Row, bool], None], on_live: OnLive | None = None) -> None:
    """`jobs` long-lived level processes (`worker.LevelWorker`), each taking the next level when it is
    free, so a pack of small levels is not paid a process start per level."""
    worker.reset()
    idle: Queue[worker.LevelWorker] = Queue()
    workers = [worker.LevelWorker(settings) for _ in range(jobs)]
    for level_worker in workers:
        idle.put(level_worker)

    def run(item: Loaded, key: str, rules: Rules) -> Row:
        level_worker = idle.get()
        try:
            return level_worker.run(item, key, rules)
        finally:
            idle.put(level_worker)

    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="kamicp-level")
    pending: dict[Future, int] = {}
    finished: Queue[Future] = Queue()  # (a queue, not wait() on all pending: that costs O(levels) an answer)
    try:
        for i, item, key, rules in todo:
            fut = pool.submit(run, item, key, rules)
            pending[fut] = i
            fut.add_done_callback(finished.put)
        while pending:
            with contextlib.suppress(Empty):
                fut = finished.get(timeout=0.5)
                record(pending.pop(fut), fut.result(), False)
            if on_live is not None:
                on_live([live for w in workers if (live := w.running()) is not None])
    except BaseException:
        for fut in pending:
            fut.cancel()
        worker.stop_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        for level_worker in workers:
            level_worker.close()
