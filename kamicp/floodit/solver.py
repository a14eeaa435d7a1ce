"""Solving Flood-It with a fixed pivot, with proofs. Engine `astar` (and `auto` where the compiled core is
built): the compiled A* with the layered bound (kamicp.floodit.astar), which proves its answer in one run.
Engines `search` and `cpsat` (and `auto` without the compiled core): the pivot bound, a greedy upper bound,
then every horizon from the bound up to the greedy length minus one refuted (or solved) by the pivot
IDA* or the pivot CP-SAT model. Returns kamicp.prover.solver.Result; every solution is replayed by the rules
engine with the pivot rule (kamicp.board.rules.verify(..., pivot=cell)) first.
"""

from __future__ import annotations

from collections.abc import Callable

from kamicp.board.level import Level, Move
from kamicp.board.rules import verify
from kamicp.errors import UsageError
from kamicp.floodit import astar
from kamicp.floodit.bound import pivot_bound
from kamicp.floodit.game import PivotGame, pivot_game
from kamicp.floodit.search import PivotSearch
from kamicp.prover.engines import Answer
from kamicp.prover.horizons import Footing, HorizonLoop
from kamicp.prover.outcome import EngineName, Outcome, Status
from kamicp.prover.request import Budget, Request, check_budget
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL, UNKNOWN, Horizon, Result
from kamicp.runtime.clock import NEVER, Deadline

PIVOT_ENGINES = (EngineName.SEARCH, EngineName.CPSAT, EngineName.ASTAR, EngineName.AUTO)
SEARCH_FIRST = 1.0  # auto: seconds the search gets per horizon before CP-SAT takes it over (measured)
MODEL_SIZE_MAX = 20_000  # regions x steps: larger horizons stay with the search (the model takes seconds to build)


def greedy_plan(game: PivotGame, deadline: Deadline = NEVER) -> list[int] | None:
    """Each move the colour that floods the most regions (ties: the smaller colour), then the final colour.
    None once the deadline has passed (on boards of tens of thousands of regions it takes minutes)."""
    flooded, colour = 1 << game.start, game.regions.colours[game.start]
    plan: list[int] = []
    colours = sorted(set(game.regions.colours))
    while flooded != game.island:
        if deadline.expired():
            return None
        best = max((c for c in colours if c != colour), key=lambda c: (game.absorb(flooded, c).bit_count(), -c))
        flooded, colour = game.absorb(flooded, best), best
        plan.append(best)
    if game.final is not None and colour != game.final:
        plan.append(game.final)
    return plan


class PivotEngines:
    """Flood-It's side of the horizon loop (kamicp.prover.horizons.Prover): each horizon by the pivot IDA* (auto: for
    SEARCH_FIRST s), then by the pivot CP-SAT model; `name` is the engine of the last answer."""

    def __init__(self, game: PivotGame, engine: str, budget: Budget, label: str) -> None:
        self.game, self.engine, self.budget, self.label = game, engine, budget, label
        self.search = PivotSearch(game) if engine != EngineName.CPSAT else None
        self.name = EngineName.SEARCH if self.search is not None else EngineName.CPSAT

    def horizon(self, steps: int, deadline: Deadline, stop: Callable[[], bool] | None = None) -> Answer:
        if self.budget.progress:
            self.budget.progress(f"{self.label}: {steps} moves")
        outcome, plan = Outcome.UNKNOWN, None
        search_only = self.engine == EngineName.SEARCH or (
            self.search is not None and self.game.n * steps > MODEL_SIZE_MAX)
        if self.search is not None:
            until = deadline if search_only else deadline.within(SEARCH_FIRST)
            outcome, plan = self.search.horizon(steps, until)
            self.name = EngineName.SEARCH
        if outcome == Outcome.UNKNOWN and not search_only and not deadline.expired():
            from kamicp.floodit.model import PivotModel  # OR-Tools: only once a horizon needs CP-SAT

            outcome, plan = PivotModel(self.game, steps).solve(time_limit=deadline.limit(0.01),
                                                               workers=self.budget.workers, seed=self.budget.seed)
            self.name = EngineName.CPSAT
        return Answer(Outcome(outcome), plan)


def pivot_footing(level: Level, game: PivotGame, deadline: Deadline) -> Footing:
    """Where the pivot loop starts: the pivot bound and the greedy's replayed solution (None when the deadline
    passed first); a plan is the colours the pivot's region takes, replayed with the pivot rule."""
    cell, palette = game.pivot_cell, game.regions.palette

    def moves(plan: list[int]) -> tuple[Move, ...]:
        return tuple(Move(cell, palette[c]) for c in plan)

    def replay(played: tuple[Move, ...], most: int | None) -> None:
        verify(level, played, max_moves=most, pivot=cell)

    best = greedy_plan(game, deadline)
    if best is not None:
        replay(moves(best), None)
    return Footing(level=level, lower=pivot_bound(game, 1 << game.start, game.regions.colours[game.start]),
                   best=None if best is None else moves(best), source=EngineName.GREEDY, found_at=0.0,
                   size=game.n, colours=game.regions.colours_present, moves=moves, replay=replay)


def _by_astar(game: PivotGame, name: str, budget: Budget, memory_mb: int,
              proof: list[Horizon]) -> tuple[Status, list[int] | None, int]:
    """(status, plan, proven lower bound) by the compiled A*; its rows go in `proof`."""
    progress = budget.progress

    def report(info: dict) -> None:
        if progress:
            progress(f"{name}: A*, at least {info['lower']} moves, {info['stored']:,} flood sets stored")

    run = astar.PivotAStar(game, memory_mb=memory_mb, limit=budget.max_steps, threads=budget.workers
                           ).run(budget.deadline, report)
    plan = None if run.plan is None else list(run.plan)
    root = run.root_bound
    if root > 0:
        proof.append(Horizon(root - 1, Outcome.BOUND, 0.0, EngineName.BOUND))
    if run.status == Status.OPTIMAL and plan is not None:
        if len(plan) - 1 >= root:
            proof.append(Horizon(len(plan) - 1, Outcome.INFEASIBLE, run.seconds, EngineName.ASTAR))
        proof.append(Horizon(len(plan), Outcome.FEASIBLE, run.seconds, EngineName.ASTAR))
        return OPTIMAL, plan, len(plan)
    if run.status == Status.NO_SOLUTION:
        if run.lower - 1 >= root:
            proof.append(Horizon(run.lower - 1, Outcome.INFEASIBLE, run.seconds, EngineName.ASTAR))
        return NO_SOLUTION, None, run.lower
    lower = run.lower if plan is None else min(run.lower, len(plan))
    proof.append(Horizon(lower, Outcome.UNKNOWN, run.seconds, EngineName.ASTAR))
    return UNKNOWN, plan, lower


def solve_pivot_request(request: Request) -> Result:
    """A shortest Flood-It solution of the request's level under its `Pivot` rules (every move taps the
    pivot's region; default pivot: the top-left cell), proven shortest; `no-solution` when none has at most
    `max_steps` moves (or none exists). The budget's `seed` is CP-SAT's random seed (the only random
    choice: the greedy and the search break ties by colour); it may change which optimal solution is found,
    never the optimum. `workers`: CP-SAT's threads, and the A*'s (None: the CPUs the process may use, at
    most astar.MAX_THREADS). The rules' `memory_mb`: the A*'s budget for its stored flood sets (beyond it:
    `unknown` with the bound it proved)."""
    level, rules = request.level, request.rules
    budget = request.budget.but(engine=request.budget.engine_or(EngineName.AUTO))
    check_budget(budget, PIVOT_ENGINES)
    max_steps, deadline, engine = budget.max_steps, budget.deadline, str(budget.engine)
    game = pivot_game(level, getattr(rules, "cell", None))
    name = EngineName(engine)
    proof: list[Horizon] = []

    def result(status: Status, plan: list[int] | None, lower: int) -> Result:
        moves = tuple(Move(game.pivot_cell, game.regions.palette[c]) for c in plan or [])
        if plan is not None:
            verify(level, moves, pivot=game.pivot_cell)
        return Result(level=level.name, status=status, moves=moves, lower_bound=lower,
                      upper_bound=None if plan is None else len(plan), max_steps=max_steps, proof=tuple(proof),
                      engine=name, seconds=deadline.elapsed(), regions=game.n,
                      colours=game.regions.colours_present)

    if game.blocked:
        proof.append(Horizon(max_steps or 0, Outcome.BOUND, 0.0, EngineName.UNREACHABLE))
        return result(NO_SOLUTION, None, 0)
    if engine == EngineName.ASTAR and not astar.available(game):
        raise UsageError("engine astar needs the compiled core (pip install -e . builds it), at most "
                         f"{astar.MAX_COLOURS} colours and {astar.MAX_REGIONS:,} regions")
    if engine == EngineName.ASTAR or (engine == EngineName.AUTO and astar.available(game)):
        name = EngineName.ASTAR
        status, plan, lower = _by_astar(game, level.name or "level", budget,
                                        getattr(rules, "memory_mb", astar.MEMORY_MB), proof)
        if status == UNKNOWN and plan is None:
            plan = greedy_plan(game, deadline)  # a solution to show with the bounds, if time is left
        if status == OPTIMAL and plan is not None and max_steps is not None and len(plan) > max_steps:
            return result(NO_SOLUTION, plan, len(plan))  # (only the one move to the final colour)
        return result(status, plan, lower)
    footing = pivot_footing(level, game, deadline)
    loop = HorizonLoop(footing, PivotEngines(game, engine, budget, level.name or "level"),
                       budget.but(progress=None),  # (the pivot engines report each horizon)
                       label=EngineName(engine))
    return loop.run()
