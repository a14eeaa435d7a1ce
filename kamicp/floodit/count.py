"""Counting optimal Flood-It solutions (models/counting.md, "Flood-It"). A pivot move is just a colour, so
a plan is a colour sequence; every move repaints the pivot's region, so no two moves commute and the
classes are the solutions. The optimum comes from `solve_pivot_request`; the plans of that length are counted by
a memoised recursion on (flooded set, colour, budget), pruned by the admissible pivot bound."""

from __future__ import annotations

from kamicp.board.level import Move
from kamicp.errors import SolverError
from kamicp.floodit.bound import pivot_bound
from kamicp.floodit.game import PivotGame, pivot_game
from kamicp.floodit.solver import solve_pivot_request
from kamicp.prover.outcome import CountResult, StoppedBy
from kamicp.prover.request import Request
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import SearchTimeout

KEEP = 3  # example plans kept
CLOCK = 256  # states between deadline checks


class PivotCounter:
    """`plans(flooded, colour, b)`: the colour sequences of b moves from (flooded, colour) whose last
    position, and only that one, is solved. Every colour other than the flood's is a move (one that
    absorbs nothing too): the count is of all move sequences, as the rules engine allows them."""

    def __init__(self, game: PivotGame, deadline: Deadline = NEVER) -> None:
        self.game, self.deadline = game, deadline
        self.colours = range(len(game.regions.palette))
        self.memo: dict[tuple[int, int, int], int] = {}
        self.nodes = 0

    def plans(self, flooded: int, colour: int, budget: int) -> int:
        key = (flooded, colour, budget)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes % CLOCK == 0 and self.deadline.expired():
            raise SearchTimeout
        if self.game.solved(flooded, colour):
            total = int(budget == 0)
        elif budget == 0 or pivot_bound(self.game, flooded, colour) > budget:
            total = 0  # admissible bound (models/bounds.md): no plan of `budget` moves from here
        else:
            total = sum(self.plans(self.game.absorb(flooded, c), c, budget - 1) for c in self.colours if c != colour)
        self.memo[key] = total
        return total

    def examples(self, flooded: int, colour: int, budget: int, keep: int = KEEP) -> list[list[int]]:
        """The first `keep` plans in colour order (walking only where `plans` found some)."""
        if budget == 0:
            return [[]] if self.plans(flooded, colour, 0) else []
        found: list[list[int]] = []
        for c in self.colours:
            after = self.game.absorb(flooded, c)
            if c == colour or not self.plans(after, c, budget - 1):
                continue
            found += [[c, *rest] for rest in self.examples(after, c, budget - 1, keep - len(found))]
            if len(found) >= keep:
                break
        return found


def count_pivot_request(request: Request) -> CountResult:
    """The proven Flood-It optimum of the request's level under its `Pivot` rules and the number of optimal
    solutions (= classes), both within the request's budget."""
    level, deadline, progress = request.level, request.budget.deadline, request.budget.progress
    result = solve_pivot_request(request.but(max_steps=None))
    if result.status == NO_SOLUTION:  # islands the flood cannot reach differ in colour: none at all
        return CountResult(level.name, None, 0, 0, True, result.lower_bound, None, (), deadline.elapsed(),
                           True, None)
    if result.status != OPTIMAL:
        return CountResult(level.name, None, 0, 0, False, result.lower_bound, result.upper_bound, (),
                           deadline.elapsed(), stopped_by=StoppedBy.TIME)
    game = pivot_game(level, getattr(request.rules, "cell", None))
    optimum = len(result.moves)
    counter = PivotCounter(game, deadline)
    first = 1 << game.start, game.regions.colours[game.start]
    if progress:
        progress(f"counting plans of {optimum} moves")
    try:
        solutions = counter.plans(*first, optimum)
    except SearchTimeout:
        return CountResult(level.name, optimum, 1, 1, False, optimum, optimum, (result.moves,),
                           deadline.elapsed(), stopped_by=StoppedBy.TIME)
    if solutions == 0:
        raise SolverError(f"counted no plan of {optimum} moves, but the solver replayed one: refusing to report it")
    examples = tuple(tuple(Move(game.pivot_cell, game.regions.palette[c]) for c in plan)
                     for plan in counter.examples(*first, optimum))
    return CountResult(level.name, optimum, solutions, solutions, True, optimum, optimum, examples,
                       deadline.elapsed(), True, None)
