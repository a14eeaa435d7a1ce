"""Flood-It rules (`--rules pivot`) for the solving commands: the options, the pivot's parsing, and how a
pivot Result is printed (its proof rows come from the pivot bound, not the Kami bound)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from kamicp.cli.console import out, shown
from kamicp.cli.report import moves_table, summary
from kamicp.errors import UsageError
from kamicp.floodit import pivot_cell
from kamicp.floodit.validate import parse_pivot
from kamicp.level import Label, Level
from kamicp.solver import Result


class Rules(StrEnum):
    free = "free"
    pivot = "pivot"


RulesOpt = Annotated[Rules, typer.Option("--rules", help="free (Kami: tap any region) or pivot (Flood-It: every "
                                         "move repaints the region holding the pivot cell).")]
PivotOpt = Annotated[str | None, typer.Option("--pivot", metavar="R,C", help="The pivot cell for --rules pivot "
                                              "(row,col; a node id on graph levels); default the top-left cell.")]




def pivot_label(level: Level, rules: Rules, text: str | None) -> Label | None:
    """The pivot's label from --pivot (UsageError when malformed, not a cell, or without --rules pivot)."""
    if text is None:
        return None
    if rules != Rules.pivot:
        raise UsageError("--pivot needs --rules pivot")
    return parse_pivot(level, text)


def pivot_data(level: Level, result: Result, label: Label | None) -> dict:
    data = result.to_dict(level)
    data["rules"] = "pivot"
    data["pivot"] = level.tap_data(pivot_cell(level, label))
    return data


def _proof_table(result: Result) -> Table:
    table = Table(title="proof", title_justify="left", show_edge=False)
    for col, justify in (("moves", "right"), ("result", "left"), ("seconds", "right"), ("by", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    words = {"infeasible": "impossible (proven)", "feasible": "solved", "unknown": "unknown (time limit)"}
    for h in result.proof_by_horizon():
        if h.engine == "unreachable":
            table.add_row("any", "impossible: regions the flood cannot reach differ in colour", "-", "bound")
        elif h.outcome == "bound":
            why = "layered bound" if result.engine == "astar" else "pivot bound (distance and colours left)"
            table.add_row(f"≤ {h.steps}", f"impossible: {why} {h.steps + 1}", "-", "bound")
        elif h.engine == "astar" and h.outcome == "infeasible":  # one A* run refutes every shorter horizon
            table.add_row(f"≤ {h.steps}", words[h.outcome], f"{h.seconds:.3f}", "astar")
        else:
            table.add_row(str(h.steps), words[h.outcome], f"{h.seconds:.3f}", h.engine)
    return table


def print_pivot_result(level: Level, result: Result, label: Label | None, *, show_moves: bool = True) -> None:
    pivot = level.format_label(pivot_cell(level, label))
    out.print(f"[bold]{shown(level.name or 'level')}[/]: {result.regions} regions, {result.colors} colours, "
              f"Flood-It rules, pivot {shown(pivot)}", highlight=False)
    if result.moves and show_moves:
        out.print(moves_table(level, result))
    out.print(_proof_table(result))
    unreachable = any(h.engine == "unreachable" for h in result.proof)
    out.print(f"[bold]{'no solution (proven)' if unreachable else summary(result)}[/]")
    out.print(f"total {result.seconds:.3f} s, engine {result.engine}")
