"""Distributed proofs: each horizon split into cubes (kamicp.cubes), each cube one Dask task running the
single-machine solver on its child board (models/cubes.md).

The parent computes what one machine knows first (`horizons.prepare`: regions, lower bound, best known
solution), then refutes "best known - 1" directly: horizons here mean "at most h moves", so that one
refutation proves the best solution optimal. A cube whose child is solved gives a shorter solution (the
cube's moves, then the child's, replayed by the rules engine), and the next horizon is one below it;
cubes refuted at a higher horizon stay refuted. Every answer is saved to the store (if any) as it
arrives, so a rerun skips the cubes already refuted. The optional extra `kamicp[dask]` is needed.
"""

from __future__ import annotations

import contextlib
import json
import resource
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from itertools import islice
from multiprocessing import current_process
from typing import Any

from kamicp.board.hashing import level_hash
from kamicp.bounds import lower_bound
from kamicp.config import SolveOptions, UpperOptions
from kamicp.cubes import Cube, CubeSet, cell_colors, check_depth, child_bound, cube_moves, enumerate_cubes
from kamicp.errors import FormatError, Interrupted, SolverError
from kamicp.horizons import Prepared, prepare, signal_of
from kamicp.level import Level, Move
from kamicp.limits import time_budget
from kamicp.outcome import EngineName, Horizon, Outcome, Result, Status, move_dict, to_moves
from kamicp.prior import After
from kamicp.regions import regions_of
from kamicp.rules import verify
from kamicp.runtime.store import Store
from kamicp.solver import solve, solve_after

# The children's own upper bound: the greedy alone; the beam and rollouts (up to 2 s + 4 s) would cost more
# per cube than most cubes' proofs.
CUBE_OPTIONS = SolveOptions(upper=UpperOptions(beam=False, rollout=False))
CubeProgress = Callable[[int, int, int], None]  # (horizon, cubes answered, cubes in the horizon)
WINDOW = 256  # cube tasks in flight at most (at least 8 per worker thread)
RETRIES = 3  # a cube whose task is lost with a worker is sent again this many times


class CubeOutcome(StrEnum):
    REFUTED = "refuted"  # the child has no solution within the horizon less the cube's moves (proven)
    SOLVED = "solved"  # the child has one: `moves`
    UNKNOWN = "unknown"  # the time limit came first


class CubeSource(StrEnum):
    TASK = "task"  # answered by a Dask task in this run
    STORE = "store"  # refuted in an earlier run (the store), at this horizon or a higher one
    HIGHER = "higher"  # refuted in this run at a higher horizon


class CubesInterrupted(Interrupted):
    """A distributed proof interrupted (SIGINT, SIGTERM): what was proven (`result`), and how many cube
    answers this run saved to the store (`saved`; None without a store), which a rerun skips."""

    def __init__(self, result: object, signal: int, saved: int | None) -> None:
        super().__init__(result, signal)
        self.saved = saved


@dataclass(frozen=True)
class CubeTask:
    """One cube's question, sent to a worker: can the child (the level's cells coloured `colors`) be solved
    within `budget` moves? `deadline` is wall-clock (epoch) seconds, so a task that starts late gets only
    what is left. (The level itself is sent to each worker once.)"""

    key: str
    horizon: int
    colors: tuple[str, ...]
    budget: int
    deadline: float | None
    engine: str
    seed: int
    after: After | None = None  # the child searched canonical after this move (the cube's last; kamicp/prior.py)


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
        data["moves"] = [move_dict(level, m) if level else {"cell": m.cell, "colour": m.color} for m in self.moves]
        return data

    @classmethod
    def from_stored(cls, data: dict) -> CubeAnswer:
        return cls(key=data["key"], horizon=int(data["horizon"]), outcome=CubeOutcome(data["outcome"]),
                   by=EngineName(data["by"]), seconds=float(data["seconds"]),
                   cpu_seconds=float(data["cpu_seconds"]), worker=str(data["worker"]), source=CubeSource.STORE,
                   after=bool(data.get("after", False)))


@dataclass(frozen=True)
class HorizonCubes:
    """One horizon of a distributed proof: its cubes (distinct child boards) of `depth` moves standing for
    `sequences` move sequences, and the answers gathered (all refuted: the horizon is refuted)."""

    horizon: int
    depth: int
    cubes: int
    sequences: int
    answers: tuple[CubeAnswer, ...]
    outcome: Outcome

    def counts(self) -> dict[str, int]:
        """Cubes by how they were answered: refuted by the bound / cpsat / search, from the store or a
        higher horizon, solved, unknown."""
        out: dict[str, int] = {}
        for a in self.answers:
            if a.source != CubeSource.TASK:
                name = str(a.source)
            elif a.outcome == CubeOutcome.REFUTED:
                name = str(a.by)
            else:
                name = str(a.outcome)
            out[name] = out.get(name, 0) + 1
        return out

    def to_dict(self) -> dict:
        return {"horizon": self.horizon, "depth": self.depth, "cubes": self.cubes, "sequences": self.sequences,
                "outcome": str(self.outcome), "counts": self.counts(),
                "answers": [a.to_dict() for a in self.answers]}


@dataclass(frozen=True)
class DistributedResult:
    """A distributed solve: the Result (as `solve` gives it), the cube summary of each horizon tried, the
    number of Dask workers and the seconds the parent spent before the first cube (`prepare`)."""

    result: Result
    horizons: tuple[HorizonCubes, ...]
    workers: int
    prepare_seconds: float = 0.0

    def to_dict(self, level: Level) -> dict:
        return {**self.result.to_dict(level), "workers": self.workers,
                "prepare_seconds": round(self.prepare_seconds, 4), "cubes": [h.to_dict() for h in self.horizons]}


# --- the task, on a worker ------------------------------------------------------------------------
def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _worker_address() -> str:
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except (ImportError, ValueError):
        return "local"


def _prover(result: Result) -> EngineName:
    """The engine whose proof refuted the child's last horizon (the bound when no search was needed)."""
    rows = [h for h in result.proof if h.outcome in (Outcome.INFEASIBLE, Outcome.IMPLIED)]
    return max(rows, key=lambda h: h.steps).engine if rows else EngineName.BOUND


def run_cube(level: Level, task: CubeTask) -> CubeAnswer:
    """Answer one cube of `level` (runs on a Dask worker): the child's lower bound first, then the solver."""
    t0, c0 = time.monotonic(), _cpu()
    child = level.position(task.colors, f"{level.name}#{task.key}")

    def answer(outcome: CubeOutcome, by: EngineName, moves: tuple[Move, ...] = ()) -> CubeAnswer:
        return CubeAnswer(task.key, task.horizon, outcome, by, moves, time.monotonic() - t0, _cpu() - c0,
                          _worker_address(), after=task.after is not None)

    regions = regions_of(child)
    if lower_bound(regions.adj, regions.colors, len(regions.palette)) > task.budget:
        return answer(CubeOutcome.REFUTED, EngineName.BOUND)
    left = None if task.deadline is None else task.deadline - time.time()
    if left is not None and left <= 0:
        return answer(CubeOutcome.UNKNOWN, EngineName(task.engine))
    # the race's second process cannot start in a daemonic worker (a `dask worker` started without
    # DASK_DISTRIBUTED__WORKER__DAEMON=False): there the search answers alone (each answer names its engine)
    engine = EngineName.SEARCH if task.engine == EngineName.AUTO and current_process().daemon else task.engine
    kwargs = {"max_steps": task.budget, "time_limit": left, "engine": engine, "workers": 1, "seed": task.seed}
    # with a prior, NO_SOLUTION means only "none canonical after the cube's last move": a cube's refutation
    result = (solve(child, options=CUBE_OPTIONS, **kwargs) if task.after is None
              else solve_after(child, task.after, options=CUBE_OPTIONS, **kwargs))
    if result.status == Status.NO_SOLUTION:
        return answer(CubeOutcome.REFUTED, _prover(result))
    if result.status == Status.OPTIMAL:
        return answer(CubeOutcome.SOLVED, result.engine, result.moves)
    return answer(CubeOutcome.UNKNOWN, result.engine)


# --- the run, on the parent -----------------------------------------------------------------------
@contextmanager
def dask_client(address: str, workers: int, timeout: float | None = None) -> Iterator[Any]:
    """A Dask client of the scheduler at `address` (which must answer within `timeout` seconds, at most
    the connect timeout), or of a LocalCluster of `workers` one-thread worker processes for 'local'; closed
    (and the LocalCluster shut down) on the way out."""
    from kamicp.runtime.cluster import connect, quiet_logs

    with quiet_logs():
        client, cluster = connect(address, workers, timeout)
        try:
            yield client
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def cube_settings(depth: int, after: bool = False) -> str:
    """The settings that change a cube's answer besides the level, the cube and the horizon (its key).
    `after`: the child searched canonical after the cube's last move (a weaker refutation; a cube's prior
    is always its last move, so the key names it). Rows without it are unrestricted refutations, valid
    for either question."""
    return json.dumps({"rules": "free", "cube_depth": depth, **({"after": "last move"} if after else {})},
                      sort_keys=True)


@dataclass
class _Ledger:
    """What the run has established so far (mutable, private to one run)."""

    lower: int
    best: tuple[Move, ...] | None
    best_source: EngineName
    found_at: float
    proof: list[Horizon]
    horizons: list[HorizonCubes]
    refuted: dict[str, int]  # cube key -> highest horizon it was refuted at in this run
    refuted_after: dict[str, int]  # the same, canonical after the cube's last move (reused only with that prior)


class DistributedRun:
    """Top-down from the best known solution: refute best - 1 by its cubes, or find a shorter solution."""

    def __init__(self, level: Level, client: Any, *, depth: int, engine: str, time_limit: float | None,
                 max_steps: int | None, seed: int, store: Store | None, progress: CubeProgress | None,
                 options: SolveOptions | None = None, window: int = WINDOW) -> None:
        check_depth(depth)
        self.window = window
        self.options = options or SolveOptions()
        self.level, self.client, self.depth, self.engine, self.seed = level, client, depth, engine, seed
        self.max_steps, self.store = max_steps, store
        self.start = time.monotonic()
        self.time_limit = time_limit = time_budget(time_limit)
        self.deadline = None if time_limit is None else self.start + time_limit
        self.progress = progress or (lambda _h, _d, _t: None)
        self.hash = level_hash(level.with_par(None))
        self.prepared: Prepared | None = None
        self.ledger: _Ledger | None = None
        self.futures: list[Any] = []
        self.shared: Any = None  # the level, sent to every worker once
        self.prepare_seconds = 0.0
        self.run_id = uuid.uuid4().hex[:12]  # task keys unique to this run (a client may hold an earlier run's)
        self.saved = 0  # cube answers this run committed to the store
        self.cube_of: dict[str, tuple[Cube, int, int]] = {}  # a task's key -> its cube, attempt and horizon

    def run(self) -> DistributedResult:
        try:
            [self.shared] = self.client.scatter([self.level], broadcast=True, hash=False)
            self.prepared = prepare(self.level, self.options, start=self.start, time_limit=self.time_limit)
            self.prepare_seconds = time.monotonic() - self.start
            p = self.prepared
            best = None if p.upper.plan is None else to_moves(p.regions, p.upper.plan)
            self.ledger = _Ledger(p.bound.value, best, p.upper.source, p.upper.found_at, [], [], {}, {})
            if p.bound.value > 0:
                self.ledger.proof.append(Horizon(p.bound.value - 1, Outcome.BOUND, 0.0, EngineName.BOUND))
            self._stored_solution()
            return self._top_down()
        except KeyboardInterrupt as exc:
            self._cancel()
            partial = self._partial()
            raise CubesInterrupted(None if partial is None else partial.result, signal_of(exc),
                                   None if self.store is None else self.saved) from None
        except BaseException:
            self._cancel()
            raise

    def _cancel(self) -> None:
        if self.futures:
            with contextlib.suppress(Exception):  # (a lost scheduler cannot be asked)
                self.client.cancel(self.futures)
            self.futures = []

    def _partial(self) -> DistributedResult | None:
        return None if self.ledger is None else self._result(Status.UNKNOWN, self.ledger.lower)

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    # --- the horizons ---------------------------------------------------------------------------
    def _top_down(self) -> DistributedResult:
        led = self.ledger
        assert led is not None and self.prepared is not None
        while True:
            if led.best is None:  # no time even for the greedy
                return self._result(Status.UNKNOWN, led.lower)
            top = len(led.best) - 1 if self.max_steps is None else min(len(led.best) - 1, self.max_steps)
            if top < led.lower:
                return self._finish(led.lower)
            if self._past_deadline():
                return self._result(Status.UNKNOWN, led.lower)
            cubes = enumerate_cubes(self.prepared.regions, min(self.depth, top), self.options.search.cube_order)
            if cubes.shorter is not None:  # a solution shorter than the cubes: they would not cover it
                self._improve(to_moves(self.prepared.regions, list(cubes.shorter)), top, EngineName.CUBES)
                continue
            t0 = time.monotonic()
            outcome = self._horizon(top, cubes)
            if outcome == Outcome.UNKNOWN:
                return self._result(Status.UNKNOWN, led.lower)
            if outcome == Outcome.INFEASIBLE:
                led.proof.extend(Horizon(h, Outcome.IMPLIED, 0.0, EngineName.CUBES) for h in range(led.lower, top))
                led.proof.append(Horizon(top, Outcome.INFEASIBLE, time.monotonic() - t0, EngineName.CUBES))
                return self._finish(top + 1)
            led.proof.append(Horizon(top, Outcome.FEASIBLE, time.monotonic() - t0, EngineName.CUBES))

    def _horizon(self, top: int, cubes: CubeSet) -> Outcome:
        """Refute horizon `top` by its cubes (INFEASIBLE), or find a solution within it (FEASIBLE, the new
        best), or run out of time (UNKNOWN)."""
        led = self.ledger
        assert led is not None
        answers, todo = self._known(top, cubes)
        self.progress(top, len(answers), len(cubes.cubes))
        by_key = {c.key: c for c in cubes.cubes}
        answers.extend(bounded := self._bounded(top, todo))
        self._record(*bounded)
        refuted = {a.key for a in bounded}
        todo = [c for c in todo if c.key not in refuted]
        self.progress(top, len(answers), len(cubes.cubes))
        if todo and self._past_deadline():
            led.horizons.append(HorizonCubes(top, cubes.depth, len(cubes.cubes), cubes.sequences, tuple(answers),
                                             Outcome.UNKNOWN))
            return Outcome.UNKNOWN
        outcome = self._gather(top, todo, answers, by_key, len(cubes.cubes)) if todo else Outcome.INFEASIBLE
        self._cancel()
        led.horizons.append(HorizonCubes(top, cubes.depth, len(cubes.cubes), cubes.sequences, tuple(answers),
                                         outcome))
        return outcome

    def _submit(self, top: int, cubes: list[Cube], attempt: int = 0) -> list[Any]:
        again = f"-again{attempt}" if attempt else ""
        with warnings.catch_warnings():  # many small tasks are what a cube split is: no advice needed
            warnings.filterwarnings("ignore", message="Sending large graph")
            futures = self.client.map(run_cube, [self.shared] * len(cubes), [self._task(top, c) for c in cubes],
                                      pure=False, key=[f"kamicp-cube-{self.run_id}-{top}-{c.key}{again}"
                                                       for c in cubes])
        self.futures.extend(futures)
        for fut, cube in zip(futures, cubes, strict=True):
            self.cube_of[fut.key] = (cube, attempt, top)
        return futures

    def _retry(self, fut: Any) -> Any:
        """A cube whose task was lost with a worker (its data gone: the level sent to the workers, or the task
        itself), sent again; the level is sent again first if the cluster lost it. After RETRIES a
        SolverError."""
        cube, attempt, top = self.cube_of[fut.key]
        if attempt >= RETRIES:
            raise SolverError(f"the Dask task of cube {cube.key} was lost {attempt + 1} times (workers killed?)")
        if self.shared.status != "finished":
            [self.shared] = self.client.scatter([self.level], broadcast=True, hash=False)
        [again] = self._submit(top, [cube], attempt + 1)
        return again

    def _gather(self, top: int, todo: list[Cube], answers: list[CubeAnswer], by_key: dict[str, Cube],
                total: int) -> Outcome:
        """Send the cubes as tasks, a window at a time (so a deadline or a solved cube stops the run without
        tens of thousands of tasks to send and cancel), and take their answers as they come (each recorded
        at once) until one is solved or unknown, all are refuted, or the deadline."""
        from distributed import as_completed

        led = self.ledger
        assert led is not None and self.prepared is not None
        window = max(self.window, 8 * len(self.client.nthreads()))
        left = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        queue, in_flight = iter(todo), window
        done = as_completed(self._submit(top, list(islice(queue, window))), timeout=left)
        try:
            for batch in done.batches():
                for fut in batch:
                    answer = self._answer_of(fut)
                    if answer is None:  # lost with a worker: sent again, still in flight
                        done.add(self._retry(fut))
                        continue
                    in_flight -= 1
                    answers.append(answer)
                    self._record(answer)
                    if answer.outcome == CubeOutcome.SOLVED:
                        cube = by_key[answer.key]
                        self._improve((*cube_moves(self.prepared.regions, cube), *answer.moves), top, answer.by)
                        return Outcome.FEASIBLE
                    if answer.outcome == CubeOutcome.UNKNOWN:
                        return Outcome.UNKNOWN
                    refuted = led.refuted_after if answer.after else led.refuted
                    refuted[answer.key] = max(top, refuted.get(answer.key, -1))
                if in_flight < window // 2 and not self._past_deadline():
                    more = self._submit(top, list(islice(queue, window - in_flight)))
                    in_flight += len(more)
                    done.update(more)
                self.progress(top, len(answers), total)
        except TimeoutError:  # the deadline
            return Outcome.UNKNOWN
        return Outcome.INFEASIBLE if len(answers) == total else Outcome.UNKNOWN

    def _known(self, top: int, cubes: CubeSet) -> tuple[list[CubeAnswer], list[Cube]]:
        """The cubes already refuted at this horizon or a higher one (this run, then the store), and the rest."""
        led = self.ledger
        assert led is not None
        stored, ordered = self._stored(cubes.depth, False, top), self._stored(cubes.depth, True, top)
        answers, todo = [], []
        for cube in cubes.cubes:
            after = cube.prior is not None
            if led.refuted.get(cube.key, -1) >= top or after and led.refuted_after.get(cube.key, -1) >= top:
                answers.append(CubeAnswer(cube.key, top, CubeOutcome.REFUTED, EngineName.CUBES,
                                          source=CubeSource.HIGHER, after=after))
            elif cube.key in stored or after and cube.key in ordered:
                row = stored[cube.key] if cube.key in stored else ordered[cube.key]
                answers.append(replace(self._from_store(row), horizon=top))
            else:
                todo.append(cube)
        return answers, todo

    def _stored(self, depth: int, after: bool, top: int) -> dict[str, dict]:
        """The store's cubes refuted at horizon `top` or higher, unrestricted or (`after`) canonical after their
        last move."""
        if self.store is None:
            return {}
        return self.store.cubes_with(self.hash, cube_settings(depth, after), str(CubeOutcome.REFUTED), top)

    def _from_store(self, data: dict) -> CubeAnswer:
        assert self.store is not None
        try:
            return CubeAnswer.from_stored(data)
        except (KeyError, ValueError, TypeError) as e:
            raise FormatError(f"a stored cube is malformed ({e!r})", source=str(self.store.path)) from None

    def _bounded(self, top: int, todo: list[Cube]) -> list[CubeAnswer]:
        """The cubes whose child's lower bound already exceeds the moves left: refuted here, no task needed."""
        assert self.prepared is not None
        out = []
        for cube in todo:
            t0 = time.monotonic()
            if child_bound(self.prepared.regions, cube) > top - cube.depth:
                seconds = time.monotonic() - t0
                out.append(CubeAnswer(cube.key, top, CubeOutcome.REFUTED, EngineName.BOUND, (), seconds, seconds,
                                      "parent"))
            if self._past_deadline():
                break
        return out

    def _task(self, top: int, cube: Cube) -> CubeTask:
        assert self.prepared is not None
        deadline = None if self.deadline is None else time.time() + (self.deadline - time.monotonic())
        return CubeTask(cube.key, top, cell_colors(self.prepared.regions, cube), top - cube.depth, deadline,
                        self.engine, self.seed, cube.prior)

    def _answer_of(self, fut: Any) -> CubeAnswer | None:
        """The cube's answer; None when its task was lost with a worker (to be sent again). A lost scheduler
        is a ClusterLost; a task that failed (or killed workers again and again) a SolverError."""
        from concurrent.futures import CancelledError

        from kamicp.runtime.cluster import lost_scheduler, scheduler_lost

        try:
            return fut.result()
        except Exception as e:  # no answer, so no proof
            if scheduler_lost(self.client, e):
                raise lost_scheduler(str(self.client.scheduler.address)) from None
            if isinstance(e, CancelledError):
                return None
            raise SolverError(f"the Dask task of cube {fut.key} failed: {type(e).__name__}: {e}") from None

    def _record(self, *answers: CubeAnswer) -> None:
        """Save definite answers to the store (committed before the run goes on)."""
        if self.store is None:
            return
        for depth, after in {(a.key.count("/") + 1, a.after) for a in answers}:
            rows = [(a.key, a.horizon, str(a.outcome), a.to_dict()) for a in answers
                    if a.outcome != CubeOutcome.UNKNOWN and (a.key.count("/") + 1, a.after) == (depth, after)]
            self.store.put_cubes(self.hash, cube_settings(depth, after), rows)
            self.saved += len(rows)

    def _stored_solution(self) -> None:
        """A solution a stored solved cube gave in an earlier run, when shorter (replayed before use)."""
        if self.store is None:
            return
        for depth in range(1, self.depth + 1):
            for data in self.store.cubes_with(self.hash, cube_settings(depth), str(CubeOutcome.SOLVED)).values():
                if "solution" not in data:  # (a solved cube's row: its solution is in the "solution" row)
                    continue
                try:
                    moves = tuple(Move(int(m["cell"]), str(m["color"])) for m in data["solution"])
                except (KeyError, ValueError, TypeError) as e:
                    raise FormatError(f"a stored solution is malformed ({e!r})", source=str(self.store.path)) from None
                self._improve(moves, len(moves), EngineName.CUBES)  # (replayed: a wrong one is a RuleError)

    def _improve(self, moves: tuple[Move, ...], top: int, by: EngineName) -> None:
        """A solution within `top` moves: replayed by the rules engine, then the new best if shorter."""
        verify(self.level, moves, max_moves=top)
        led = self.ledger
        assert led is not None
        if led.best is not None and len(moves) >= len(led.best):
            return
        led.best, led.best_source, led.found_at = moves, by, time.monotonic() - self.start
        if self.store is not None:  # kept so that a rerun starts from it
            solution = {"solution": [{"cell": m.cell, "color": m.color} for m in moves]}
            self.store.put_cubes(self.hash, cube_settings(self.depth),
                                 [("solution", len(moves), str(CubeOutcome.SOLVED), solution)])

    # --- the answer -----------------------------------------------------------------------------
    def _finish(self, lower: int) -> DistributedResult:
        led = self.ledger
        assert led is not None and led.best is not None
        if self.max_steps is not None and lower > self.max_steps:
            return self._result(Status.NO_SOLUTION, lower)
        if len(led.best) != lower:
            raise SolverError(f"the cubes refuted {lower - 1} moves but the best solution has {len(led.best)}")
        if not any(h.steps == lower and h.outcome == Outcome.FEASIBLE for h in led.proof):
            led.proof.append(Horizon(lower, Outcome.FEASIBLE, led.found_at, led.best_source))
        return self._result(Status.OPTIMAL, lower)

    def _result(self, status: Status, lower: int) -> DistributedResult:
        led, p = self.ledger, self.prepared
        assert led is not None and p is not None
        led.lower = lower
        best = led.best
        result = Result(level=self.level.name, status=status, moves=best or (), lower_bound=lower,
                        upper_bound=None if best is None else len(best), max_steps=self.max_steps,
                        proof=tuple(sorted(led.proof, key=lambda h: h.steps)), engine=EngineName.CUBES,
                        seconds=time.monotonic() - self.start, regions=p.regions.size,
                        colors=p.regions.num_colors, bound=p.bound)
        workers = len(self.client.nthreads()) if self.client is not None else 0
        return DistributedResult(result, tuple(led.horizons), workers, self.prepare_seconds)


def solve_distributed(level: Level, client: Any, *, depth: int = 1, engine: str = "auto",
                      time_limit: float | None = None, max_steps: int | None = None, seed: int = 0,
                      store: Store | None = None, progress: CubeProgress | None = None,
                      options: SolveOptions | None = None, window: int = WINDOW) -> DistributedResult:
    """A shortest solution of `level` and its proof, the horizons split into cubes of `depth` moves solved as
    tasks of the Dask `client` (see `dask_client`); `store` records each cube's answer as it comes, and
    skips the cubes it already holds as refuted. `options`: the parent's bounds and upper-bound heuristics
    (the cubes' children always use CUBE_OPTIONS). `window`: cube tasks in flight at most (at least 8 per
    worker thread)."""
    return DistributedRun(level, client, depth=depth, engine=engine, time_limit=time_limit, max_steps=max_steps,
                          seed=seed, store=store, progress=progress, options=options, window=window).run()
