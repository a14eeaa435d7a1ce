"""The Katamino CP-SAT model: exact cover of the free cells by one placement per piece
(written out in models/katamino.md; rule methods named as there). OR-Tools is imported here only.

Plain data in (the free cells, the piece letters and the placements), plain data out (the indices of
the chosen placements), one `_add_<rule>()` per rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from kamicp.errors import SolverError
from kamicp.katamino.puzzle import Placement
from kamicp.runtime.interrupt import watching


@dataclass(frozen=True)
class ModelOutcome:
    """'feasible' with the solutions found, 'infeasible' (a proof; with `complete`, every solution was
    listed) or 'unknown' (the time limit; the solutions found so far)."""

    status: str
    solutions: tuple[tuple[int, ...], ...]
    complete: bool
    seconds: float


@dataclass
class _Vars:
    place: list[cp_model.IntVar]  # place[p]: placement p is used


class KataminoModel:
    def __init__(self, free: Sequence[int], pieces: str, placements: Sequence[Placement]) -> None:
        self.free, self.pieces, self.placements = tuple(free), pieces, tuple(placements)
        self.model = cp_model.CpModel()
        self.v = _Vars([self.model.new_bool_var(f"place[{p}]") for p in range(len(self.placements))])
        self._add_each_piece_once()
        self._add_each_cell_once()

    def _add_each_piece_once(self) -> None:
        for letter in self.pieces:
            self.model.add_exactly_one(x for x, p in zip(self.v.place, self.placements, strict=True)
                                       if p.letter == letter)

    def _add_each_cell_once(self) -> None:
        covering: dict[int, list[cp_model.IntVar]] = {cell: [] for cell in self.free}
        for x, p in zip(self.v.place, self.placements, strict=True):
            for cell in p.cells:
                covering[cell].append(x)
        for xs in covering.values():
            self.model.add_exactly_one(xs)

    def extract(self, values: Callable[[cp_model.IntVar], bool]) -> tuple[int, ...]:
        """The chosen placements' indices."""
        return tuple(p for p, x in enumerate(self.v.place) if values(x))

    def solve(self, *, enumerate_all: bool = False, limit: int | None = None, time_limit: float | None = None,
              workers: int | None = None) -> ModelOutcome:
        """One solution, or with `enumerate_all` every solution (at most `limit`)."""
        solver = cp_model.CpSolver()
        solver.parameters.catch_sigint_signal = False  # Ctrl-C is the process's: the watcher below stops us
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
        if enumerate_all:
            solver.parameters.enumerate_all_solutions = True
            solver.parameters.num_workers = 1  # enumeration is single-threaded in CP-SAT
        elif workers:
            solver.parameters.num_workers = workers
        found = _Collector(self, limit if enumerate_all else 1)
        with watching(solver.stop_search):  # Ctrl-C: CP-SAT holds the main thread, so stop it from there
            status = solver.solve(self.model, found)
        seconds = solver.wall_time
        if status == cp_model.MODEL_INVALID:
            raise SolverError(f"CP-SAT rejected the model: {self.model.validate()}")
        sols = tuple(found.solutions)
        # With enumeration, OPTIMAL means every solution was listed (unless the callback stopped it early).
        complete = status == cp_model.INFEASIBLE or (status == cp_model.OPTIMAL and enumerate_all
                                                     and not found.stopped)
        if sols:
            return ModelOutcome("feasible", sols, complete, seconds)
        return ModelOutcome("infeasible" if status == cp_model.INFEASIBLE else "unknown", (), complete, seconds)


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, owner: KataminoModel, limit: int | None) -> None:
        super().__init__()
        self.owner, self.limit = owner, limit
        self.solutions: list[tuple[int, ...]] = []
        self.stopped = False

    def on_solution_callback(self) -> None:
        self.solutions.append(self.owner.extract(self.boolean_value))
        if self.limit is not None and len(self.solutions) >= self.limit:
            self.stopped = True
            self.stop_search()
