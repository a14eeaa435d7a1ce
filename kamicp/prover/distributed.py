"""Distributed proofs, the run on the parent: each horizon split into cubes (kamicp.prover.cubes), each cube one
Dask task (kamicp.prover.cube_task, on a worker) running the single-machine solver on its child board
(models/cubes.md). The run is the cubes' side of the one horizon loop (kamicp.prover.horizons.HorizonLoop, top-down):
the loop keeps the proof rows and decides the result; the run answers one horizon at a time.

The parent computes what one machine knows first (`horizons.prepare`: regions, lower bound, best known
solution), then refutes "best known - 1" directly: horizons here mean "at most h moves", so that one
refutation proves the best solution optimal (on request the open horizon, the lower bound, first: bottom-up,
when it is cheap to refute). A cube whose child is solved gives a shorter solution (the
cube's moves, then the child's, replayed by the rules engine), and the next horizon is one below it;
cubes refuted at a higher horizon stay refuted. Every answer is saved to the store (if any) as it
arrives, so a rerun skips the cubes already refuted. On request (two worker threads or more, a local pool's or a
Dask cluster's), a top-down horizon whose cubes are slow is also answered whole by CP-SAT on one worker beside
them, whichever first
(CP-SAT refutes some deep horizons far faster than the search's cubes: benchmarks/topics/harder-set.md).
The optional extra `kamicp[dask]` is needed for a cluster.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from kamicp.board.hashing import level_hash
from kamicp.board.level import Level, Move
from kamicp.board.rules import verify
from kamicp.errors import ClusterLost, FormatError, Interrupted, SolverError
from kamicp.prover.config import SolveOptions, as_solve_options
from kamicp.prover.cube_task import (
    CUBE_OPTIONS,
    WHOLE,
    CubeAnswer,
    CubeOutcome,
    CubeSource,
    CubeTask,
    WholeTask,
    run_cube,
    run_whole,
)
from kamicp.prover.cubes import Cube, CubeSet, cell_colours, check_depth, child_bound, cube_moves, enumerate_cubes
from kamicp.prover.engines import Answer
from kamicp.prover.horizons import Footing, HorizonLoop, Prepared, prepare
from kamicp.prover.outcome import EngineName, Horizon, Outcome, Result, to_moves
from kamicp.prover.request import Budget, Request
from kamicp.prover.solver import Free
from kamicp.runtime.clock import Deadline
from kamicp.runtime.interrupt import signal_of
from kamicp.runtime.pool import LocalPool
from kamicp.runtime.store import Store

__all__ = ["CUBE_OPTIONS", "CubeAnswer", "CubeOutcome", "CubeProgress", "CubeSource", "CubeTask", "CubesInterrupted",
           "DistributedResult", "DistributedRun", "HorizonCubes", "cube_settings", "dask_client", "run_cube",
           "solve_distributed", "stored_units"]

CubeProgress = Callable[[int, int, int], None]  # (horizon, cubes answered, cubes in the horizon)
WINDOW = 256  # cube tasks in flight at most (at least 8 per worker thread)
RETRIES = 3  # a cube whose task is lost with a worker is sent again this many times
# CP-SAT beside the cubes starts once the horizon's cubes have run this long and less than half of them are
# answered (benchmarks/topics/harder-set.md, "CP-SAT beside the cubes": s700's and s702's top-down horizons took
# the cubes 25-50 s, where CP-SAT beside them from the start cost 1.5-1.7x; s705's would take them hours)
WHOLE_AFTER = 30.0
WHOLE_CHECK = 1.0  # seconds between two looks at that rule while no cube answers


class CubesInterrupted(Interrupted):
    """A distributed proof interrupted (SIGINT, SIGTERM): what was proven (`result`), and how many cube
    answers this run saved to the store (`saved`; None without a store), which a rerun skips."""

    def __init__(self, result: object, signal: int, saved: int | None) -> None:
        super().__init__(result, signal)
        self.saved = saved


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

    @property
    def whole(self) -> CubeAnswer | None:
        """The answer of the whole horizon by CP-SAT beside the cubes, when it answered (or the store did)."""
        return next((a for a in self.answers if a.key == WHOLE), None)

    def counts(self) -> dict[str, int]:
        """Cubes by how they were answered: refuted by the bound / cpsat / search, from the store or a
        higher horizon, solved, unknown. (Not the whole horizon's answer: `whole`.)"""
        out: dict[str, int] = {}
        for a in self.answers:
            if a.key == WHOLE:
                continue
            if a.source != CubeSource.TASK:
                name = str(a.source)
            elif a.outcome == CubeOutcome.REFUTED:
                name = str(a.by)
            else:
                name = str(a.outcome)
            out[name] = out.get(name, 0) + 1
        return out

    def to_dict(self) -> dict:
        whole = None if self.whole is None else {k: v for k, v in self.whole.to_dict().items() if k != "key"}
        return {"horizon": self.horizon, "depth": self.depth, "cubes": self.cubes, "sequences": self.sequences,
                "outcome": str(self.outcome), "counts": self.counts(), "whole": whole,
                "answers": [a.to_dict() for a in self.answers]}


@dataclass(frozen=True)
class DistributedResult:
    """A distributed solve: the Result (as `solve` gives it), the cube summary of each horizon tried, the
    number of workers and the seconds the parent spent before the first cube (`prepare`). `reused`: the
    units taken from the store (None without one): the cube answers read from it, one per cube and horizon,
    plus 1 when the run started from a solution stored by an earlier run. `pool`: where the cubes ran,
    "dask" (a Dask cluster) or "local" (kamicp.runtime.pool, this machine's cores)."""

    result: Result
    horizons: tuple[HorizonCubes, ...]
    workers: int
    prepare_seconds: float = 0.0
    reused: int | None = None
    pool: str = "dask"

    def to_dict(self, level: Level) -> dict:
        return {**self.result.to_dict(level), "workers": self.workers, "pool": self.pool,
                "prepare_seconds": round(self.prepare_seconds, 4), "cubes": [h.to_dict() for h in self.horizons]}


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


class DistributedRun:
    """The cubes' side of the horizon loop (kamicp.prover.horizons.Prover): horizon `steps` refuted when all its cubes
    are, or a solution within it (the cube's moves, then its child's). The loop goes top-down from the best
    known solution: refute best - 1 by its cubes, or find a shorter solution."""

    name = EngineName.CUBES

    def __init__(self, request: Request, client: Any, *, depth: int, store: Store | None,
                 progress: CubeProgress | None, options: SolveOptions | None = None, window: int = WINDOW,
                 hint: tuple[Move, ...] = (), parent_pivot: bool = True, refuted: tuple[Horizon, ...] = (),
                 open_first: bool = False, whole: bool = False) -> None:
        check_depth(depth)
        # slow top-down horizons also by CP-SAT whole on one worker (with two worker threads or more: _gather)
        self.whole = whole
        self.best_len: int | None = None  # the best solution's length (the top-down horizon is one less)
        self.refuted_before = refuted  # horizons proven infeasible before (the race's): the loop stops above them
        self.open_first = open_first  # the open horizon bottom-up before the loop goes top-down
        # the pivot relation in the parent's child bounds (serial, before any task: on a local pool the
        # children's own solves compute it in parallel, so it is left to them there)
        self.parent_pivot = parent_pivot
        self.hint = hint  # a solution found before (the single-machine race's): replayed, then kept
        self.window = window
        self.options = options or SolveOptions()
        budget = request.budget
        self.level, self.client, self.depth = request.level, client, depth
        self.engine, self.seed = budget.engine_or(EngineName.AUTO), budget.seed
        self.store = store
        self.budget, self.deadline = budget, budget.deadline
        self.progress = progress or (lambda _h, _d, _t: None)
        self.hash = level_hash(self.level.with_par(None))
        self.prepared: Prepared | None = None
        self.horizons: list[HorizonCubes] = []
        self.refuted: dict[str, int] = {}  # cube key -> highest horizon it was refuted at in this run
        self.refuted_after: dict[str, int] = {}  # the same, canonical after the cube's last move (reused only so)
        self.found_by = EngineName.CUBES  # who found the last solution (a cube's child's engine)
        self.futures: list[Any] = []
        self.shared: Any = None  # the level, sent to every worker once
        self.prepare_seconds = 0.0
        self.run_id = uuid.uuid4().hex[:12]  # task keys unique to this run (a client may hold an earlier run's)
        self.saved = 0  # cube answers this run committed to the store
        self.cube_of: dict[str, tuple[Cube, int, int]] = {}  # a task's key -> its cube, attempt and horizon
        self.workers = 0  # the cluster's worker threads, as last counted (the answer reports it)
        self.address = _address_of(client)  # (asked now: a lost scheduler cannot be asked)
        self.stored_solution = False  # the run started from a solution an earlier run stored

    def run(self) -> DistributedResult:
        try:
            [self.shared] = self.client.scatter([self.level], broadcast=True, hash=False)
            self.prepared = prepare(self.level, self.options, self.deadline, long_beam=True)
            self.prepare_seconds = self.deadline.elapsed()
            loop = HorizonLoop(self._footing(), self, self.budget.but(progress=None), label=EngineName.CUBES)
            result = loop.run(self.refuted_before, top_down=True, open_first=self.open_first)
        except Interrupted as exc:
            self._cancel()
            raise CubesInterrupted(exc.result, exc.signal, None if self.store is None else self.saved) from None
        except KeyboardInterrupt as exc:
            self._cancel()
            raise CubesInterrupted(None, signal_of(exc), None if self.store is None else self.saved) from None
        except Exception as exc:
            self._cancel()
            self._raise_if_lost(exc)
            raise
        except BaseException:
            self._cancel()
            raise
        return DistributedResult(result, tuple(self.horizons), self.workers, self.prepare_seconds, self._reused(),
                                 "local" if isinstance(self.client, LocalPool) else "dask")

    def _reused(self) -> int | None:
        """The units taken from the store: cube answers (one per cube and horizon), and the stored solution."""
        if self.store is None:
            return None
        answers = sum(a.source == CubeSource.STORE for h in self.horizons for a in h.answers)
        return answers + self.stored_solution

    def _raise_if_lost(self, exc: Exception) -> None:
        """A ClusterLost (one line, exit 3) for any failure of a call to the cluster once the scheduler is
        gone (a scatter, a map, the workers' count between horizons: each fails its own way)."""
        from kamicp.runtime.cluster import lost_scheduler, no_workers

        if isinstance(exc, ClusterLost) or self.client is None:
            return
        if "No valid workers found" in str(exc):  # (the scheduler's own answer to a scatter: it is there)
            raise no_workers(self.address) from None
        if getattr(self.client, "status", "running") not in ("running", "newly-created") or \
                type(exc).__module__.split(".")[0] == "distributed":  # (its CommClosedError: a reset connection)
            raise lost_scheduler(self.address) from None

    def _footing(self) -> Footing:
        """Where the loop starts: the prepared bound, and the best of the prepared and the stored solutions."""
        p = self.prepared
        assert p is not None
        best = None if p.upper.plan is None else to_moves(p.regions, p.upper.plan)
        source, found_at = p.upper.source, p.upper.found_at
        for moves in self._stored_solutions():
            verify(self.level, moves, max_moves=len(moves))  # (a wrong one is a RuleError)
            if best is None or len(moves) < len(best):
                best, source, found_at = moves, EngineName.CUBES, self.deadline.elapsed()
                self.stored_solution = True
        if self.hint:
            verify(self.level, self.hint, max_moves=len(self.hint))
            if best is None or len(self.hint) < len(best):
                best, source, found_at = self.hint, EngineName.AUTO, self.deadline.elapsed()
                self.stored_solution = False
                self._keep(self.hint)
        self.best_len = None if best is None else len(best)
        return Footing(level=self.level, lower=p.bound.value, best=best, source=source, found_at=found_at,
                       size=p.regions.size, colours=p.regions.colours_present, moves=tuple,
                       replay=lambda moves, most: verify(self.level, moves, max_moves=most), bound=p.bound,
                       monotone=True)

    def _cancel(self) -> None:
        if self.futures:
            with contextlib.suppress(Exception):  # (a lost scheduler cannot be asked)
                self.client.cancel(self.futures)
            self.futures = []

    def _past_deadline(self) -> bool:
        return self.deadline.expired()

    # --- one horizon ----------------------------------------------------------------------------
    def horizon(self, steps: int, deadline: Deadline, stop: Callable[[], bool] | None = None) -> Answer:
        """Refute horizon `steps` by its cubes (INFEASIBLE), or find a solution within it (FEASIBLE, with its
        moves), or run out of time (UNKNOWN). (The run's own deadline is the loop's.)"""
        assert self.prepared is not None
        self.name = EngineName.CUBES  # (the proof row's engine: CP-SAT's when the whole task answers)
        cubes = enumerate_cubes(self.prepared.regions, min(self.depth, steps), self.options.search.cube_order)
        if cubes.shorter is not None:  # a solution shorter than the cubes: they would not cover it
            self.found_by = EngineName.CUBES
            return self._found(to_moves(self.prepared.regions, list(cubes.shorter)), steps)
        whole = self.whole and self.best_len is not None and steps == self.best_len - 1
        outcome, moves = self._horizon(steps, cubes, whole)
        return Answer(outcome, None) if moves is None else self._found(moves, steps)

    def _found(self, moves: tuple[Move, ...], steps: int) -> Answer:
        """A solution within `steps` moves: replayed, kept in the store, handed to the loop."""
        verify(self.level, moves, max_moves=steps)
        self._keep(moves)
        self.best_len = len(moves)
        return Answer(Outcome.FEASIBLE, moves)  # type: ignore[arg-type]

    def _keep(self, moves: tuple[Move, ...]) -> None:
        """A shorter solution, kept so that a rerun starts from it."""
        if self.store is not None:
            solution = {"solution": [{"cell": m.cell, "color": m.colour} for m in moves]}
            self.store.put_cubes(self.hash, cube_settings(self.depth),
                                 [("solution", len(moves), str(CubeOutcome.SOLVED), solution)])

    def _horizon(self, top: int, cubes: CubeSet, whole: bool = False) -> tuple[Outcome, tuple[Move, ...] | None]:
        """Refute horizon `top` by its cubes (INFEASIBLE), or find a solution within it (FEASIBLE, its moves),
        or run out of time (UNKNOWN); with `whole`, CP-SAT answers the whole horizon beside the cubes."""
        answers, todo = self._known(top, cubes)
        self.progress(top, len(answers), len(cubes.cubes))
        by_key = {c.key: c for c in cubes.cubes}
        answers.extend(bounded := self._bounded(top, todo))
        self._record(*bounded)
        refuted = {a.key for a in bounded}
        todo = [c for c in todo if c.key not in refuted]
        self.progress(top, len(answers), len(cubes.cubes))
        if todo and self._past_deadline():
            self.horizons.append(HorizonCubes(top, cubes.depth, len(cubes.cubes), cubes.sequences, tuple(answers),
                                              Outcome.UNKNOWN))
            return Outcome.UNKNOWN, None
        outcome, moves = (self._gather(top, todo, answers, by_key, len(cubes.cubes), whole) if todo
                          else (Outcome.INFEASIBLE, None))
        self._cancel()
        self.horizons.append(HorizonCubes(top, cubes.depth, len(cubes.cubes), cubes.sequences, tuple(answers),
                                          outcome))
        return outcome, moves

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
                total: int, whole: bool = False) -> tuple[Outcome, tuple[Move, ...] | None]:
        """Send the cubes as tasks, a window at a time (so a deadline or a solved cube stops the run without
        tens of thousands of tasks to send and cancel), and take their answers as they come (each recorded
        at once) until one is solved (its solution: the cube's moves, then the child's) or unknown, all are
        refuted, or the deadline. With `whole`, the whole horizon's CP-SAT task joins when the cubes are slow
        (`whole_due`; it then holds one worker): its refutation or solution answers the horizon too; it is
        stopped when the cubes answer."""
        assert self.prepared is not None
        threads = self.client.nthreads()
        self.workers = len(threads)
        slots = sum(threads.values())
        whole = whole and slots >= 2  # (CP-SAT holds one thread: the cubes keep the rest)
        # (when CP-SAT may join, one cube queued beyond the threads and refilled at once: it waits behind few)
        window = slots + 1 if whole else max(self.window, 8 * self.workers)
        refill = window if whole else window // 2
        left = self.deadline.limit()
        flag: int | str = 0  # (the whole task's stop flag, once it is sent)
        first, started, before = None, time.monotonic(), len(answers)
        queue, in_flight = iter(todo), window
        done = _as_completed(self.client, every=whole)(self._submit(top, list(islice(queue, window))), timeout=left)
        try:
            for batch in done.batches(every=WHOLE_CHECK) if whole else done.batches():
                if whole and first is None and whole_due(started, len(answers) - before, len(todo)):
                    first, flag = self._submit_whole(top)
                    done.add(first)
                for fut in batch:
                    if first is not None and fut.key == first.key:
                        if (found := self._whole_answer(fut, answers)) is not None:
                            return found
                        continue
                    answer = self._answer_of(fut)
                    if answer is None:  # lost with a worker: sent again, still in flight
                        done.add(self._retry(fut))
                        continue
                    in_flight -= 1
                    answers.append(answer)
                    self._record(answer)
                    if answer.outcome == CubeOutcome.SOLVED:
                        self.found_by = answer.by
                        return Outcome.FEASIBLE, (*cube_moves(self.prepared.regions, by_key[answer.key]),
                                                  *answer.moves)
                    if answer.outcome == CubeOutcome.UNKNOWN:
                        return Outcome.UNKNOWN, None
                    refuted = self.refuted_after if answer.after else self.refuted
                    refuted[answer.key] = max(top, refuted.get(answer.key, -1))
                if in_flight < refill and not self._past_deadline():
                    more = self._submit(top, list(islice(queue, window - in_flight)))
                    in_flight += len(more)
                    done.update(more)
                self.progress(top, len(answers), total)
                if len(answers) == total:  # (the whole task may still run: it is not waited for)
                    break
        except TimeoutError:  # the deadline
            return Outcome.UNKNOWN, None
        finally:
            if first is not None:  # (its CP-SAT polls the flag: stopped if it still runs)
                self._raise_flag(flag)
        return (Outcome.INFEASIBLE if len(answers) == total else Outcome.UNKNOWN), None

    def _submit_whole(self, top: int) -> tuple[Any, int | str]:
        """The whole horizon's CP-SAT task (kamicp.prover.cube_task.run_whole), and its stop flag (the local pool's
        shared memory, or a Dask event)."""
        flag = _stops_of(self.client).new_flag()
        task = WholeTask(top, self.deadline.portable(), self.seed, self.options.model, self.options.cpsat, flag)
        [fut] = self.client.map(run_whole, [self.shared], [task], pure=False,
                                key=[f"kamicp-whole-{self.run_id}-{top}"])
        self.futures.append(fut)
        return fut, flag

    def _raise_flag(self, flag: int | str) -> None:
        """Stop the whole horizon's task (a local pool's flag, or a Dask event)."""
        _stops_of(self.client).raise_flag(flag)  # type: ignore[arg-type]

    def _whole_answer(self, fut: Any, answers: list[CubeAnswer]) -> tuple[Outcome, tuple[Move, ...] | None] | None:
        """The whole horizon's answer: refuted (the horizon is), solved (its solution), or None (unknown: the
        cubes go on: also when its task failed or was lost with a worker, as CP-SAT only helps them)."""
        try:
            answer = self._answer_of(fut)
        except SolverError:
            return None
        if answer is None or answer.outcome == CubeOutcome.UNKNOWN:
            return None
        answers.append(answer)
        self._record(answer)
        self.name = EngineName.CPSAT
        if answer.outcome == CubeOutcome.SOLVED:
            self.found_by = EngineName.CPSAT
            return Outcome.FEASIBLE, answer.moves
        return Outcome.INFEASIBLE, None

    def _known(self, top: int, cubes: CubeSet) -> tuple[list[CubeAnswer], list[Cube]]:
        """The cubes already refuted at this horizon or a higher one (this run, then the store), and the rest."""
        stored, ordered = self._stored(cubes.depth, False, top), self._stored(cubes.depth, True, top)
        if WHOLE in stored:  # the whole horizon refuted by CP-SAT in an earlier run: no cube is needed
            return [replace(self._from_store(stored[WHOLE]), horizon=top)], []
        answers, todo = [], []
        for cube in cubes.cubes:
            after = cube.prior is not None
            if self.refuted.get(cube.key, -1) >= top or after and self.refuted_after.get(cube.key, -1) >= top:
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
        # (the pivot relation, models/pivot-free.md: one move stronger)
        pivot = self.parent_pivot and self.options.bound.pivot > 0
        for cube in todo:
            t0 = time.monotonic()
            if child_bound(self.prepared.regions, cube, pivot, top - cube.depth) > top - cube.depth:
                seconds = time.monotonic() - t0
                out.append(CubeAnswer(cube.key, top, CubeOutcome.REFUTED, EngineName.BOUND, (), seconds, seconds,
                                      "parent"))
            if self._past_deadline():
                break
        return out

    def _task(self, top: int, cube: Cube) -> CubeTask:
        assert self.prepared is not None
        return CubeTask(cube.key, top, cell_colours(self.prepared.regions, cube), top - cube.depth,
                        self.deadline.portable(),
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
                raise lost_scheduler(self.address) from None
            if isinstance(e, CancelledError):
                return None
            raise SolverError(f"the Dask task of cube {fut.key} failed: {type(e).__name__}: {e}") from None

    def _record(self, *answers: CubeAnswer) -> None:
        """Save definite answers to the store (committed before the run goes on): the cubes' under their
        depth, the whole horizon's under the depth of the horizon's cubes (where `_known` looks)."""
        if self.store is None:
            return

        def depth(a: CubeAnswer) -> int:
            return min(self.depth, a.horizon) if a.key == WHOLE else a.key.count("/") + 1

        for d, after in {(depth(a), a.after) for a in answers}:
            rows = [(a.key, a.horizon, str(a.outcome), a.to_dict()) for a in answers
                    if a.outcome != CubeOutcome.UNKNOWN and (depth(a), a.after) == (d, after)]
            self.store.put_cubes(self.hash, cube_settings(d, after), rows)
            self.saved += len(rows)

    def _stored_solutions(self) -> Iterator[tuple[Move, ...]]:
        """The solutions stored solved cubes gave in earlier runs (to be replayed before use)."""
        if self.store is None:
            return
        for depth in range(1, self.depth + 1):
            for data in self.store.cubes_with(self.hash, cube_settings(depth), str(CubeOutcome.SOLVED)).values():
                if "solution" not in data:  # (a solved cube's row: its solution is in the "solution" row)
                    continue
                try:
                    yield tuple(Move(int(m["cell"]), str(m["color"])) for m in data["solution"])
                except (KeyError, ValueError, TypeError) as e:
                    raise FormatError(f"a stored solution is malformed ({e!r})", source=str(self.store.path)) from None


def whole_due(started: float, answered: int, cubes: int) -> bool:
    """Should CP-SAT join the horizon whole? Once its `cubes` tasks have run WHOLE_AFTER seconds since `started`
    with fewer than half of them `answered` (the cubes alone would likely take as long again, or longer)."""
    return time.monotonic() - started >= WHOLE_AFTER and answered < cubes / 2


def _stops_of(client: Any) -> Any:
    """The stop flags of `client`'s tasks: the local pool's own, or Dask events (kamicp.runtime.cluster.DaskStops)."""
    if isinstance(client, LocalPool):
        return client
    from kamicp.runtime.cluster import DaskStops

    return DaskStops(client)


def _as_completed(client: Any, every: bool = False) -> Callable[..., Any]:
    """The local pool's own `as_completed` (kamicp.runtime.pool), or Dask's; with `every`, one whose
    `batches(every=)` may come empty after that many seconds (Dask's read so: kamicp.runtime.cluster.EveryCompleted)."""
    if isinstance(client, LocalPool):
        return client.as_completed
    if every:
        from kamicp.runtime.cluster import EveryCompleted

        return EveryCompleted
    from distributed import as_completed

    return as_completed


def stored_units(store: Store | None, level: Level, depth: int) -> bool:
    """Does the store hold cube answers or a solution of `level` (cubes of `depth` moves at most)?"""
    if store is None:
        return False
    key = level_hash(level.with_par(None))
    return any(store.cubes_with(key, cube_settings(d, after), str(outcome))
               for d in range(1, depth + 1) for after in (False, True)
               for outcome in (CubeOutcome.REFUTED, CubeOutcome.SOLVED))


def _address_of(client: Any) -> str:
    try:
        return str(client.scheduler.address)
    except AttributeError:  # (a stand-in client of a test, or one already closed)
        return "?"


def solve_distributed(level: Level, client: Any, *, depth: int = 1, engine: str = "auto",
                      time_limit: float | None = None, max_steps: int | None = None, seed: int = 0,
                      store: Store | None = None, progress: CubeProgress | None = None,
                      options: SolveOptions | None = None, window: int = WINDOW) -> DistributedResult:
    """A shortest solution of `level` and its proof, the horizons split into cubes of `depth` moves solved as
    tasks of the Dask `client` (see `dask_client`); `store` records each cube's answer as it comes, and
    skips the cubes it already holds as refuted. `options`: the parent's bounds and upper-bound heuristics
    (the cubes' children always use CUBE_OPTIONS). `window`: cube tasks in flight at most (at least 8 per
    worker thread)."""
    budget = Budget.start(time_limit, max_steps=max_steps, seed=seed, engine=engine)
    return solve_cubes(Request(level, Free(options), budget), client, depth=depth, store=store, progress=progress,
                       window=window)


def solve_cubes(request: Request, client: Any, *, depth: int = 1, store: Store | None = None,
                progress: CubeProgress | None = None, window: int = WINDOW,
                hint: tuple[Move, ...] = (), parent_pivot: bool = True, refuted: tuple[Horizon, ...] = (),
                open_first: bool = False, whole: bool = False) -> DistributedResult:
    """`solve_distributed` of a Kami `request` (its rules' options: the parent's bounds and heuristics).
    `hint`: a solution already found (replayed, then the start when shorter than the parent's own).
    `parent_pivot`: the parent's child bounds with the pivot relation (else each child's solve has it).
    `refuted`: horizons already proven infeasible (the race's proof rows), where the top-down loop stops.
    `open_first`: the open horizon (the lower bound) answered bottom-up before the loop goes top-down.
    `whole`: with two worker threads or more (a local pool's or a Dask cluster's), a top-down horizon whose cubes
    are slow (`whole_due`) also by CP-SAT whole on one worker."""
    options = getattr(request.rules, "options", None)
    return DistributedRun(request, client, depth=depth, store=store, progress=progress,
                          options=None if options is None else as_solve_options(options), window=window,
                          hint=hint, parent_pivot=parent_pivot, refuted=refuted, open_first=open_first,
                          whole=whole).run()
