"""The pivot of the Flood-It rules: `parse_pivot` reads a `--pivot` text."""

from __future__ import annotations

import re

from kamicp.board.level import Label, Level
from kamicp.errors import UsageError
from kamicp.floodit.game import pivot_cell
from kamicp.limits import MAX_DIGITS
from kamicp.runtime.text import cut

_PIVOT_INT = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")  # few enough digits for int() (not '9' * 5000)


def parse_pivot(level: Level, text: str | None) -> Label | None:
    """The pivot's label from a text `ROW,COL` (a node id on graph levels); None for the default
    (the top-left cell). UsageError when malformed or not a cell of `level`."""
    if text is None:
        return None
    label: Label = text.strip()
    if level.geometry != "graph":
        parts = text.split(",")
        if len(parts) != 2 or not all(_PIVOT_INT.fullmatch(p.strip()) for p in parts):
            raise UsageError(f"--pivot: expected ROW,COL such as 0,0, got {cut(text)!r}")
        label = (int(parts[0]), int(parts[1]))
    pivot_cell(level, label)  # raises when it is not a cell
    return label
