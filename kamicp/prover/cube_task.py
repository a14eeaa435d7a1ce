"""A distributed proof's task, on a Dask worker: one cube's question (`CubeTask`) answered by the
single-machine solver on the cube's child board (`run_cube`), as a `CubeAnswer` (models/cubes.md). The run
that sends the tasks and gathers the answers is kamicp.prover.distributed. Beside a horizon's cubes, one worker
may also answer the whole horizon by CP-SAT (`WholeTask`, `run_whole`).
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import asdict, dataclass
from enum import StrEnum
from multiprocessing import current_process

from kamicp.board.level import Level, Move
from kamicp.board.regions import regions_of
from kamicp.prover.bounds import lower_bound
from kamicp.prover.config import CpSatOptions, ModelOptions, SolveOptions, UpperOptions
from kamicp.prover.engines import CpSatEngine
from kamicp.prover.outcome import EngineName, Outcome, Result, Status, move_dict, to_moves
from kamicp.prover.prior import After
from kamicp.prover.request import Budget, Request
from kamicp.prover.solver import Free, solve_after
from kamicp.runtime.clock import Deadline
from kamicp.runtime.cluster import stop_look
from kamicp.runtime.pool import flag_raised

# The children's own upper bound: the greedy alone; the beam and rollouts (up to 2 s + 4 s) would cost more
# per cube than most cubes' proofs.
CUBE_OPTIONS = SolveOptions(upper=UpperOptions(beam=False, rollout=False))
WHOLE = "whole"  # the key of the whole-horizon task's answer (the level itself, no cube)


class CubeOutcome(StrEnum):
    REFUTED = "refuted"  # the child has no solution within the horizon less the cube's moves (proven)
    SOLVED = "solved"  # the child has one: `moves`
    UNKNOWN = "unknown"  # the time limit came first


class CubeSource(StrEnum):
    TASK = "task"  # answered by a Dask task in this run
    STORE = "store"  # refuted in an earlier run (the store), at this horizon or a higher one
    HIGHER = "higher"  # refuted in this run at a higher horizon


@dataclass(frozen=True)
class CubeTask:
    """One cube's question, sent to a worker: can the child (the level's cells coloured `colors`) be solved
    within `budget` moves? `deadline` is the run's `Deadline.portable()` (wall-clock seconds), so a task that
    starts late gets only what is left. (The level itself is sent to each worker once.)"""

    key: str
    horizon: int
    colours: tuple[str, ...]
    budget: int
    deadline: float | None
    engine: str
    seed: int
    after: After | None = None  # the child searched canonical after this move (the cube's last; kamicp/prover/prior.py)


@dataclass(frozen=True)
class WholeTask:
    """The whole horizon's question, beside its cubes: can the level be solved within `horizon` moves? Answered
    by CP-SAT (`model`, `cpsat`: the parent's options) on one worker until `deadline` (as in CubeTask), or until
    the run raises its stop `flag` (the cubes answered the horizon first): on a local pool's worker a flag in
    the pool's shared memory (an int, kamicp.runtime.pool.flag_raised), on a Dask worker a Dask event (its
    name, kamicp.runtime.cluster.stop_look)."""

    horizon: int
    deadline: float | None
    seed: int
    model: ModelOptions
    cpsat: CpSatOptions
    flag: int | str


@dataclass(frozen=True)
class CubeAnswer:
    """One cube's answer at one horizon: by which engine (`bound`, `search`, `cpsat`), the child's solution
    when solved, wall and CPU seconds, and the worker's address. `after`: the child was searched canonical
    after the cube's last move (refuted then means no solution of the child that is canonical after it)."""

    key: str
    horizon: int
    outcome: CubeOutcome
    by: EngineName
    moves: tuple[Move, ...] = ()
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker: str = ""
    source: CubeSource = CubeSource.TASK
    after: bool = False

    def to_dict(self, level: Level | None = None) -> dict:
        data = {**asdict(self), "outcome": str(self.outcome), "by": str(self.by), "source": str(self.source)}
        data["moves"] = [move_dict(level, m) if level else {"cell": m.cell, "colour": m.colour} for m in self.moves]
        return data

    @classmethod
    def from_stored(cls, data: dict) -> CubeAnswer:
        return cls(key=data["key"], horizon=int(data["horizon"]), outcome=CubeOutcome(data["outcome"]),
                   by=EngineName(data["by"]), seconds=float(data["seconds"]),
                   cpu_seconds=float(data["cpu_seconds"]), worker=str(data["worker"]), source=CubeSource.STORE,
                   after=bool(data.get("after", False)))


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _worker_address() -> str:
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except (ImportError, ValueError):  # (a local pool's worker process: kamicp.runtime.pool)
        return f"local pid {os.getpid()}"


def _prover(result: Result) -> EngineName:
    """The engine whose proof refuted the child's last horizon (the bound when no search was needed)."""
    rows = [h for h in result.proof if h.outcome in (Outcome.INFEASIBLE, Outcome.IMPLIED)]
    return max(rows, key=lambda h: h.steps).engine if rows else EngineName.BOUND


def run_cube(level: Level, task: CubeTask) -> CubeAnswer:
    """Answer one cube of `level` (runs on a Dask worker): the child's lower bound first, then the solver."""
    t0, c0 = time.monotonic(), _cpu()
    child = level.position(task.colours, f"{level.name}#{task.key}")

    def answer(outcome: CubeOutcome, by: EngineName, moves: tuple[Move, ...] = ()) -> CubeAnswer:
        return CubeAnswer(task.key, task.horizon, outcome, by, moves, time.monotonic() - t0, _cpu() - c0,
                          _worker_address(), after=task.after is not None)

    regions = regions_of(child)
    if lower_bound(regions.adj, regions.colours, len(regions.palette)) > task.budget:
        return answer(CubeOutcome.REFUTED, EngineName.BOUND)
    deadline = Deadline.resumed(task.deadline)
    if deadline.expired():
        return answer(CubeOutcome.UNKNOWN, EngineName(task.engine))
    # the race's second process cannot start in a daemonic worker (a `dask worker` started without
    # DASK_DISTRIBUTED__WORKER__DAEMON=False): there the search answers alone (each answer names its engine)
    engine = EngineName.SEARCH if task.engine == EngineName.AUTO and current_process().daemon else task.engine
    budget = Budget(max_steps=task.budget, deadline=deadline, engine=engine, workers=1, seed=task.seed)
    request = Request(child, Free(CUBE_OPTIONS), budget)
    # with a prior, NO_SOLUTION means only "none canonical after the cube's last move": a cube's refutation
    result = request.solve() if task.after is None else solve_after(request, task.after)
    if result.status == Status.NO_SOLUTION:
        return answer(CubeOutcome.REFUTED, _prover(result))
    if result.status == Status.OPTIMAL:
        return answer(CubeOutcome.SOLVED, result.engine, result.moves)
    return answer(CubeOutcome.UNKNOWN, result.engine)


def run_whole(level: Level, task: WholeTask) -> CubeAnswer:
    """Answer the whole horizon by CP-SAT with one worker (runs on a local pool's or a Dask worker): refuted (the
    horizon infeasible, a proof as sound as the race's), solved (a solution within it), or unknown (the
    deadline, or stopped)."""
    t0, c0 = time.monotonic(), _cpu()
    regions = regions_of(level)
    engine = CpSatEngine(regions, workers=1, seed=task.seed, model=task.model, cpsat=task.cpsat, monotone=True)
    flag = task.flag
    stop = stop_look(flag) if isinstance(flag, str) else lambda: flag_raised(flag)
    out = engine.horizon(task.horizon, Deadline.resumed(task.deadline), stop)
    outcome = {Outcome.INFEASIBLE: CubeOutcome.REFUTED, Outcome.FEASIBLE: CubeOutcome.SOLVED}.get(
        out.outcome, CubeOutcome.UNKNOWN)
    moves = () if out.plan is None else to_moves(regions, out.plan)
    return CubeAnswer(WHOLE, task.horizon, outcome, EngineName.CPSAT, moves, time.monotonic() - t0, _cpu() - c0,
                      _worker_address())
