"""The pivot CP-SAT horizon model (models/flood.md, "Flood-It with a fixed pivot"): is there a
solution of exactly T moves when every move repaints the pivot's region?

Plain data in (the PivotGame and T), plain data out (the colour of each move). Only the pivot's region
changes colour, so the state is which initial regions the flood holds: `flooded[t,i]`. One
`_add_<rule>()` per rule; OR-Tools is imported here only (in this package).
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from kamicp.floodit.game import PivotGame
from kamicp.prover.outcome import Outcome


@dataclass
class _Vars:
    flooded: list[list[cp_model.IntVar]]  # [t][i], t = 0..T
    play: list[list[cp_model.IntVar]]  # [t][c], t = 0..T: the flood's colour after move t (t = 0: initial)


class PivotModel:
    def __init__(self, game: PivotGame, horizon: int) -> None:
        self.game, self.T = game, horizon
        self.n = game.n
        self.K = len(game.regions.palette)
        self.reach = [i for i in range(self.n) if game.island >> i & 1]
        m = self.model = cp_model.CpModel()
        self.v = _Vars(
            [[m.new_bool_var(f"flooded[{t},{i}]") for i in range(self.n)] for t in range(self.T + 1)],
            [[m.new_bool_var(f"play[{t},{c}]") for c in range(self.K)] for t in range(self.T + 1)])
        self._add_start()
        self._add_one_colour_per_move()
        self._add_colour_changes()
        self._add_absorption()
        self._add_unflooded_colour_played_later()
        self._add_all_flooded()

    def _add_start(self) -> None:
        g = self.game
        for i in range(self.n):
            self.model.add(self.v.flooded[0][i] == int(i == g.start))
        for c in range(self.K):
            self.model.add(self.v.play[0][c] == int(c == g.regions.colours[g.start]))

    def _add_one_colour_per_move(self) -> None:
        for t in range(1, self.T + 1):
            self.model.add_exactly_one(self.v.play[t])

    def _add_colour_changes(self) -> None:
        for t in range(1, self.T + 1):
            for c in range(self.K):
                self.model.add_bool_or([~self.v.play[t][c], ~self.v.play[t - 1][c]])

    def _add_absorption(self) -> None:
        """flooded[t,i] <=> flooded[t-1,i] or (move t plays i's colour and a neighbour was flooded at t-1)."""
        m, f, colours = self.model, self.v.flooded, self.game.regions.colours
        for t in range(1, self.T + 1):
            for i in range(self.n):
                play = self.v.play[t][colours[i]]
                touch = m.new_bool_var(f"touch[{t},{i}]")  # a neighbour was flooded before move t
                nbrs = [f[t - 1][j] for j in self.game.regions.adj[i]]
                m.add_bool_or([~touch, *nbrs])
                for x in nbrs:
                    m.add_implication(x, touch)
                m.add_implication(f[t - 1][i], f[t][i])
                m.add_bool_or([~play, ~touch, f[t][i]])
                m.add_bool_or([~f[t][i], f[t - 1][i], play])
                m.add_bool_or([~f[t][i], f[t - 1][i], touch])

    def _add_unflooded_colour_played_later(self) -> None:
        """A region still unflooded after move t is absorbed by a later move playing its colour."""
        colours = self.game.regions.colours
        for t in range(self.T):
            for i in self.reach:
                later = [self.v.play[s][colours[i]] for s in range(t + 1, self.T + 1)]
                self.model.add_bool_or([self.v.flooded[t][i], *later])

    def _add_all_flooded(self) -> None:
        for i in self.reach:
            self.model.add(self.v.flooded[self.T][i] == 1)
        if self.game.final is not None:
            self.model.add(self.v.play[self.T][self.game.final] == 1)

    def extract(self, solver: cp_model.CpSolver) -> list[int]:
        """The colour index each move plays."""
        return [next(c for c in range(self.K) if solver.boolean_value(self.v.play[t][c]))
                for t in range(1, self.T + 1)]

    def solve(self, time_limit: float | None = None, workers: int | None = None,
              seed: int = 0) -> tuple[Outcome, list[int] | None]:
        """FEASIBLE with a plan, INFEASIBLE (proven) or UNKNOWN. `seed` is CP-SAT's random seed: which
        solution it finds among several may depend on it (with one worker and no time limit, runs repeat)."""
        solver = cp_model.CpSolver()
        solver.parameters.random_seed = seed
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
        if workers:
            solver.parameters.num_workers = workers
        status = solver.solve(self.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome.FEASIBLE, self.extract(solver)
        if status == cp_model.INFEASIBLE:
            return Outcome.INFEASIBLE, None
        return Outcome.UNKNOWN, None
