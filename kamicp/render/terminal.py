"""Boards drawn in the terminal with rich: squares as blocks, triangles as ▶/◀, graphs as lists."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from kamicp.board.level import Level
from kamicp.board.rules import Board
from kamicp.render.colours import hex_of
from kamicp.render.safe import printable


def colour_of(level: Level, key: str) -> str:
    """The colour a key is shown in: the same '#rrggbb' as in pictures (kamicp.render.colours)."""
    return hex_of(level, key)


def swatch(level: Level, key: str) -> Text:
    """'██ key' in the key's colour, for legends and move lists."""
    text = Text("██ ", style=Style(color=colour_of(level, key)))
    name = level.display_colour(key)
    text.append(printable(key if not name or name.startswith("#") or name == key else f"{key} ({name})"))
    return text


def board_view(board: Board, mark: int | None = None, plain: bool = False) -> RenderableType:
    """The board's cells in their colours; `mark` (a cell index) is highlighted as the tapped cell.

    `plain` (no colours available, e.g. output to a file) writes each cell's colour key instead,
    with `*` for the tapped cell.
    """
    level = board.level
    if level.geometry == "graph":
        return _graph_view(board, mark)
    assert level.shape is not None
    rows, cols = level.shape
    cell_at = {label: i for i, label in enumerate(level.labels)}
    lines = []
    for r in range(rows):
        line = Text()
        for c in range(cols):
            i = cell_at.get((r, c))
            if i is None:
                line.append("  ")
                continue
            colour = colour_of(level, board.colours[i])
            if plain:
                line.append(("*" if i == mark else printable(board.colours[i][0])) + " ")
                continue
            elif level.geometry == "square":
                glyph = "<>" if i == mark else "██"
                style = Style(color="black", bgcolor=colour, bold=True) if i == mark else Style(color=colour)
            else:
                glyph = ("▶ " if (r + c) % 2 == 0 else "◀ ") if i != mark else "● "
                style = Style(color=colour, bold=i == mark)
            line.append(glyph, style=style)
        lines.append(line)
    return Group(*lines)


def mark_glyph(level: Level, plain: bool = False) -> str:
    """How board_view marks the tapped cell: what a caption explaining the marker names."""
    if plain and level.geometry != "graph":
        return "*"
    return "<>" if level.geometry == "square" else "●"


def _graph_view(board: Board, mark: int | None) -> RenderableType:
    level = board.level
    adj = level.adjacency()
    lines = []
    for i, label in enumerate(level.labels):
        text = Text("● " if i == mark else "  ")
        text.append(f"{printable(label):>4} ", style=Style(color=colour_of(level, board.colours[i]), bold=True))
        text.append(f"{printable(board.colours[i]):<8}", style=Style(color=colour_of(level, board.colours[i])))
        text.append(" — " + ", ".join(printable(level.labels[j]) for j in sorted(adj[i])), style="dim")
        lines.append(text)
    return Group(*lines)


def legend(level: Level) -> Text:
    text = Text()
    for k, key in enumerate(level.display_keys):  # (the file's palette order)
        if k:
            text.append("   ")
        text.append_text(swatch(level, key))
    return text
