"""The pack's terminal table (validate, report), narrow enough for an 80-column terminal: short headers,
the optimum and its bounds in one column, one word per verdict, and report's settings as a line above
each group of rows they produced instead of a column. CSV, Markdown and JSON keep every column."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text

from kamicp.packs import Row, Verdict
from kamicp.packs.report import proof_text, range_text, rules_text, settings_text
from kamicp.render.safe import printable

VERDICT_TEXT = {  # the words of the summary line; what they mean: docs/designers.md
    Verdict.CORRECT: "correct",
    Verdict.NOT_MINIMAL: "not minimal",
    Verdict.UNACHIEVABLE: "unachievable",
    Verdict.UNKNOWN: "unknown",
    Verdict.BAD_INPUT: "bad input",
    Verdict.ERROR: "failed",
}
RIGHT = ("par", "opt", "secs")
ONE_LINE = ("par", "rules", "opt", "verdict", "secs")  # the level and the proof wrap when they must


def _cells(row: Row) -> dict[str, Text]:
    style = {Verdict.CORRECT: "green", Verdict.UNKNOWN: "yellow"}.get(row.verdict, "red")
    failed = row.verdict in (Verdict.BAD_INPUT, Verdict.ERROR) and row.error
    proof = Text(printable(_reason(row)), style="red") if failed else Text(proof_text(row))
    return {"level": Text(printable(row.level)), "par": Text("" if row.par is None else str(row.par)),
            "rules": Text(rules_text(row)), "opt": Text(range_text(row)),
            "verdict": Text(VERDICT_TEXT[row.verdict], style=style), "secs": Text(f"{row.seconds:.2f}"),
            "proof": proof}


def _reason(row: Row) -> str:
    """A bad or failed row's message, for its proof cell: without the file name the level column shows."""
    return row.error.removeprefix(f"{row.path}: ")


def _columns(rows: list[Row]) -> list[str]:
    """The rules column only when a row is not under the Kami rules ('free')."""
    columns = ["level", "par", "rules", "opt", "verdict", "secs", "proof"]
    if {rules_text(r) for r in rows} <= {"free"}:
        columns.remove("rules")
    return columns


def _widths(rows: list[Row], columns: list[str]) -> dict[str, int]:
    """Each column's widest cell over all rows, so the tables of report's groups line up."""
    cells = [_cells(r) for r in rows]
    return {c: max([cell_len(c), *(cell.cell_len for cell in (row[c] for row in cells))]) for c in columns}


def pack_table(rows: list[Row], *, widths: dict[str, int] | None = None, columns: list[str] | None = None
               ) -> Table:
    """The pack's table (the pack's own columns, or `columns` at least `widths` wide)."""
    columns = columns or _columns(rows)
    table = Table(show_edge=False, pad_edge=False)
    for col in columns:
        # report's groups line up on the one-line columns; the level and the proof wrap (never cut off)
        width = (widths or {}).get(col) if col in ONE_LINE else None
        table.add_column(col, justify="right" if col in RIGHT else "left", no_wrap=col in ONE_LINE,
                         overflow="fold", min_width=width)
    for row in rows:
        cells = _cells(row)
        table.add_row(*(cells[c] for c in columns))
    return table


def report_tables(rows: list[Row]) -> Group:
    """report's table: the rows grouped by the settings that produced them (a store may hold several runs'),
    each group under a line naming its settings, the groups' columns aligned."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(settings_text(row), []).append(row)
    columns = _columns(rows)
    widths = _widths(rows, columns)
    parts: list[Text | Table] = []
    for settings, group in groups.items():
        parts += [Text(f"settings: {settings}", style="dim"), pack_table(group, widths=widths, columns=columns)]
    return Group(*parts)
