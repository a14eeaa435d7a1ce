"""The CP-SAT horizon model ("flood" formulation, written out in models/flood.md).

Plain data in (the initial region graph and a horizon T), plain data out (a plan of moves on initial
regions, or a status). Each rule is added by its own `_add_<rule>()` method; names match the write-up.
OR-Tools is imported here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from kamicp.regions import Regions

Plan = list[tuple[int, int]]  # (initial region index, colour index) per move


@dataclass(frozen=True)
class ModelOptions:
    """Switchable parts of the model. Every one of them is sound (see models/flood.md)."""

    colour_count_bound: bool = True  # colours present after step t <= T - t + 1
    smallest_root: bool = True  # the connectivity root of a clicked set is its smallest region


@dataclass(frozen=True)
class HorizonOutcome:
    """How one horizon ended: 'feasible' (with a plan), 'infeasible' (a proof) or 'unknown'."""

    status: str
    plan: Plan | None
    seconds: float


class FloodModel:
    """Is there a solution of exactly T moves? (Monotone: a solved board stays solved by a move
    that repaints everything, so 'infeasible at T' also rules out every shorter solution.)"""

    def __init__(self, regions: Regions, horizon: int, options: ModelOptions | None = None) -> None:
        self.regions = regions
        self.T = horizon
        self.options = options or ModelOptions()
        self.n = regions.size
        self.K = len(regions.palette)
        self.arcs = [(i, j) for i in range(self.n) for j in regions.adj[i]]
        self.model = cp_model.CpModel()
        self._create_variables()
        self._add_initial_colours()
        self._add_one_colour_per_region()
        self._add_one_old_and_one_new_colour()
        self._add_clicked_have_old_colour()
        self._add_painting()
        self._add_clicked_set_closed()
        self._add_clicked_set_connected()
        self._add_final_colour()
        if self.options.colour_count_bound:
            self._add_colour_count_bound()

    # --- variables ----------------------------------------------------------------------------
    def _create_variables(self) -> None:
        m, n, K, T = self.model, self.n, self.K, self.T
        steps = range(1, T + 1)
        self.color = [[[m.new_bool_var(f"color[{t},{i},{c}]") for c in range(K)] for i in range(n)]
                      for t in range(T + 1)]
        self.click = {t: [m.new_bool_var(f"click[{t},{i}]") for i in range(n)] for t in steps}
        self.old = {t: [m.new_bool_var(f"old[{t},{c}]") for c in range(K)] for t in steps}
        self.new = {t: [m.new_bool_var(f"new[{t},{c}]") for c in range(K)] for t in steps}
        self.root = {t: [m.new_bool_var(f"root[{t},{i}]") for i in range(n)] for t in steps}
        self.parent = {t: {(i, j): m.new_bool_var(f"parent[{t},{i},{j}]") for i, j in self.arcs}
                       for t in steps}
        self.level = {t: [m.new_int_var(0, max(n - 1, 0), f"level[{t},{i}]") for i in range(n)]
                      for t in steps}
        self.final = [m.new_bool_var(f"final[{c}]") for c in range(K)]

    # --- rules --------------------------------------------------------------------------------
    def _add_initial_colours(self) -> None:
        for i, c0 in enumerate(self.regions.colors):
            for c in range(self.K):
                self.model.add(self.color[0][i][c] == int(c == c0))

    def _add_one_colour_per_region(self) -> None:
        for t in range(1, self.T + 1):
            for i in range(self.n):
                self.model.add_exactly_one(self.color[t][i])

    def _add_one_old_and_one_new_colour(self) -> None:
        for t in range(1, self.T + 1):
            self.model.add_exactly_one(self.old[t])
            self.model.add_exactly_one(self.new[t])
            for c in range(self.K):
                self.model.add_bool_or([~self.old[t][c], ~self.new[t][c]])  # a move changes colour

    def _add_clicked_have_old_colour(self) -> None:
        for t in range(1, self.T + 1):
            for i in range(self.n):
                for c in range(self.K):
                    self.model.add(self.color[t - 1][i][c] == self.old[t][c]).only_enforce_if(
                        self.click[t][i])

    def _add_painting(self) -> None:
        for t in range(1, self.T + 1):
            for i in range(self.n):
                for c in range(self.K):
                    now, before = self.color[t][i][c], self.color[t - 1][i][c]
                    self.model.add(now == self.new[t][c]).only_enforce_if(self.click[t][i])
                    self.model.add(now == before).only_enforce_if(~self.click[t][i])

    def _add_clicked_set_closed(self) -> None:
        """A clicked region's neighbour of the old colour is clicked too (it is the same region now)."""
        for t in range(1, self.T + 1):
            for i, j in self.arcs:
                for c in range(self.K):
                    self.model.add_bool_or([
                        ~self.click[t][i], ~self.old[t][c], ~self.color[t - 1][j][c], self.click[t][j]])

    def _add_clicked_set_connected(self) -> None:
        """One root; every other clicked region has a clicked parent neighbour on a lower level."""
        for t in range(1, self.T + 1):
            click, root, level, parent = self.click[t], self.root[t], self.level[t], self.parent[t]
            self.model.add_exactly_one(root)
            for i in range(self.n):
                self.model.add_implication(root[i], click[i])
                self.model.add(level[i] == 0).only_enforce_if(root[i])
                if self.options.smallest_root:
                    for j in range(i):
                        self.model.add_implication(root[i], ~click[j])
                options = [parent[i, j] for j in self.regions.adj[i]]
                self.model.add_bool_or([~click[i], root[i], *options])
            for (i, j), arc in parent.items():
                self.model.add_implication(arc, click[i])
                self.model.add_implication(arc, click[j])
                self.model.add(level[i] >= level[j] + 1).only_enforce_if(arc)

    def _add_final_colour(self) -> None:
        self.model.add_exactly_one(self.final)
        for i in range(self.n):
            for c in range(self.K):
                self.model.add(self.color[self.T][i][c] == self.final[c])

    def _add_colour_count_bound(self) -> None:
        """After step t at most T - t + 1 colours remain: each move removes at most one colour."""
        for t in range(self.T + 1):
            limit = self.T - t + 1
            if limit >= self.K:
                continue
            present = [self.model.new_bool_var(f"present[{t},{c}]") for c in range(self.K)]
            for c in range(self.K):
                for i in range(self.n):
                    self.model.add_implication(self.color[t][i][c], present[c])
            self.model.add(sum(present) <= limit)

    # --- solving ------------------------------------------------------------------------------
    def solve(self, *, time_limit: float | None = None, workers: int | None = None, seed: int = 0
              ) -> HorizonOutcome:
        solver = cp_model.CpSolver()
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
        if workers:
            solver.parameters.num_workers = workers
        solver.parameters.random_seed = seed
        status = solver.solve(self.model)
        seconds = solver.wall_time
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return HorizonOutcome("feasible", self.extract(solver), seconds)
        if status == cp_model.INFEASIBLE:
            return HorizonOutcome("infeasible", None, seconds)
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {self.model.validate()}")
        return HorizonOutcome("unknown", None, seconds)

    def extract(self, solver: cp_model.CpSolver) -> Plan:
        """The moves as (smallest clicked initial region, new colour index), step by step."""
        plan: Plan = []
        for t in range(1, self.T + 1):
            clicked = [i for i in range(self.n) if solver.boolean_value(self.click[t][i])]
            color = next(c for c in range(self.K) if solver.boolean_value(self.new[t][c]))
            plan.append((min(clicked), color))
        return plan
