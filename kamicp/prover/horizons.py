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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kamicp.board.level import Level, Move
from kamicp.board.regions import Regions, regions_of
from kamicp.board.rules import verify
from kamicp.errors import Interrupted, SolverError
from kamicp.prover.bounds import BoundReport, bound_report
from kamicp.prover.config import ModelOptions, RaceOptions, SolveOptions, as_solve_options
from kamicp.prover.coordination import Coordinator, SharedProofs, Solo
from kamicp.prover.engines import Answer, CpSatEngine, SearchEngine
from kamicp.prover.outcome import EngineName, Horizon, Outcome, Plan, Result, Status, to_moves
from kamicp.prover.pivot_bound import pivot_term
from kamicp.prover.request import Budget, Request
from kamicp.prover.upper import UpperBound, greedy, improve
from kamicp.prover.watch import Tracker, Watcher, ticking, watcher_of
from kamicp.runtime.clock import Deadline
from kamicp.runtime.interrupt import signal_of

NO_TOP = 1 << 30  # the highest horizon to try when there is no upper bound


@dataclass(frozen=True)
class Prepared:
    """What a solve knows before its first horizon; the race computes it once and hands it to its workers."""

    regions: Regions
    bound: BoundReport
    upper: UpperBound  # replayed by the rules engine


def prepare(level: Level, options: SolveOptions, deadline: Deadline, *, known: Prepared | None = None,
            budgets: float | None = None, long_beam: bool = False) -> Prepared:
    """The region graph, the lower bound and the best upper bound (from `known` when given, improved),
    each phase within the deadline. The heuristics' budgets are shares of `budgets` seconds (default: the
    time limit); `long_beam`: the beam again, longer and wider (the long proof). Without time for the greedy there is no
    upper bound (plan None)."""
    if known is None:
        regions = regions_of(level)
        report = bound_report(regions.adj, regions.colours, len(regions.palette), deadline,
                              clusters=options.bound.clusters, pivot=_pivot(regions, options, deadline))
        known = Prepared(regions, report, UpperBound(None, EngineName.GREEDY, 0.0))
    if known.upper.plan is None:
        plan = greedy(known.regions.adj, known.regions.colours, len(known.regions.palette), deadline=deadline)
        known = Prepared(known.regions, known.bound, UpperBound(plan, EngineName.GREEDY, deadline.elapsed()))
    upper = improve(known.regions, known.bound.value, known.upper, options.upper, deadline=deadline,
                    base=deadline.total if budgets is None else budgets, long_beam=long_beam)
    if upper.plan is not None:
        verify(level, to_moves(known.regions, upper.plan))
    return Prepared(known.regions, known.bound, upper)


def _pivot(regions: Regions, options: SolveOptions, deadline: Deadline) -> Callable[[Sequence[int]], int] | None:
    """The root bound's pivot term (models/pivot-free.md), within its own budget: `pivot_seconds`, at most
    `pivot_share` of the time limit."""
    seconds = min(options.bound.pivot_seconds, options.bound.pivot_share * deadline.total)
    return pivot_term(regions.adj, regions.colours, len(regions.palette), options.bound.pivot,
                      Deadline.slice(seconds))


def run_horizons(request: Request, *, options: SolveOptions | ModelOptions | None = None,
                 coordinator: Coordinator | None = None, prepared: Prepared | None = None,
                 known: Prepared | None = None, refuted: tuple[Horizon, ...] = (),
                 search: SearchEngine | None = None, tracker: Tracker | None = None) -> Result:
    """The Kami `request` by one engine (its budget's: 'cpsat' or 'search') through the horizon loop
    (parameters checked by `solver.solve`).

    `prepared`: the region graph, bound and upper bound to use as they are; `known`: to improve first (the
    race's workers). `refuted`: horizons already proved infeasible; the loop starts above them and the
    proof includes them. `search`: a search engine for this level to continue with, transposition table
    and all. `coordinator`: the other engines' proofs and cubes (the race's ledger). `tracker`: told where the
    loop is (the race's ledger, or the first slice's watcher); without one, the budget's `watch` gets
    snapshots of this loop about twice a second."""
    level, budget, engine = request.level, request.budget, str(request.budget.engine)
    opts = as_solve_options(options)
    coord = coordinator if coordinator is not None else Solo()
    own = watcher_of(budget.watch, budget.deadline, budget.estimator) if tracker is None else None
    if own is not None:
        own.sample()  # (the first snapshot, before the bound: a watcher sees the solve has started)
    try:
        with ticking(own):
            if prepared is None:
                prepared = prepare(level, opts, budget.deadline, known=known)
    except KeyboardInterrupt as exc:
        raise Interrupted(None, signal_of(exc)) from None
    footing = kami_footing(level, prepared, opts)

    def cpsat(workers: int | None, seed: int, plan: Plan | None) -> CpSatEngine:
        return CpSatEngine(prepared.regions, workers=workers, seed=seed, model=opts.model, cpsat=opts.cpsat,
                           known=plan, coordinator=coord, monotone=footing.monotone)

    runner: Prover
    if engine == EngineName.CPSAT:
        runner = cpsat(budget.workers, budget.seed, prepared.upper.plan)
    else:
        runner = search if search is not None else SearchEngine(prepared.regions, opts.search)
        coord.attach(runner.ida)
        if own is not None:
            count_nodes(runner, own)
    def hand_over(plan: Plan | None) -> CpSatEngine:  # the race's search process: one worker, another seed
        return cpsat(1, budget.seed + 1, prepared.upper.plan if plan is None else plan)

    loop = HorizonLoop(footing, runner, budget, label=EngineName(engine), coordinator=coord,
                       hand_over=hand_over, race=opts.race, parts=int(opts.cpsat.cubes), tracker=tracker or own)
    if own is None:
        return loop.run(refuted)
    own.update(phase=engine, **prepared_bounds(prepared))
    with ticking(own):
        result = loop.run(refuted)
    finished(own, result)
    return result


def count_nodes(search: SearchEngine, watcher: Watcher) -> None:
    """Let `watcher` read the search's live node count (published by the search every few hundred nodes)."""
    import ctypes

    counter = ctypes.c_longlong(0)
    search.ida.count_into(counter)
    watcher.nodes = lambda: int(counter.value)


def prepared_bounds(prepared: Prepared) -> dict:
    """A watcher's bounds from what the solve knows before its first horizon."""
    plan = prepared.upper.plan
    return {"lower": prepared.bound.value, "upper": None if plan is None else len(plan)}


def finished(watcher: Watcher, result: Result) -> None:
    """The last snapshot: the result's bounds, no horizon open."""
    watcher.update(phase="done", lower=result.lower_bound, upper=result.upper_bound, horizon=None)


def kami_footing(level: Level, prepared: Prepared, options: SolveOptions) -> Footing:
    """Where Kami's loop starts: the prepared bound and replayed upper bound, plans on the region graph."""
    regions = prepared.regions
    plan = prepared.upper.plan
    return Footing(level=level, lower=prepared.bound.value, best=None if plan is None else to_moves(regions, plan),
                   source=prepared.upper.source, found_at=prepared.upper.found_at, size=regions.size,
                   colours=regions.colours_present, moves=lambda p: to_moves(regions, p),
                   replay=lambda moves, most: verify(level, moves, max_moves=most), bound=prepared.bound,
                   # horizons are monotone on a connected board (models/flood.md): a refuted horizon implies
                   # the shorter ones
                   monotone=options.race.top_down and prepared.bound.islands == 1)


@dataclass(frozen=True)
class Footing:
    """What the loop knows before its first horizon, and how a plan becomes moves the rules engine replays
    (`replay(moves, at_most)`: a RuleError when they do not solve the level within `at_most` moves). Kami
    builds it from `Prepared` (`kami_footing`); Flood-It and the cubes build their own."""

    level: Level
    lower: int  # the sound lower bound: every horizon below it is ruled out
    best: tuple[Move, ...] | None  # the best replayed solution (the upper bound), None without one
    source: EngineName  # who found it
    found_at: float  # seconds after the start
    size: int  # regions
    colours: int
    moves: Callable[[Any], tuple[Move, ...]]  # a prover's plan as moves
    replay: Callable[[tuple[Move, ...], int | None], None]
    bound: BoundReport | None = None  # (shown with the result)
    monotone: bool = False  # a refuted horizon implies every shorter one (the loop may go top-down)


class Prover(Protocol):
    """What the loop asks of a puzzle's engines: one horizon at a time ("a solution within `steps` moves?"),
    answered FEASIBLE with a plan, INFEASIBLE (a proof) or UNKNOWN (the deadline, or `stop`). `name` is the
    engine of the last answer (its proof row's engine); a prover may also name, as `found_by`, who found
    its last solution (default: `name`)."""

    name: EngineName

    def horizon(self, steps: int, deadline: Deadline, stop: Callable[[], bool] | None = None) -> Answer: ...


class HorizonLoop:
    """Bottom-up from the lower bound (and, in the race or for the cubes, top-down from the upper bound) to
    `finish`, every answer recorded as a proof row."""

    def __init__(self, footing: Footing, runner: Prover, budget: Budget, *, label: EngineName,
                 coordinator: SharedProofs | None = None, hand_over: Callable[[Plan | None], Prover] | None = None,
                 race: RaceOptions | None = None, parts: int = 0, tracker: Tracker | None = None) -> None:
        self.footing, self.level, self.runner, self.label = footing, footing.level, runner, label
        self.coord = coordinator if coordinator is not None else Solo()
        self.max_steps = budget.max_steps
        self.deadline = budget.deadline  # (its clock times the result and the solutions found)
        self.note = budget.progress or (lambda _msg: None)
        self.hand_over_to = hand_over
        self.top_down_span = (race or RaceOptions()).top_down_span
        self.parts = parts  # CP-SAT's first-move cubes per horizon (what the race's other process may solve)
        self.plan: Plan | None = None
        self.best, self.source, self.found_at = footing.best, footing.source, footing.found_at
        self.proof: list[Horizon] = []
        self.lb = footing.lower
        self.monotone = footing.monotone
        self.track = tracker

    def _tell(self, steps: int | None, lower: int | None = None) -> None:
        """Tell the tracker the bounds proven so far and the horizon now being answered (None: none)."""
        if self.track is None:
            return
        self.track.on_lower(self.lb if lower is None else lower)
        if self.best is not None:
            self.track.on_best(len(self.best))
        self.track.on_horizon(steps, str(self.runner.name))

    def _hand_over(self) -> None:
        """The race's search process switches to CP-SAT."""
        if self.hand_over_to is not None:
            self.runner = self.hand_over_to(self.plan)

    def _past_deadline(self) -> bool:
        return self.deadline.expired()

    def _result(self, status: Status, lower: int, moves: tuple[Move, ...] | None = None) -> Result:
        moves = self.best if moves is None else moves
        f = self.footing
        self._tell(None, lower)
        return Result(level=self.level.name, status=status, moves=moves or (), lower_bound=lower,
                      upper_bound=None if moves is None else len(moves), max_steps=self.max_steps,
                      proof=tuple(sorted(self.proof, key=lambda h: h.steps)), engine=self.label,
                      seconds=self.deadline.elapsed(), regions=f.size, colours=f.colours,
                      bound=f.bound)  # type: ignore[arg-type]

    def partial(self) -> Result:
        """What is proven so far (status 'unknown')."""
        return self._result(Status.UNKNOWN, self.lb)

    def run(self, refuted: tuple[Horizon, ...] = (), *, top_down: bool = False, open_first: bool = False
            ) -> Result:
        """The loop: bottom-up (after the `refuted` horizons), or `top_down` from the best solution less one
        (monotone horizons only: the cubes); with `open_first`, the open horizon (the lower bound) is answered
        bottom-up before the loop goes top-down."""
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
            if top_down and open_first and self.lb < self.top and (done := self._step_up(self.lb)) is not None:
                return done
            return self._top_down(self.top) if top_down else self._bottom_up()
        except KeyboardInterrupt as exc:  # what is proven so far, for the caller to report
            raise Interrupted(self.partial(), signal_of(exc)) from None

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
        return (self.coord.racing and self.monotone and self.runner.name == EngineName.CPSAT
                and steps < self.top < steps + self.top_down_span)

    def _step_up(self, steps: int) -> Result | None:
        """Answer one horizon going up: a Result when the loop ends here, None to go on."""
        self.note(f"horizon {steps}: solving with {self.runner.name}")
        self._tell(steps)
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
            self._tell(steps)
            outcome, plan = self.runner.horizon(steps, self.deadline, self.coord.stopper(steps))
        if outcome == Outcome.UNKNOWN and (other := self.coord.proven(steps)) is not None:
            self.proof.append(other)  # stopped because the other process proved it
            self.lb = steps + 1
            if self.runner.name == EngineName.SEARCH:  # deeper horizons are the model's: a second seed helps most
                self._hand_over()
            return None
        return self._record_up(steps, outcome, plan, time.monotonic() - t0)

    def _record_up(self, steps: int, outcome: Outcome, plan: Any, seconds: float) -> Result | None:
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
        moves = self.footing.moves(plan)
        self.footing.replay(moves, steps)
        if len(moves) != steps:
            raise SolverError(f"{self.runner.name} solved horizon {steps} in {len(moves)} moves, "
                              "below a proven bound: refusing to report it")
        return self._result(Status.OPTIMAL, steps, moves)

    # --- top-down (the race on connected boards, the cubes) -------------------------------------
    def _top_down(self, steps: int) -> Result:
        """Horizons from `steps` down, each solved one shortening the best solution, until one is refuted
        (by this process or the other) or the bound is reached."""
        while steps >= self.lb:
            if self._past_deadline():
                return self._result(Status.UNKNOWN, self.lb)
            if (other := self.coord.proven_from(steps)) is not None:
                self._implied(other)
                return self._finish(other.steps + 1)
            self.note(f"horizon {steps}: solving with {self.runner.name} (top-down)")
            self._tell(steps)
            t0 = time.monotonic()
            outcome, plan = self.runner.horizon(steps, self.deadline, self.coord.stopper(steps))
            if outcome == Outcome.UNKNOWN:
                if self.coord.proven_from(steps) is not None:
                    continue  # the other process proved it (taken from the coordinator above)
                if self.coord.any_solved(steps, self.parts):
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

    def _shorter(self, plan: Any, steps: int) -> None:
        """A solution within `steps` moves found on the way down: the new best, and the new hint."""
        moves = self.footing.moves(plan)
        self.footing.replay(moves, steps)
        self.best, self.plan = moves, plan
        self.source = getattr(self.runner, "found_by", self.runner.name)
        self.found_at = self.deadline.elapsed()
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
            if self.coord.racing or self.best is None:  # (in the race: the other process found that solution)
                return self._result(Status.UNKNOWN, lower)
            raise SolverError(f"{lower - 1} moves were refuted but the best solution has {len(self.best)}")
        if not any(h.steps == lower and h.outcome == Outcome.FEASIBLE for h in self.proof):
            # the replayed upper-bound solution
            self.proof.append(Horizon(lower, Outcome.FEASIBLE, self.found_at, self.source))
        return self._result(Status.OPTIMAL, lower)
