"""A long proof on one machine: the single-machine race first, for `first` seconds (most levels are proven
by then), then, when the level is still open, its horizons split into cubes (kamicp.prover.distributed)
solved over this machine's cores by a local pool of worker processes (kamicp.runtime.pool: no Dask
needed), each cube's answer saved to the store when one is given. A store that already holds cube answers
or a solution of the level resumes at once, without the race (what it holds is not proven again).

The cubes go top-down from the best plan less one (its refutation is the whole proof), except that the open
horizon (the race's lower bound) comes first, bottom-up, when the race's estimate of it fits in the time left:
each horizon costs the search 100-500x the one below (benchmarks/topics/harder-set.md), so the cheap one raises
the bound where the top one would not finish. On two cores or more, a top-down horizon whose cubes are slow is also
answered whole by CP-SAT on one of the pool's workers, beside its cubes (the race's road to the proof: CP-SAT
refutes some top horizons that the search's cubes would take hours over).
"""

from __future__ import annotations

import os
from dataclasses import replace

from kamicp.prover.distributed import CubeProgress, CubesInterrupted, DistributedResult, solve_cubes, stored_units
from kamicp.prover.horizons import finished
from kamicp.prover.outcome import EngineName, Horizon, Outcome, Result, Status
from kamicp.prover.request import Request
from kamicp.prover.watch import Snapshot, Watch, Watcher, ticking, watcher_of
from kamicp.runtime.pool import LocalPool
from kamicp.runtime.store import Store

__all__ = ["CUBE_ENGINE", "FIRST", "FIRST_WITH_STORE", "MIN_LEFT", "after_race", "first_for", "local_workers",
           "open_first", "solve_long", "with_race"]

FIRST = 20.0  # seconds of the single-machine race before the cubes (benchmarks/topics/distributed.md)
FIRST_WITH_STORE = 3.0  # ... with a store: a resumable proof asked for, its units saved from the start
MIN_LEFT = 1.0  # seconds of the time limit the cubes need at least after the race (else the race's answer)
CUBE_ENGINE = EngineName.SEARCH  # what answers each cube on a local worker (measured: the search alone)


def local_workers(workers: int | None) -> int:
    """The local pool's worker processes: this machine's CPUs (those it may use), at most `workers`."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cpus, workers or cpus))


def first_for(store: object | None) -> float:
    """The race's seconds before the cubes: FIRST, or FIRST_WITH_STORE with a store."""
    return FIRST if store is None else FIRST_WITH_STORE


def solve_long(request: Request, *, workers: int, depth: int = 1, store: Store | None = None,
               first: float | None = None, progress: CubeProgress | None = None,
               engine: str = CUBE_ENGINE, whole: bool = True) -> DistributedResult:
    """A shortest solution of a Kami `request` and its proof: the race for `first` seconds (default
    `first_for(store)`; no race when the store holds units of this level), then cubes of `depth` moves on
    `workers` local processes, each cube answered by `engine`, all within the request's deadline; with `whole`
    and two workers or more, a top-down horizon whose cubes are slow also by CP-SAT whole on one worker. A result
    with no horizons and `workers` 0 is the race's own answer (the level was settled, or too little time
    was left for the cubes)."""
    deadline, watch = request.budget.deadline, request.budget.watch
    first = first_for(store) if first is None else first
    quick: Result | None = None
    if first > 0 and not stored_units(store, request.level, depth):
        # (the race's last snapshot is not the proof's: the cubes' watcher ends the stream)
        racing = request.but(deadline=deadline.within(first), watch=_not_done(watch))
        quick = racing.solve()
        if quick.status != Status.UNKNOWN or deadline.left() < MIN_LEFT:
            if watch is not None:
                watch(Snapshot(deadline.elapsed(), "done", quick.lower_bound, quick.upper_bound))
            return DistributedResult(replace(quick, seconds=deadline.elapsed()), (), 0,
                                     reused=None if store is None else 0, pool="local")
    cubes = request.but(engine=engine, progress=None, watch=None)
    watcher = watcher_of(watch, deadline)
    if watcher is not None and quick is not None:
        watcher.update(phase="cubes", lower=quick.lower_bound, upper=quick.upper_bound)
    try:
        with LocalPool(workers) as pool, ticking(watcher):
            run = solve_cubes(cubes, pool, depth=depth, store=store, progress=_reporting(watcher, progress),
                              parent_pivot=False,  # (each child's solve bounds itself, in parallel)
                              **after_race(quick, workers, deadline.left()), whole=whole)
    except CubesInterrupted as e:
        if e.result is None and quick is not None:  # (interrupted before the cubes' loop knew its bounds)
            raise CubesInterrupted(quick, e.signal, e.saved) from None
        raise
    run = replace(run, result=with_race(run.result, quick))
    if watcher is not None:
        finished(watcher, run.result)
    return run


def after_race(quick: Result | None, workers: int, left: float) -> dict:
    """What the cubes take from a race run before them (`solve_cubes`' arguments): its plan (`hint`), the
    horizons it refuted (`refuted`), and whether its estimate sends them to the open horizon first."""
    if quick is None:
        return {}
    return {"hint": quick.moves, "refuted": _refuted(quick), "open_first": open_first(quick, workers, left)}


def open_first(quick: Result | None, workers: int, left: float) -> bool:
    """Should the cubes answer the open horizon (the race's lower bound) bottom-up first? Yes when the race's
    estimate of it (an estimate, never a bound), spread over the `workers`, fits in the `left` seconds."""
    if quick is None or quick.estimate is None or quick.estimate.horizon != quick.lower_bound:
        return False
    return quick.estimate.seconds / max(1, workers) <= left


def _not_done(watch: Watch | None) -> Watch | None:
    """`watch` without the race's last snapshot (phase 'done'): the proof goes on."""
    if watch is None:
        return None
    return lambda snap: None if snap.phase == "done" else watch(snap)


def _reporting(watcher: Watcher | None, progress: CubeProgress | None) -> CubeProgress | None:
    """The cubes' progress to the watcher (horizon, cubes answered of all) and to `progress`."""
    if watcher is None:
        return progress

    def report(horizon: int, done: int, total: int) -> None:
        watcher.cubes(done, total)
        watcher.update(phase="cubes", horizon=horizon, engine=EngineName.CUBES)
        if progress is not None:
            progress(horizon, done, total)

    return report


def _refuted(quick: Result) -> tuple[Horizon, ...]:
    """The horizons the race refuted below its proven lower bound, in order (the cubes' loop starts above them:
    its proof rows)."""
    rows = (h for h in quick.proof if h.outcome == Outcome.INFEASIBLE and h.steps < quick.lower_bound)
    return tuple(sorted(rows, key=lambda h: h.steps))


def with_race(result: Result, quick: Result | None) -> Result:
    """An unknown answer of the cubes with the race's estimate of the open horizon, while that horizon (the
    lower bound) is still the open one."""
    if quick is None or result.status != Status.UNKNOWN or quick.estimate is None:
        return result
    return replace(result, estimate=quick.estimate) if quick.estimate.horizon == result.lower_bound else result
