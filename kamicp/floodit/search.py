"""The pivot IDA*: depth-first search under a move budget, pruned by the admissible pivot bound
(kamicp.floodit.bound), with a table of proven lower bounds per state kept across budgets.

Only moves that absorb at least one region are tried (plus, once the island is flooded, the one move to
the required final colour): removing a move that absorbs nothing from a solution leaves a solution no
longer (the next move absorbs the same regions from the same flooded set; if it repaints the colour the
flood had before, it absorbs nothing either and goes too). Shares no code with the CP-SAT model.
"""

from __future__ import annotations

from kamicp.floodit.bound import pivot_bound
from kamicp.floodit.game import PivotGame
from kamicp.prover.outcome import Outcome
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import SearchTimeout

NODES_PER_CLOCK = 1  # every node: on large boards one node's bound takes milliseconds, and a clock read is ~0.1 us


class PivotSearch:
    def __init__(self, game: PivotGame) -> None:
        self.game = game
        self.colours = sorted(set(game.regions.colours))
        self.known: dict[tuple[int, int], int] = {}  # state -> proven lower bound on moves to solve it
        self.nodes = 0
        self.deadline = NEVER

    def start(self) -> tuple[int, int]:
        return 1 << self.game.start, self.game.regions.colours[self.game.start]

    def horizon(self, steps: int, deadline: Deadline = NEVER) -> tuple[Outcome, list[int] | None]:
        """FEASIBLE with the colours of a solution of at most `steps` moves, INFEASIBLE (proven) or UNKNOWN
        (the deadline passed)."""
        self.deadline = deadline
        flooded, colour = self.start()
        plan: list[int] = []
        try:
            found = self._dfs(flooded, colour, steps, plan)
        except SearchTimeout:
            return Outcome.UNKNOWN, None
        return (Outcome.FEASIBLE, plan) if found else (Outcome.INFEASIBLE, None)

    def _children(self, flooded: int, colour: int) -> list[tuple[int, int]]:
        game = self.game
        if flooded == game.island:
            return [(flooded, game.final)] if game.final is not None and colour != game.final else []
        out = []
        for c in self.colours:
            if c != colour:
                after = game.absorb(flooded, c)
                if after != flooded:
                    out.append((after, c))
        out.sort(key=lambda child: -child[0].bit_count())  # the biggest flood first
        return out

    def _dfs(self, flooded: int, colour: int, budget: int, plan: list[int]) -> bool:
        self.nodes += 1
        if self.nodes % NODES_PER_CLOCK == 0 and self.deadline.expired():
            raise SearchTimeout
        if self.game.solved(flooded, colour):
            return True
        key = (flooded, colour)
        need = max(self.known.get(key, 0), pivot_bound(self.game, flooded, colour))
        if need > budget:
            self.known[key] = need
            return False
        for after, c in self._children(flooded, colour):
            plan.append(c)
            if self._dfs(after, c, budget - 1, plan):
                return True
            plan.pop()
        self.known[key] = budget + 1  # no solution within budget from here
        return False
