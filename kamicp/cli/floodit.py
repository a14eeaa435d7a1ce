"""Flood-It rules (`--rules pivot`) for the solving commands: the options, the pivot's parsing, and how a
pivot Result is printed (its proof rows come from the pivot bound, not the Kami bound)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from kamicp.board.level import Label, Level
from kamicp.cli.console import out, plural, shown
from kamicp.cli.report import print_result, summary
from kamicp.floodit import Pivot, pivot_cell, rules_named
from kamicp.formats.flood99 import looks_like_flood99
from kamicp.prover.outcome import EngineName, Outcome
from kamicp.prover.request import Rules as RulesObject
from kamicp.prover.solver import Result, options_without
from kamicp.render.terminal import swatch


class Rules(StrEnum):
    FREE = "free"
    PIVOT = "pivot"


RulesOpt = Annotated[Rules, typer.Option("--rules", help="free (Kami: tap any region) or pivot (Flood-It: every "
                                         "move repaints the region holding the pivot cell).")]
PivotOpt = Annotated[str | None, typer.Option("--pivot", metavar="R,C", help="The pivot cell for --rules pivot "
                                              "(row,col; a node id on graph levels); default the top-left cell.")]




def flood_it_note(path: Path, fmt: str | None, rules: Rules) -> str | None:
    """The line that says a Flood-It board is being solved under Kami's rules (the default for every file:
    one level, one answer, whatever file it came in; hint and play know only Kami's rules), or None."""
    flood_it = fmt == "flood99" or (fmt is None and looks_like_flood99(path))
    if not flood_it or rules != Rules.FREE:
        return None
    return ("note: a Flood-It board, solved under Kami's rules (tap any region); Flood-It's own rules "
            "(every move repaints the pivot's region): --rules pivot")


def rules_of(level: Level, rules: Rules, pivot: str | None, no: list[str] | None = None) -> RulesObject:
    """The rules the options name, for `level` (UsageError when --pivot is malformed, not a cell, or without
    --rules pivot); `no`: the --no switches (Kami's)."""
    return rules_named(level, rules.value, pivot, options=options_without(no or []))


def result_data(level: Level, result: Result, rules: RulesObject) -> dict:
    """A solve's JSON: the result, then what the rules add (Flood-It: the rules and the pivot cell)."""
    return {**result.to_dict(level), **rules.data(level)}


def print_solved(level: Level, result: Result, rules: RulesObject, *, show_moves: bool = True) -> None:
    """A solve's result as the rules show it (Flood-It's proof rows come from its own bounds)."""
    if isinstance(rules, Pivot):
        print_pivot_result(level, result, rules.cell, show_moves=show_moves)
    else:
        print_result(level, result, show_moves=show_moves)


def _proof_table(result: Result) -> Table:
    table = Table(title="proof", title_justify="left", show_edge=False)
    for col, justify in (("moves", "right"), ("result", "left"), ("seconds", "right"), ("by", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    words = {Outcome.INFEASIBLE: "impossible (proven)", Outcome.FEASIBLE: "solved",
             Outcome.UNKNOWN: "unknown (time limit)"}
    for h in result.proof_by_horizon():
        if h.engine == EngineName.UNREACHABLE:
            table.add_row("any", "impossible: regions the flood cannot reach differ in colour", "-", "bound")
        elif h.outcome == Outcome.BOUND:
            why = "layered bound" if result.engine == EngineName.ASTAR else "pivot bound (distance and colours left)"
            table.add_row(f"≤ {h.steps}", f"impossible: {why} {h.steps + 1}", "-", "bound")
        elif h.engine == EngineName.ASTAR and h.outcome == Outcome.INFEASIBLE:  # one A* run: every shorter one
            table.add_row(f"≤ {h.steps}", words[h.outcome], f"{h.seconds:.3f}", "astar")
        else:
            table.add_row(str(h.steps), words[h.outcome], f"{h.seconds:.3f}", h.engine)
    return table


def colours_table(level: Level, result: Result) -> Table:
    """The moves under Flood-It's rules: every one repaints the pivot's region, so only the colours differ."""
    table = Table(title=plural(len(result.moves), "move"), title_justify="left", show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("pivot's region → colour")
    for k, move in enumerate(result.moves, start=1):
        table.add_row(str(k), swatch(level, move.color))
    return table


def print_pivot_result(level: Level, result: Result, label: Label | None, *, show_moves: bool = True) -> None:
    pivot = level.format_label(pivot_cell(level, label))
    out.print(f"[bold]{shown(level.name or 'level')}[/]: {plural(result.regions, 'region')}, "
              f"{plural(result.colors, 'colour')}, Flood-It rules, pivot {shown(pivot)}", highlight=False)
    if result.moves and show_moves:
        out.print(colours_table(level, result))
    out.print(_proof_table(result))
    unreachable = any(h.engine == EngineName.UNREACHABLE for h in result.proof)
    out.print(f"[bold]{'no solution (proven)' if unreachable else summary(result)}[/]")
    out.print(f"total {result.seconds:.3f} s, engine {result.engine}")
