"""A long proof on one machine: the single-machine race first, for `first` seconds (most levels are proven
by then), then, when the level is still open, its horizons split into cubes (kamicp.prover.distributed)
solved over this machine's cores by a local pool of worker processes (kamicp.runtime.pool: no Dask
needed), each cube's answer saved to the store when one is given. A store that already holds cube answers
or a solution of the level resumes at once, without the race (what it holds is not proven again).
"""

from __future__ import annotations

import os
from dataclasses import replace

from kamicp.prover.distributed import CubeProgress, CubesInterrupted, DistributedResult, solve_cubes, stored_units
from kamicp.prover.outcome import EngineName, Result, Status
from kamicp.prover.request import Request
from kamicp.runtime.pool import LocalPool
from kamicp.runtime.store import Store

__all__ = ["CUBE_ENGINE", "FIRST", "FIRST_WITH_STORE", "MIN_LEFT", "first_for", "local_workers", "solve_long"]

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
               engine: str = CUBE_ENGINE) -> DistributedResult:
    """A shortest solution of a Kami `request` and its proof: the race for `first` seconds (default
    `first_for(store)`; no race when the store holds units of this level), then cubes of `depth` moves on
    `workers` local processes, each cube answered by `engine`, all within the request's deadline. A result
    with no horizons and `workers` 0 is the race's own answer (the level was settled, or too little time
    was left for the cubes)."""
    deadline = request.budget.deadline
    first = first_for(store) if first is None else first
    quick: Result | None = None
    if first > 0 and not stored_units(store, request.level, depth):
        quick = request.but(deadline=deadline.within(first)).solve()
        if quick.status != Status.UNKNOWN or deadline.left() < MIN_LEFT:
            return DistributedResult(replace(quick, seconds=deadline.elapsed()), (), 0,
                                     reused=None if store is None else 0, pool="local")
    cubes = request.but(engine=engine, progress=None)
    try:
        with LocalPool(workers) as pool:
            hint = quick.moves if quick is not None else ()
            return solve_cubes(cubes, pool, depth=depth, store=store, progress=progress, hint=hint,
                               parent_pivot=False)  # (each child's solve bounds itself, in parallel)
    except CubesInterrupted as e:
        if e.result is None and quick is not None:  # (interrupted before the cubes' loop knew its bounds)
            raise CubesInterrupted(quick, e.signal, e.saved) from None
        raise
