"""Flood-It's rules as the prover's entry points take them (kamicp.prover.request.Rules): `Pivot(cell)`
brings its own engines (the pivot horizon loop, the A*, the pivot count), so the prover never imports
Flood-It and no command branches on the rules. `rules_named` turns the options `--rules`/`--pivot` (and the
packs' settings) into the rules object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kamicp.board.level import Label, Level
from kamicp.errors import UsageError
from kamicp.floodit import astar
from kamicp.floodit.count import count_pivot
from kamicp.floodit.game import pivot_cell
from kamicp.floodit.solver import solve_pivot
from kamicp.floodit.validate import parse_pivot, validate_pivot
from kamicp.prover.config import ModelOptions, SolveOptions
from kamicp.prover.outcome import CountResult, Result, Validation
from kamicp.prover.request import Budget, Rules
from kamicp.prover.solver import Free

RULES = ("free", "pivot")


@dataclass(frozen=True)
class Pivot:
    """Flood-It's rules: every move repaints the region holding the pivot `cell` (None: the top-left cell).
    `memory_mb`: the A*'s budget for its stored flood sets."""

    cell: Label | None = None
    memory_mb: int = astar.MEMORY_MB
    name: ClassVar[str] = "pivot"

    def solve(self, level: Level, budget: Budget) -> Result:
        return solve_pivot(level, self.cell, engine=budget.engine_or("auto"), max_steps=budget.max_steps,
                           time_limit=budget.time_limit, workers=budget.workers, seed=budget.seed,
                           progress=budget.progress, memory_mb=self.memory_mb)

    def validate(self, level: Level, par: int | None, budget: Budget, *, slack: int = 2) -> Validation:
        return validate_pivot(level, par, self.cell, slack=slack, time_limit=budget.time_limit,
                              workers=budget.workers, engine=budget.engine_or("auto"), seed=budget.seed,
                              progress=budget.progress, memory_mb=self.memory_mb)

    def count(self, level: Level, budget: Budget) -> CountResult:
        """The optimum and the number of optimal solutions (no two pivot moves commute: = the classes)."""
        return count_pivot(level, self.cell, time_limit=budget.time_limit, engine=budget.engine_or("auto"),
                           workers=budget.workers, progress=budget.progress)

    def data(self, level: Level) -> dict:
        """What a JSON output adds: the rules and the pivot cell used (the default resolved)."""
        return {"rules": self.name, "pivot": level.tap_data(pivot_cell(level, self.cell))}


def check_rules(name: str, pivot: str | None) -> None:
    """A UsageError for unknown rules, or a pivot without the pivot rules."""
    if name not in RULES:
        raise UsageError(f"unknown rules {name!r} (expected free or pivot)")
    if pivot is not None and name != Pivot.name:
        raise UsageError("--pivot needs --rules pivot")


def rules_named(level: Level, name: str, pivot: str | None = None, *,
                options: SolveOptions | ModelOptions | None = None) -> Rules:
    """The rules `name` ('free' or 'pivot') for `level`, the pivot parsed from its text (ROW,COL or a node id;
    None: the top-left cell); `options`: Kami's configuration. UsageError when the names or the pivot are
    wrong (a pivot must name a cell of the level)."""
    check_rules(name, pivot)
    if name == Pivot.name:
        return Pivot(parse_pivot(level, pivot))
    return Free(options)
