"""The horizon loop: horizons from the lower bound up, each refuted horizon recorded as a proof step.

The first horizon an engine solves is optimal, because every shorter one was refuted (or is below the
sound lower bound). Every solution is replayed by the rules engine before it is kept. A deadline ends
in status 'unknown' with the proven lower bound and the best solution found so far.

The loop knows nothing of processes: other engines reach it only through a `Coordinator` (kamicp.
coordination; a no-op alone, the race's ledger in `auto`). In the race, on a connected board, the
CP-SAT engine goes top-down once at most `RaceOptions.top_down_span` horizons are left: it tries one move
fewer than the best known solution next. Horizons are monotone there (a solved board stays solved by one
more move), so that horizon refuted proves every shorter one impossible too (models/strengthening.md §8).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from kamicp.bounds import BoundReport, bound_report
from kamicp.config import ModelOptions, SolveOptions, as_solve_options
from kamicp.coordination import Coordinator, Solo
from kamicp.engines import CpSatEngine, Engine, SearchEngine
from kamicp.errors import Interrupted, SolverError, Terminated
from kamicp.level import Level, Move
from kamicp.outcome import EngineName, Horizon, Outcome, Plan, Result, Status, to_moves
from kamicp.regions import Regions, regions_of
from kamicp.rules import verify
from kamicp.upper import UpperBound, greedy, improve

Progress = Callable[[str], None]
NO_TOP = 1 << 30  # the highest horizon to try when there is no upper bound


@dataclass(frozen=True)
class Prepared:
    """What a solve knows before its first horizon; the race computes it once and hands it to its workers."""

    regions: Regions
    bound: BoundReport
    upper: UpperBound  # replayed by the rules engine


def prepare(level: Level, options: SolveOptions, *, start: float, time_limit: float | None,
            known: Prepared | None = None, budgets: float | None = None) -> Prepared:
    """The region graph, the lower bound and the best upper bound (from `known` when given, improved),
    each phase within the deadline. The heuristics' budgets are shares of `budgets` (default: the time
    limit). Without time for the greedy there is no upper bound (plan None)."""
    deadline = None if time_limit is None else start + time_limit
    if known is None:
        regions = regions_of(level)
        report = bound_report(regions.adj, regions.colors, len(regions.palette), deadline,
                              clusters=options.bound.clusters)
        known = Prepared(regions, report, UpperBound(None, EngineName.GREEDY, 0.0))
    if known.upper.plan is None:
        plan = greedy(known.regions.adj, known.regions.colors, len(known.regions.palette), deadline=deadline)
        known = Prepared(known.regions, known.bound, UpperBound(plan, EngineName.GREEDY, time.monotonic() - start))
    upper = improve(known.regions, known.bound.value, known.upper, options.upper, start=start,
                    time_limit=time_limit if budgets is None else budgets, deadline=deadline)
    if upper.plan is not None:
        verify(level, to_moves(known.regions, upper.plan))
    return Prepared(known.regions, known.bound, upper)


def run_horizons(level: Level, engine: str, *, max_steps: int | None = None, time_limit: float | None = None,
                 workers: int | None = None, seed: int = 0, options: SolveOptions | ModelOptions | None = None,
                 progress: Progress | None = None, coordinator: Coordinator | None = None,
                 prepared: Prepared | None = None, known: Prepared | None = None,
                 refuted: tuple[Horizon, ...] = (), search: SearchEngine | None = None) -> Result:
    """One engine ('cpsat' or 'search') through the horizon loop (parameters checked by `solver.solve`).

    `prepared`: the region graph, bound and upper bound to use as they are; `known`: to improve first (the
    race's workers). `refuted`: horizons already proved infeasible; the loop starts above them and the
    proof includes them. `search`: a search engine for this level to continue with, transposition table
    and all. `coordinator`: the other engines' proofs and cubes (the race's ledger)."""
    start = time.monotonic()
    opts = as_solve_options(options)
    try:
        if prepared is None:
            prepared = prepare(level, opts, start=start, time_limit=time_limit, known=known)
    except KeyboardInterrupt as exc:
        raise Interrupted(None, signal_of(exc)) from None
    loop = HorizonLoop(level, prepared, EngineName(engine), opts, start=start, time_limit=time_limit,
                       max_steps=max_steps, workers=workers, seed=seed, progress=progress,
                       coordinator=coordinator if coordinator is not None else Solo(), search=search)
    return loop.run(refuted)


def signal_of(exc: KeyboardInterrupt) -> int:
    """The signal behind an interrupt: SIGTERM (the CLI raises `Terminated` for it) or SIGINT."""
    return signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT


class HorizonLoop:
    """Bottom-up from the lower bound (and, in the race, top-down near the upper bound) to `finish`."""

    def __init__(self, level: Level, prepared: Prepared, engine: EngineName, options: SolveOptions, *,
                 start: float, time_limit: float | None, max_steps: int | None, workers: int | None,
                 seed: int, progress: Progress | None, coordinator: Coordinator,
                 search: SearchEngine | None) -> None:
        self.level, self.regions, self.report = level, prepared.regions, prepared.bound
        self.options, self.label, self.coord = options, engine, coordinator
        self.start, self.max_steps, self.workers, self.seed = start, max_steps, workers, seed
        self.deadline = None if time_limit is None else start + time_limit
        self.note = progress or (lambda _msg: None)
        self.plan: Plan | None = prepared.upper.plan
        self.best: tuple[Move, ...] | None = None if self.plan is None else to_moves(self.regions, self.plan)
        self.source, self.found_at = prepared.upper.source, prepared.upper.found_at
        self.proof: list[Horizon] = []
        self.lb = self.report.value
        # horizons are monotone on a connected board (models/flood.md): a refuted horizon implies the shorter
        self.monotone = options.race.top_down and self.report.islands == 1
        self.runner: Engine = (self._cpsat(workers, seed) if engine == EngineName.CPSAT
                               else search if search is not None else SearchEngine(self.regions, options.search))
        if self.runner.name == EngineName.SEARCH:
            coordinator.attach(self.runner.ida)

    def _cpsat(self, workers: int | None, seed: int) -> CpSatEngine:
        return CpSatEngine(self.regions, workers=workers, seed=seed, model=self.options.model,
                           cpsat=self.options.cpsat, known=self.plan, coordinator=self.coord,
                           monotone=self.monotone)

    def _hand_over(self) -> None:
        """The race's search process switches to CP-SAT (one worker, another seed than the other process)."""
        self.runner = self._cpsat(1, self.seed + 1)

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _result(self, status: Status, lower: int, moves: tuple[Move, ...] | None = None) -> Result:
        moves = self.best if moves is None else moves
        return Result(level=self.level.name, status=status, moves=moves or (), lower_bound=lower,
                      upper_bound=None if moves is None else len(moves), max_steps=self.max_steps,
                      proof=tuple(self.proof),
                      engine=self.label, seconds=time.monotonic() - self.start, regions=self.regions.size,
                      colors=self.regions.num_colors, bound=self.report)

    def run(self, refuted: tuple[Horizon, ...]) -> Result:
        if self.lb > 0:
            self.proof.append(Horizon(self.lb - 1, Outcome.BOUND, 0.0, EngineName.BOUND))
        for h in refuted:
            if h.outcome == Outcome.INFEASIBLE and h.steps >= self.lb:
                self.proof.append(h)
                self.lb = h.steps + 1
        # (no upper bound: only when the deadline came first, which then ends the loop)
        top = NO_TOP if self.best is None else len(self.best) - 1
        self.top = top if self.max_steps is None else min(top, self.max_steps)
        try:
            return self._bottom_up()
        except KeyboardInterrupt as exc:  # what is proven so far, for the caller to report
            raise Interrupted(self._result(Status.UNKNOWN, self.lb), signal_of(exc)) from None

    # --- bottom-up ------------------------------------------------------------------------------
    def _bottom_up(self) -> Result:
        steps = self.lb
        while steps <= self.top:
            if self._past_deadline():
                return self._result(Status.UNKNOWN, steps)
            other = self.coord.proven_from(steps) if self.monotone else self.coord.proven(steps)
            if other is not None:  # the other process's proof of this horizon (monotone: or a higher one)
                self._implied(other)
                self.lb = other.steps + 1
            elif self._goes_top_down(steps):
                return self._top_down(self.top)  # skip to the last horizon: its proof implies this one
            elif (done := self._step_up(steps)) is not None:
                return done
            steps = max(steps + 1, self.lb)
        if self.best is not None and (self.max_steps is None or len(self.best) <= self.max_steps) and (
                len(self.best) != self.lb):
            raise SolverError(f"horizons below the {self.source} solution were not all refuted")
        return self._finish(self.lb)

    def _goes_top_down(self, steps: int) -> bool:
        span = self.options.race.top_down_span
        return (self.coord.racing and self.monotone and self.runner.name == EngineName.CPSAT
                and steps < self.top < steps + span)

    def _step_up(self, steps: int) -> Result | None:
        """Answer one horizon going up: a Result when the loop ends here, None to go on."""
        self.note(f"horizon {steps}: solving with {self.runner.name}")
        t0 = time.monotonic()
        if self.runner.name == EngineName.SEARCH:
            self.coord.search_started(steps)
        outcome, plan = self.runner.horizon(steps, self.deadline, self.coord.stopper(steps))
        if outcome == Outcome.UNKNOWN and self.runner.name == EngineName.SEARCH and self.coord.halted(steps):
            # CP-SAT asked for help with its cubes: this process solves cubes from now on
            self._hand_over()
            higher = self.coord.cubing_above(steps) if self.monotone else None
            if higher is not None:  # cubes of a higher horizon, whose proof implies this one
                self.note(f"horizon {higher}: joining CP-SAT's cubes (top-down)")
                return self._top_down(higher)
            self.note(f"horizon {steps}: joining CP-SAT's cubes")
            outcome, plan = self.runner.horizon(steps, self.deadline, self.coord.stopper(steps))
        if outcome == Outcome.UNKNOWN and (other := self.coord.proven(steps)) is not None:
            self.proof.append(other)  # stopped because the other process proved it
            self.lb = steps + 1
            if self.runner.name == EngineName.SEARCH:  # deeper horizons are the model's: a second seed helps most
                self._hand_over()
            return None
        return self._record_up(steps, outcome, plan, time.monotonic() - t0)

    def _record_up(self, steps: int, outcome: Outcome, plan: Plan | None, seconds: float) -> Result | None:
        row = Horizon(steps, outcome, seconds, self.runner.name)
        self.proof.append(row)
        self.note(f"horizon {steps}: {outcome}")
        if outcome == Outcome.INFEASIBLE:
            self.coord.publish(row)
            self.lb = steps + 1
            return None
        if outcome == Outcome.UNKNOWN:
            return self._result(Status.UNKNOWN, steps)
        assert plan is not None
        moves = to_moves(self.regions, plan)
        verify(self.level, moves, max_moves=steps)
        if len(moves) != steps:
            raise SolverError(f"{self.runner.name} solved horizon {steps} in {len(moves)} moves, "
                              "below a proven bound: refusing to report it")
        return self._result(Status.OPTIMAL, steps, moves)

    # --- top-down (the race, connected boards) --------------------------------------------------
    def _top_down(self, steps: int) -> Result:
        """Horizons from `steps` down, each solved one shortening the best solution, until one is refuted
        (by this process or the other) or the bound is reached."""
        parts = int(self.options.cpsat.cubes)
        while steps >= self.lb:
            if self._past_deadline():
                return self._result(Status.UNKNOWN, self.lb)
            if (other := self.coord.proven_from(steps)) is not None:
                self._implied(other)
                return self._finish(other.steps + 1)
            self.note(f"horizon {steps}: solving with {self.runner.name} (top-down)")
            t0 = time.monotonic()
            outcome, plan = self.runner.horizon(steps, self.deadline, self.coord.stopper(steps))
            if outcome == Outcome.UNKNOWN:
                if self.coord.proven_from(steps) is not None:
                    continue  # the other process proved it (taken from the coordinator above)
                if self.coord.any_solved(steps, parts):
                    steps -= 1  # the other process solved it and reports that solution
                    continue
                return self._result(Status.UNKNOWN, self.lb)
            row = Horizon(steps, outcome, time.monotonic() - t0, self.runner.name)
            self.note(f"horizon {steps}: {outcome}")
            if outcome == Outcome.INFEASIBLE:
                self._implied(row)
                self.coord.publish(row)
                return self._finish(steps + 1)
            self.proof.append(row)
            assert plan is not None
            self._shorter(plan, steps)
            steps = len(self.best) - 1
        return self._finish(self.lb)

    def _shorter(self, plan: Plan, steps: int) -> None:
        """A solution within `steps` moves found on the way down: the new best, and the new hint."""
        self.best = to_moves(self.regions, plan)
        verify(self.level, self.best, max_moves=steps)
        self.plan = plan
        if isinstance(self.runner, CpSatEngine):
            self.runner.known = plan

    def _implied(self, row: Horizon) -> None:
        """The proof row of a refuted horizon, after rows for lb..row.steps-1, which it implies (monotone)."""
        self.proof.extend(Horizon(h, Outcome.IMPLIED, 0.0, row.engine) for h in range(self.lb, row.steps))
        self.proof.append(row)

    def _finish(self, lower: int) -> Result:
        """Every horizon below `lower` is ruled out: optimal if the best solution is that short."""
        if self.max_steps is not None and lower > self.max_steps:
            return self._result(Status.NO_SOLUTION, lower)
        if self.best is None or len(self.best) != lower:
            return self._result(Status.UNKNOWN, lower)  # (in the race: the other process found that solution)
        if not any(h.steps == lower and h.outcome == Outcome.FEASIBLE for h in self.proof):
            # the replayed upper-bound solution
            self.proof.append(Horizon(lower, Outcome.FEASIBLE, self.found_at, self.source))
        return self._result(Status.OPTIMAL, lower)
