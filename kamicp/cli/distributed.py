"""`solve --dask`: a distributed proof (kamicp.prover.distributed), its progress bar and its cube summary; and
plain `solve`'s long proof on this machine's cores (kamicp.prover.long_proof), with the same summary."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from kamicp.board.level import Level
from kamicp.cli.console import err, fail, out
from kamicp.cli.exits import EXIT_UNKNOWN
from kamicp.cli.options import MAX_WORKERS
from kamicp.errors import ClusterLost, Interrupted, UsageError
from kamicp.prover.cubes import check_depth
from kamicp.prover.distributed import (
    CubeProgress,
    CubesInterrupted,
    CubeSource,
    DistributedResult,
    HorizonCubes,
    dask_client,
    solve_cubes,
)
from kamicp.prover.long_proof import after_race, first_for, local_workers, solve_long, with_race
from kamicp.prover.outcome import EngineName, Result, Status
from kamicp.prover.request import Request
from kamicp.render.safe import printable
from kamicp.runtime.cluster import check_address, dashboard_link
from kamicp.runtime.extras import require
from kamicp.runtime.interrupt import signal_of
from kamicp.runtime.store import Store

DaskOpt = Annotated[str | None, typer.Option("--dask", metavar="SCHEDULER", help="Split the proof into cubes "
                                             "solved on a Dask cluster: tcp://HOST:PORT, or 'local' (a LocalCluster "
                                             "started here).")]
DaskWorkersOpt = Annotated[int | None, typer.Option("--dask-workers", min=1, max=MAX_WORKERS,
                                             help="Worker processes of --dask local (one thread each; default 2).")]
CubeDepthOpt = Annotated[int | None, typer.Option("--cube-depth", help="Moves per cube (1 or 2; default 1).")]
CubeStoreOpt = Annotated[Path | None, typer.Option("--store", help="An SQLite store (kamicp's, shared with "
                                                   "validate) where each cube's answer is saved; a rerun resumes "
                                                   "from it (the cubes it holds as refuted are skipped).")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", help="A table of every cube's answer (when cubes ran).")]


@dataclass(frozen=True)
class DaskSettings:
    """The distributed options of `solve`, checked."""

    address: str
    workers: int
    depth: int
    store: Path | None


def dask_settings(address: str | None, workers: int | None, depth: int | None, store: Path | None,
                  pivot: bool, unused: tuple[str, ...] = (), verbose: bool = False) -> DaskSettings | None:
    """None without --dask; a UsageError (one line, exit 2) for options that need --dask or cannot go with it
    (`unused`: the names of given options the distributed run does not use)."""
    if address is None:
        if workers is not None:
            raise UsageError("--dask-workers needs --dask")
        return None
    if pivot:
        raise UsageError("--dask solves Kami levels (--rules free) only")
    if unused:
        raise UsageError(f"{unused[0]} does not apply to --dask (each cube runs the solver with one CP-SAT thread "
                         "and every technique)")
    if workers is not None and address != "local":
        raise UsageError("--dask-workers is for --dask local (a remote cluster has its own workers)")
    depth = 1 if depth is None else depth
    check_depth(depth)
    check_address(address)
    require("dask", "--dask")
    return DaskSettings(address, 2 if workers is None else workers, depth, store)


@dataclass(frozen=True)
class LocalSettings:
    """Plain `solve`'s long proof, checked: the race first, then cubes on `workers` local processes."""

    workers: int
    depth: int
    store: Path | None


def local_settings(workers: int | None, depth: int | None, store: Path | None, *, kami: bool, engine: str,
                   no: list[str]) -> LocalSettings | None:
    """None when plain `solve` stays with the single-machine race: other rules than Kami's, an engine named,
    a technique switched off (`no`, besides cube-order), or one worker (`--workers 1`) without a store. A
    UsageError for --store or --cube-depth then."""
    cubes = kami and engine == EngineName.AUTO and not [n for n in no if n != "cube-order"]
    workers = local_workers(workers)
    if not cubes:
        given = [name for name, value in (("--store", store), ("--cube-depth", depth)) if value is not None]
        if given:
            raise UsageError(f"{given[0]} needs the cube proof: Kami rules, --engine auto and no --no technique")
        return None
    if workers < 2 and store is None and depth is None:
        return None
    depth = 1 if depth is None else depth
    check_depth(depth)
    return LocalSettings(workers, depth, store)


def local_first_env(store: Path | None) -> float:
    """Seconds of the race before plain `solve` splits the proof into cubes: long_proof.first_for(store), or
    the environment's KAMICP_LOCAL_FIRST (0: cubes at once)."""
    return local_first(LOCAL_FIRST_ENV_PLAIN, first_for(store))


def solve_here(request: Request, settings: LocalSettings) -> DistributedResult:
    """Plain `solve`'s long proof (kamicp.prover.long_proof) with the store open (its progress: the request's
    watch); an interruption says how many cube answers were saved."""
    first = local_first_env(settings.store)
    store_cm: Callable[[], object] = (lambda: Store(settings.store)) if settings.store else nullcontext
    with store_cm() as store:
        try:
            return solve_long(request, workers=settings.workers, depth=settings.depth, store=store, first=first)
        except CubesInterrupted as e:
            _say_saved(e, settings.store)
            raise


def _say_saved(e: CubesInterrupted, path: Path | None) -> None:
    where = f"saved to {printable(path)}: the same command resumes from them" if e.saved is not None \
        else "not saved (no --store): give --store FILE so that a rerun resumes"
    err.print(f"{e.saved or 0} cube answers {where}", markup=False, soft_wrap=True)


@contextmanager
def _bar(enabled: bool) -> Iterator[CubeProgress | None]:
    """A progress bar on stderr: the horizon's cubes answered / all (only on a terminal)."""
    if not enabled or not err.is_terminal:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("starting", total=None)

        def update(horizon: int, done: int, total: int) -> None:
            bar.update(task, description=f"cubes of {horizon} moves", completed=done, total=total)

        yield update


LOCAL_FIRST = 2.0  # seconds of the single-machine race before a LocalCluster is started
LOCAL_FIRST_ENV = "KAMICP_DASK_LOCAL_FIRST"  # overrides it; 0 starts the LocalCluster at once
LOCAL_FIRST_ENV_PLAIN = "KAMICP_LOCAL_FIRST"  # plain solve's race before the cubes (long_proof.first_for)
STOP_RESERVE = 1.5  # seconds of the time limit kept for closing the client and stopping a LocalCluster


def local_first(name: str = LOCAL_FIRST_ENV, default: float = LOCAL_FIRST) -> float:
    """Seconds of the single-machine race before a LocalCluster starts: LOCAL_FIRST, or the environment's
    KAMICP_DASK_LOCAL_FIRST (0: distribute at once, e.g. to watch the cubes of a level one machine proves fast)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 <= value < math.inf:
        raise fail(f"{name} must be a number of seconds (0 or more), got {raw!r}")
    return value


def solve_on_dask(request: Request, settings: DaskSettings, *, progress: bool) -> DistributedResult:
    """Open the store, then (for 'local') try the single-machine race for `local_first()` seconds: most levels
    are proven before a cluster could start. Otherwise connect (or start the LocalCluster), run the
    distributed proof and close everything, all by the request's deadline (the cluster's start and stop
    count)."""
    deadline = request.budget.deadline
    race = local_first() if settings.address == "local" else 0.0
    store_cm: Callable[[], object] = (lambda: Store(settings.store)) if settings.store else nullcontext
    quick: Result | None = None  # what the single-machine race proved: reported if the cluster is interrupted
    with store_cm() as store:
        if race > 0:
            first = deadline.within(race)
            quick = request.but(deadline=first, workers=None, progress=None).solve()
            # (a cluster started with less time left than the race had would only cost it)
            if quick.status != Status.UNKNOWN or (deadline.limited and deadline.left() <= STOP_RESERVE + first.total):
                return DistributedResult(replace(quick, seconds=deadline.elapsed()), (), 0,
                                     reused=None if store is None else 0)
        try:
            return _on_cluster(request, settings, store, progress=progress, quick=quick)
        except ClusterLost as e:
            kept = f"; the cube answers proven so far are in {printable(settings.store)}: the same command " \
                "resumes from them" if settings.store else ""
            raise fail(f"{e}{kept}", EXIT_UNKNOWN) from None
        except CubesInterrupted as e:
            _say_saved(e, settings.store)
            if e.result is None and quick is not None:  # (interrupted before the cubes' loop knew its bounds)
                raise CubesInterrupted(quick, e.signal, e.saved) from None
            raise
        except KeyboardInterrupt as e:  # starting or closing the cluster: the race's bounds are what is known
            if quick is None:
                raise
            raise Interrupted(quick, signal_of(e)) from None


def _on_cluster(request: Request, settings: DaskSettings, store: Store | None, *, progress: bool,
                quick: Result | None = None) -> DistributedResult:
    """The distributed proof on the cluster, taking what the race before it (`quick`) found and proved."""
    deadline = request.budget.deadline
    with dask_client(settings.address, settings.workers, deadline.limit()) as client, _bar(progress) as bar:
        link = dashboard_link(client)
        if bar is not None and link is not None:
            err.print(f"Dask dashboard: {link}", markup=False, highlight=False)
        # (the cubes' own clock starts now; STOP_RESERVE is kept for closing the client and the cluster)
        cubes = request.but(deadline=deadline.within(None).later(-STOP_RESERVE))
        # (the race runs only before a LocalCluster, of settings.workers one-thread workers)
        # (a top-down horizon whose cubes are slow is also answered whole by CP-SAT on one worker, as in `solve`)
        run = solve_cubes(cubes, client, depth=settings.depth, store=store, progress=bar, whole=True,
                          **after_race(quick, max(1, settings.workers), cubes.budget.deadline.left()))
        return replace(run, result=with_race(run.result, quick))


def counts_text(h: HorizonCubes) -> str:
    """A horizon's line of the cube summary: its cubes by how they were answered, and CP-SAT's whole answer."""
    counts = h.counts()
    refuted = sum(v for k, v in counts.items() if k not in ("solved", "unknown"))
    parts = [f"{counts[k]} by {k}" for k in ("bound", "search", "cpsat") if k in counts]
    parts += [f"{counts[k]} {label}" for k, label in (("store", "from the store"), ("higher", "refuted higher up"),
                                                      ("solved", "solved"), ("unknown", "unknown"))
              if k in counts]
    text = f"{refuted} refuted of {h.cubes} ({', '.join(parts) or 'none answered'})"
    if (whole := h.whole) is not None:
        how = "from the store" if whole.source == CubeSource.STORE else f"in {whole.seconds:.1f} s"
        text += f"; the whole horizon {whole.outcome} by CP-SAT beside them ({how})"
    return text


def cube_label(level: Level, key: str) -> str:
    """A cube's key ('267=B/12=A', cell indices) as taps: '(15, 3)→B (0, 4)→A'."""
    def tap(part: str) -> str:
        cell, _, colour = part.partition("=")
        return f"{level.format_label(int(cell))}→{colour}" if cell.isdigit() and int(cell) < level.size else part
    return printable(" ".join(tap(p) for p in key.split("/")))


def print_cubes(level: Level, result: DistributedResult, *, verbose: bool) -> None:
    """The cube summary after the proof: per horizon, how its cubes were answered; the slowest cubes; the
    cubes per worker; with `verbose`, every cube."""
    if not result.horizons:
        if result.result.engine == EngineName.CUBES:
            out.print("no cubes needed: the lower bound meets the best solution found")
        elif result.result.status == Status.UNKNOWN:
            out.print(f"no cubes run: after {result.result.seconds:.2f} s of the single-machine race, too little "
                      "of the time limit was left to start a LocalCluster")
        else:
            out.print(f"no cubes needed: proven on this machine in {result.result.seconds:.2f} s, before a "
                      "LocalCluster was started")
        return
    where = "Dask workers" if result.pool == "dask" else "local worker processes"
    summary = Table(title=f"cubes on {result.workers} {where}", title_justify="left", show_edge=False)
    for name, right in (("moves", True), ("depth", True), ("cubes", True), ("answers", False), ("horizon", False)):
        summary.add_column(name, justify="right" if right else "left")
    for h in result.horizons:
        summary.add_row(f"≤ {h.horizon}", str(h.depth), f"{h.cubes} ({h.sequences} move sequences)",
                        counts_text(h), {"infeasible": "refuted", "feasible": "solved"}.get(str(h.outcome), "unknown"))
    out.print(summary)
    tasks = [a for h in result.horizons for a in h.answers if a.source == "task" and a.worker != "parent"]
    if tasks:
        slow = sorted(tasks, key=lambda a: -a.seconds)[:3]
        out.print("slowest cubes: " + "; ".join(f"{cube_label(level, a.key)} {a.seconds:.2f} s ({a.outcome} by "
                                                 f"{a.by} on {printable(a.worker)})" for a in slow), markup=False)
        per = Counter(a.worker for a in tasks)
        cpu = sum(a.cpu_seconds for a in tasks)
        out.print(f"tasks per worker: {', '.join(f'{printable(w)} {n}' for w, n in sorted(per.items()))}; "
                  f"worker CPU {cpu:.1f} s", markup=False)
    if verbose:
        out.print(_cube_table(level, result))


def _cube_table(level: Level, result: DistributedResult) -> Table:
    table = Table(title="every cube", title_justify="left", show_edge=False)
    for name in ("moves", "cube", "answer", "by", "seconds", "CPU s", "where"):
        table.add_column(name, justify="right" if name in ("moves", "seconds", "CPU s") else "left")
    for h in result.horizons:
        for a in h.answers:
            where = str(a.source) if a.source != "task" else a.worker
            table.add_row(f"≤ {h.horizon}", Text(cube_label(level, a.key)), str(a.outcome), str(a.by),
                          f"{a.seconds:.3f}", f"{a.cpu_seconds:.3f}", Text(printable(where)))
    return table
