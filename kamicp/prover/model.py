"""The CP-SAT horizon model ("flood" formulation, written out in models/flood.md).

Plain data in (the initial region graph and a horizon T), plain data out (a plan of moves on initial
regions, or a status). Each rule is added by its own `_add_<rule>()` method; names match the write-up.
OR-Tools is imported here (and in the siblings' own models, kamicp/floodit/model.py and
kamicp/katamino/model.py), each loaded only when a solve first needs CP-SAT (docs/architecture.md, Start-up).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ortools.sat.python import cp_model

from kamicp.board.regions import Regions, islands
from kamicp.board.symmetry import involution
from kamicp.errors import SolverError
from kamicp.prover.config import ModelOptions
from kamicp.prover.outcome import Outcome, Plan
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import watching

__all__ = ["BuildTimeout", "FloodModel", "HorizonOutcome", "ModelOptions"]


class BuildTimeout(Exception):
    """Internal: the deadline passed while the model was built (the horizon's answer is 'unknown')."""


@dataclass(frozen=True)
class HorizonOutcome:
    """How one horizon ended: 'feasible' (with a plan), 'infeasible' (a proof) or 'unknown'."""

    status: Outcome
    plan: Plan | None
    seconds: float


class FloodModel:
    """Is there a solution of exactly T moves? Not monotone in T on boards with islands, so the solver
    refutes every horizon from the lower bound up (models/flood.md); only the race, on connected boards,
    goes top-down (models/strengthening.md §8)."""

    def __init__(self, regions: Regions, horizon: int, options: ModelOptions | None = None,
                 deadline: Deadline = NEVER) -> None:
        self.regions = regions
        self.T = horizon
        self.deadline = deadline  # building stops with BuildTimeout once it passes (checked step by step)
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
        self.sigma = involution(regions.adj, regions.colours) if self.options.symmetry else None
        self.present: dict[int, list[cp_model.IntVar]] = {}
        if self.options.colour_count_bound:
            self._add_colour_count_bound()
        if self.options.tight_colours:
            self._add_tight_colours()
        if self.options.commuting_order:
            self._add_commuting_order()
        if self.options.radius_bound and len(islands(self.n, regions.adj)) == 1:
            self._add_radius_bound()
        if self.sigma is not None:
            self._add_first_move_symmetry()

    def _steps(self, *bounds: int) -> Iterator[int]:
        """range(*bounds), checking the deadline before each step (a large model takes seconds per rule)."""
        for t in range(*bounds):
            if self.deadline.expired():
                raise BuildTimeout(f"horizon {self.T}: the deadline passed while building the model")
            yield t

    # --- variables ----------------------------------------------------------------------------
    def _create_variables(self) -> None:
        m, n, K, T = self.model, self.n, self.K, self.T
        steps = range(1, T + 1)
        self.colour = [[[m.new_bool_var(f"color[{t},{i},{c}]") for c in range(K)] for i in range(n)]
                      for t in self._steps(T + 1)]
        self.click = {t: [m.new_bool_var(f"click[{t},{i}]") for i in range(n)] for t in steps}
        self.old = {t: [m.new_bool_var(f"old[{t},{c}]") for c in range(K)] for t in steps}
        self.new = {t: [m.new_bool_var(f"new[{t},{c}]") for c in range(K)] for t in steps}
        self.root = {t: [m.new_bool_var(f"root[{t},{i}]") for i in range(n)] for t in steps}
        self.parent = {t: {(i, j): m.new_bool_var(f"parent[{t},{i},{j}]") for i, j in self.arcs}
                       for t in steps}
        self.depth = {t: [m.new_int_var(0, max(n - 1, 0), f"depth[{t},{i}]") for i in range(n)]
                      for t in steps}
        self.final = [m.new_bool_var(f"final[{c}]") for c in range(K)]

    # --- rules --------------------------------------------------------------------------------
    def _add_initial_colours(self) -> None:
        for i, c0 in enumerate(self.regions.colours):
            for c in range(self.K):
                self.model.add(self.colour[0][i][c] == int(c == c0))

    def _add_one_colour_per_region(self) -> None:
        for t in self._steps(1, self.T + 1):
            for i in range(self.n):
                self.model.add_exactly_one(self.colour[t][i])

    def _add_one_old_and_one_new_colour(self) -> None:
        for t in self._steps(1, self.T + 1):
            self.model.add_exactly_one(self.old[t])
            self.model.add_exactly_one(self.new[t])
            for c in range(self.K):
                self.model.add_bool_or([~self.old[t][c], ~self.new[t][c]])  # a move changes colour

    def _add_clicked_have_old_colour(self) -> None:
        for t in self._steps(1, self.T + 1):
            for i in range(self.n):
                for c in range(self.K):
                    self.model.add(self.colour[t - 1][i][c] == self.old[t][c]).only_enforce_if(
                        self.click[t][i])

    def _add_painting(self) -> None:
        for t in self._steps(1, self.T + 1):
            for i in range(self.n):
                for c in range(self.K):
                    now, before = self.colour[t][i][c], self.colour[t - 1][i][c]
                    self.model.add(now == self.new[t][c]).only_enforce_if(self.click[t][i])
                    self.model.add(now == before).only_enforce_if(~self.click[t][i])

    def _add_clicked_set_closed(self) -> None:
        """A clicked region's neighbour of the old colour is clicked too (it is the same region now)."""
        for t in self._steps(1, self.T + 1):
            for i, j in self.arcs:
                for c in range(self.K):
                    self.model.add_bool_or([
                        ~self.click[t][i], ~self.old[t][c], ~self.colour[t - 1][j][c], self.click[t][j]])

    def _add_clicked_set_connected(self) -> None:
        """One root; every other clicked region has a clicked parent neighbour of a lower depth."""
        for t in self._steps(1, self.T + 1):
            click, root, depth, parent = self.click[t], self.root[t], self.depth[t], self.parent[t]
            self.model.add_exactly_one(root)
            for i in range(self.n):
                self.model.add_implication(root[i], click[i])
                self.model.add(depth[i] == 0).only_enforce_if(root[i])
                if self.options.smallest_root or self.options.commuting_order:
                    for j in range(i):
                        self.model.add_implication(root[i], ~click[j])
                options = [parent[i, j] for j in self.regions.adj[i]]
                self.model.add_bool_or([~click[i], root[i], *options])
            for (i, j), arc in parent.items():
                self.model.add_implication(arc, click[i])
                self.model.add_implication(arc, click[j])
                self.model.add(depth[i] >= depth[j] + 1).only_enforce_if(arc)

    def _add_final_colour(self) -> None:
        self.model.add_exactly_one(self.final)
        for i in range(self.n):
            for c in range(self.K):
                self.model.add(self.colour[self.T][i][c] == self.final[c])

    def _present(self, t: int) -> list[cp_model.IntVar]:
        """present[t][c] <=> some region has colour c after step t (both directions)."""
        if t not in self.present:
            present = [self.model.new_bool_var(f"present[{t},{c}]") for c in range(self.K)]
            for c in range(self.K):
                for i in range(self.n):
                    self.model.add_implication(self.colour[t][i][c], present[c])
                self.model.add_bool_or([~present[c], *(self.colour[t][i][c] for i in range(self.n))])
            self.present[t] = present
        return self.present[t]

    def _add_colour_count_bound(self) -> None:
        """After step t at most T - t + 1 colours remain: each move removes at most one colour."""
        for t in self._steps(self.T + 1):
            limit = self.T - t + 1
            if limit >= self.K:
                continue
            self.model.add(sum(self._present(t)) <= limit)

    def _add_tight_colours(self) -> None:
        """No wiggle room: when exactly T - t + 1 colours are present after step t, each of the T - t
        moves left must remove a colour, so move t + 1 clicks every region of its old colour."""
        for t in self._steps(self.T):
            limit = self.T - t + 1
            if limit > self.K:
                continue
            present = self._present(t)
            tight = self.model.new_bool_var(f"tight[{t}]")
            self.model.add(sum(present) >= limit).only_enforce_if(tight)
            self.model.add(sum(present) <= limit - 1).only_enforce_if(~tight)
            for i in range(self.n):
                for c in range(self.K):
                    self.model.add_bool_or([
                        ~tight, ~self.old[t + 1][c], ~self.colour[t][i][c], self.click[t + 1][i]])

    def _add_commuting_order(self) -> None:
        """Consecutive clicked sets that are disjoint and not adjacent commute; keep only the order in
        which the smallest regions (the roots) increase: root[t] < root[t + 1] unless the sets touch."""
        m = self.model
        index = {t: m.new_int_var(0, max(self.n - 1, 0), f"rootindex[{t}]") for t in self._steps(1, self.T + 1)}
        for t, var in index.items():
            m.add(var == sum(i * r for i, r in enumerate(self.root[t])))
        # With the symmetry rule the pair (1, 2) stays unordered (models/strengthening.md §4).
        for t in self._steps(2 if self.sigma is not None else 1, self.T):
            touch = []
            for u in range(self.n):
                b = m.new_bool_var(f"touch[{t},{u}]")
                m.add_implication(b, self.click[t][u])
                m.add_bool_or([~b, self.click[t + 1][u], *(self.click[t + 1][w] for w in self.regions.adj[u])])
                touch.append(b)
            dep = m.new_bool_var(f"dependent[{t}]")
            m.add_bool_or([~dep, *touch])
            m.add(index[t] < index[t + 1]).only_enforce_if(~dep)

    def _add_first_move_symmetry(self) -> None:
        """The first move clicks one initial region r; if sigma(r) < r the mirrored solution starts
        with sigma(r) instead, so r is not clicked first."""
        assert self.sigma is not None
        for r, image in enumerate(self.sigma):
            if image < r and self.T >= 1:
                self.model.add(self.click[1][r] == 0)

    def _add_radius_bound(self) -> None:
        """After step t (1 <= t < T) the radius of the current region graph is at most T - t (the
        radius bound of bounds.md for the T - t moves left; connected boards only). Witness: a centre
        and a spanning tree of parent arcs, acyclic by strictly decreasing ranks, with labels
        dist[u] >= dist[parent] + (1 unless u and its parent have the same colour) and dist <= T - t."""
        m, n = self.model, self.n
        for t in self._steps(1, self.T):
            r = self.T - t
            if self.options.radius_window and r > self.options.radius_window:
                continue
            centre = [m.new_bool_var(f"centre[{t},{u}]") for u in range(n)]
            dist = [m.new_int_var(0, r, f"dist[{t},{u}]") for u in range(n)]
            rank = [m.new_int_var(0, max(n - 1, 0), f"rank[{t},{u}]") for u in range(n)]
            m.add_exactly_one(centre)
            for u in range(n):
                m.add(dist[u] == 0).only_enforce_if(centre[u])
                supports = []
                for w in self.regions.adj[u]:
                    arc = m.new_bool_var(f"tree[{t},{u},{w}]")
                    same = m.new_bool_var(f"same[{t},{u},{w}]")
                    for c in range(self.K):  # same -> equal colours after step t
                        m.add_bool_or([~same, ~self.colour[t][u][c], self.colour[t][w][c]])
                    m.add(rank[u] >= rank[w] + 1).only_enforce_if(arc)
                    m.add(dist[u] >= dist[w] + 1).only_enforce_if([arc, ~same])
                    m.add(dist[u] >= dist[w]).only_enforce_if([arc, same])
                    supports.append(arc)
                m.add_bool_or([centre[u], *supports])

    def add_plan_hint(self, plan: Plan) -> bool:
        """Hint a known solution of at most T moves (padded by repainting the solved board)."""
        if len(plan) > self.T:
            return False
        state = list(self.regions.colours)
        adj = self.regions.adj
        steps = list(plan)
        for t in self._steps(1, self.T + 1):
            if t <= len(steps):
                start, new = steps[t - 1]
                old = state[start]
                clicked, stack = {start}, [start]
                while stack:
                    v = stack.pop()
                    for w in adj[v]:
                        if w not in clicked and state[w] == old:
                            clicked.add(w)
                            stack.append(w)
            else:
                old = state[0]
                new = (old + 1) % self.K
                clicked = set(range(self.n))
            for v in clicked:
                state[v] = new
            for i in range(self.n):
                self.model.add_hint(self.click[t][i], i in clicked)
                self.model.add_hint(self.root[t][i], i == min(clicked))
                for c in range(self.K):
                    self.model.add_hint(self.colour[t][i][c], state[i] == c)
            for c in range(self.K):
                self.model.add_hint(self.old[t][c], c == old)
                self.model.add_hint(self.new[t][c], c == new)
        for c in range(self.K):
            self.model.add_hint(self.final[c], state[0] == c)
        return True

    # --- solving ------------------------------------------------------------------------------
    def solve(self, *, time_limit: float | None = None, workers: int | None = None, seed: int = 0,
              stop: Callable[[], bool] | None = None, cube: tuple[int, int] | None = None) -> HorizonOutcome:
        """`stop`: polled while solving; once it says True the solve ends as 'unknown' (the portfolio uses
        it when the other process has answered this horizon). `cube=(p, parts)`: solve only the part of the
        model where the first move's root (its smallest region) is in the p-th of `parts` equal ranges of
        region indices; the parts cover the model, so all of them infeasible is the horizon infeasible
        (models/strengthening.md §7)."""
        model = self.model
        if cube is not None and self.T >= 1:
            part, parts = cube
            model = self.model.clone()
            model.add_exactly_one(self.root[1][i] for i in self.cube_regions(part, parts))
        solver = cp_model.CpSolver()
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
        if workers:
            solver.parameters.num_workers = workers
        solver.parameters.random_seed = seed
        for name, value in self.options.cpsat_parameters:
            setattr(solver.parameters, name, value)
        with watching(solver.stop_search, stop):  # Ctrl-C or `stop`: CP-SAT holds the main thread
            status = solver.solve(model)
        seconds = solver.wall_time
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return HorizonOutcome(Outcome.FEASIBLE, self.extract(solver), seconds)
        if status == cp_model.INFEASIBLE:
            return HorizonOutcome(Outcome.INFEASIBLE, None, seconds)
        if status == cp_model.MODEL_INVALID:
            raise SolverError(f"CP-SAT rejected the model: {model.validate()}")
        return HorizonOutcome(Outcome.UNKNOWN, None, seconds)

    def cube_regions(self, part: int, parts: int) -> range:
        """The regions whose first-move cube is `part` of `parts` (contiguous index ranges)."""
        return range(part * self.n // parts, (part + 1) * self.n // parts)

    def extract(self, solver: cp_model.CpSolver) -> Plan:
        """The moves as (smallest clicked initial region, new colour index), step by step."""
        plan: Plan = []
        for t in range(1, self.T + 1):
            clicked = [i for i in range(self.n) if solver.boolean_value(self.click[t][i])]
            colour = next(c for c in range(self.K) if solver.boolean_value(self.new[t][c]))
            plan.append((min(clicked), colour))
        return plan
