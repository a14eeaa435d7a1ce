"""The rules by name: `rules_named(level, 'free' | 'pivot', pivot)` is the rules object a request carries."""

from __future__ import annotations

from kamicp.board.level import Level
from kamicp.errors import UsageError
from kamicp.floodit import Pivot, parse_pivot
from kamicp.prover.config import ModelOptions, SolveOptions
from kamicp.prover.request import Rules
from kamicp.prover.solver import Free

RULES = (Free.name, Pivot.name)  # "free", "pivot": the names of the JSON outputs and the packs' settings


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
