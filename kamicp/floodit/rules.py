"""Flood-It's rules as the prover's entry points take them (kamicp.prover.request.Rules): `Pivot(cell)`
brings its own engines (the pivot horizon loop, the A*, the pivot count), so the prover never imports
Flood-It and no command branches on the rules (kamicp.rulebook turns the options `--rules`/`--pivot` into
it). The keyword faces (`solve_pivot`, `validate_pivot`, `count_pivot`) build the request once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kamicp.board.level import Label, Level
from kamicp.errors import UsageError
from kamicp.floodit import astar
from kamicp.floodit.count import count_pivot_request
from kamicp.floodit.game import pivot_cell
from kamicp.floodit.solver import solve_pivot_request
from kamicp.prover.outcome import CountResult, Result, Validation
from kamicp.prover.request import Budget, Progress, Request
from kamicp.prover.solver import validated


@dataclass(frozen=True)
class Pivot:
    """Flood-It's rules: every move repaints the region holding the pivot `cell` (None: the top-left cell).
    `memory_mb`: the A*'s budget for its stored flood sets."""

    cell: Label | None = None
    memory_mb: int = astar.MEMORY_MB
    name: ClassVar[str] = "pivot"
    chooses_region: ClassVar[bool] = False  # every move repaints the pivot's region

    def solve(self, request: Request) -> Result:
        return solve_pivot_request(request)

    def validate(self, request: Request, par: int | None, *, slack: int = 2) -> Validation:
        return validated(request, par, slack=slack)

    def count(self, request: Request) -> CountResult:
        """The optimum and the number of optimal solutions (no two pivot moves commute: = the classes)."""
        return count_pivot_request(request)

    def data(self, level: Level) -> dict:
        """What a JSON output adds: the rules and the pivot cell used (the default resolved)."""
        return {"rules": self.name, "pivot": level.tap_data(pivot_cell(level, self.cell))}

    def describe(self, level: Level) -> str:
        """What a human-readable output says of these rules: Flood-It's, and the pivot cell used."""
        return f"Flood-It rules, pivot {level.format_label(pivot_cell(level, self.cell))}"


# --- the keyword faces (kamicp.floodit's): each builds the request once ---------------------------------
def solve_pivot(level: Level, pivot: Label | None = None, *, engine: str = "auto", max_steps: int | None = None,
                time_limit: float | None = None, workers: int | None = None, seed: int = 0,
                progress: Progress | None = None, memory_mb: int = astar.MEMORY_MB) -> Result:
    """A shortest Flood-It solution (every move taps the pivot's region; default pivot: the top-left cell),
    proven shortest: `solve_pivot_request` (kamicp/floodit/solver.py) of these fields."""
    budget = Budget.start(time_limit, max_steps=max_steps, workers=workers, seed=seed, engine=engine,
                          progress=progress)
    return Request(level, Pivot(pivot, memory_mb), budget).solve()


def prove_pivot_under(level: Level, under: int, pivot: Label | None = None, **kwargs) -> Result:
    """Prove no pivot solution has fewer than `under` moves (status no-solution), or show one that has."""
    if under < 1:
        raise UsageError(f"--under must be at least 1, got {under}")
    return solve_pivot(level, pivot, max_steps=under - 1, **kwargs)


def validate_pivot(level: Level, par: int | None = None, pivot: Label | None = None, *, slack: int = 2,
                   memory_mb: int = astar.MEMORY_MB, time_limit: float | None = None, **kwargs) -> Validation:
    """Check a par under the Flood-It rules: solve up to par + slack pivot moves and compare the proven
    bounds with it (verdicts as `kamicp.prover.solver.validate`). `kwargs`: the budget's other fields."""
    return Request(level, Pivot(pivot, memory_mb), Budget.start(time_limit, **kwargs)).validate(par, slack=slack)


def count_pivot(level: Level, pivot: Label | None = None, *, time_limit: float | None = None,
                engine: str = "auto", workers: int | None = None, progress: Progress | None = None) -> CountResult:
    """The proven Flood-It optimum of `level` and the number of optimal solutions (= classes)."""
    budget = Budget.start(time_limit, engine=engine, workers=workers, progress=progress)
    return Pivot(pivot).count(Request(level, Pivot(pivot), budget))
