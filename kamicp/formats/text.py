"""Plain text grids (README.md, Level formats): one row per line, '.' or '*' a hole."""

from __future__ import annotations

from pathlib import Path

from kamicp.board.level import Level
from kamicp.errors import FormatError
from kamicp.formats.common import check_cells, read_text_file


def level_from_text(text: str, geometry: str | None, source: str, name: str = "") -> Level:
    if geometry is None:
        raise FormatError("a text grid does not say its geometry: give --geometry triangle or square",
                          source=source)
    if geometry not in ("triangle", "square"):
        raise FormatError(f"unknown geometry {geometry!r} for a text grid (expected triangle or square)",
                          source=source)
    lines = [line.rstrip("\r\n").rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not any(lines):
        raise FormatError("no rows: the file is empty", source=source)
    width = len(lines[0])
    check_cells(len(lines) * max(map(len, lines)), source=source, where="rows x columns")
    rows = []
    for n, line in enumerate(lines, start=1):
        if len(line) != width:
            raise FormatError(f"has {len(line)} cells, line 1 has {width} (ragged rows)",
                              source=source, where=f"line {n}")
        for c, ch in enumerate(line, start=1):
            if ch.isspace():
                raise FormatError(f"column {c}: whitespace inside a row (use '.' for a hole){_numbers_hint(line)}",
                                  source=source, where=f"line {n}")
            if not ch.isprintable():
                raise FormatError(f"column {c}: the control character U+{ord(ch):04X} is not a colour key",
                                  source=source, where=f"line {n}")
        rows.append(line.replace("*", "."))
    try:
        return Level.from_rows(rows, geometry, name=name)
    except FormatError as e:
        raise FormatError(e.message, source=source) from None


def read_text(path: str | Path, geometry: str | None) -> Level:
    return level_from_text(read_text_file(path), geometry, str(path), name=Path(path).stem)


def _numbers_hint(line: str) -> str:
    """A pointer for a grid of numbers separated by spaces: that is the Flood-It 99problems format."""
    if all(field.isdigit() for field in line.split()):
        return "; a grid of numbers separated by spaces is the Flood-It format: --format flood99 (docs/formats.md)"
    return ""
