"""The Kami 1 game XML `PuzzleData`: a square board.

```xml
<PuzzleData name="..." width="16" height="10" numColours="4" colours="<width*height digits>"
            gold="3" silver="4" bronze="5">
    <Solution length="3"><Turn x="11" y="0" colour="1"/></Solution>
</PuzzleData>
```

`colours` is row-major (row y, column x); each digit is a colour key. `gold` becomes the par, and all
three medals are kept; the `Solution` turns become the level's official solution. Documents with a
DTD are refused, so no entity can expand or fetch anything.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from kamicp.board.level import Level, Move
from kamicp.errors import FormatError
from kamicp.formats.common import check_cells, parse_int, read_text_file
from kamicp.formats.puz import default_palette
from kamicp.limits import MAX_MOVES, MAX_PLAYED, limits, too_many_played

ROOT = "PuzzleData"
MEDALS = ("gold", "silver", "bronze")

_UNSAFE = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_INT = re.compile(r"[0-9]+")


def _attr_int(elem: ET.Element, name: str, source: str, where: str, *, required: bool,
              minimum: int = 0, maximum: int | None = None) -> int | None:
    value = elem.get(name)
    if value is None:
        if required:
            raise FormatError("missing", source=source, where=f"{where}attribute '{name}'")
        return None
    value = value.strip()
    if not _INT.fullmatch(value):
        raise FormatError(f"must be a non-negative integer, got {value[:60]!r}", source=source,
                          where=f"{where}attribute '{name}'")
    return parse_int(value, source=source, where=f"{where}attribute '{name}'", minimum=minimum, maximum=maximum)


def _parse(text: str, source: str) -> ET.Element:
    m = _UNSAFE.search(text)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        raise FormatError(f"declares a {m.group(1).upper()}: DTDs and entities are not accepted", source=source,
                          where=f"line {line}")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        line, col = e.position
        reason = str(e).split(": line")[0]
        raise FormatError(f"not well-formed XML: {reason} (column {col + 1})", source=source,
                          where=f"line {line}") from None
    if root.tag == ROOT:
        return root
    found = root.findall(f".//{ROOT}")
    if len(found) != 1:
        raise FormatError(f"expected one <{ROOT}> element, found {len(found)} (root is <{root.tag}>)",
                          source=source)
    return found[0]


def level_from_xml(text: str, source: str, name: str = "") -> Level:
    """Build a square level (with medals and official solution) from the text of a PuzzleData file."""
    elem = _parse(text, source)
    most = limits().max_cells
    width = _attr_int(elem, "width", source, "", required=True, minimum=1, maximum=most)
    height = _attr_int(elem, "height", source, "", required=True, minimum=1, maximum=most)
    assert width is not None and height is not None
    check_cells(width * height, source=source, where="attributes 'width' and 'height'")
    colours = elem.get("colours")
    if colours is None:
        raise FormatError(f"missing (expected {width * height} digits, one per square)", source=source,
                          where="attribute 'colours'")
    colours = colours.strip()
    for k, ch in enumerate(colours):
        if not (ch.isdigit() and ch.isascii()):
            raise FormatError(f"character {k + 1} (x {k % width}, y {k // width}) is {ch!r}, not a colour digit",
                              source=source, where="attribute 'colours'")
    if len(colours) != width * height:
        raise FormatError(f"has {len(colours)} digits, but width x height = {width} x {height} = {width * height}",
                          source=source, where="attribute 'colours'")
    keys = set(colours)
    num = _attr_int(elem, "numColours", source, "", required=False, minimum=1)
    if num is not None and len(keys) > num:
        raise FormatError(f"says {num}, but the board uses {len(keys)} colours ({', '.join(sorted(keys))})",
                          source=source, where="attribute 'numColours'")
    medals = []
    for medal in MEDALS:
        value = _attr_int(elem, medal, source, "", required=False, maximum=MAX_MOVES)
        if value is not None:
            medals.append((medal, value))
    par = dict(medals).get("gold")
    rows = [colours[y * width:(y + 1) * width] for y in range(height)]
    level = Level.from_rows(rows, "square", name=elem.get("name") or name, par=par,
                            palette=default_palette(tuple(keys)))
    official = _solution(elem, level, width, height, source)
    return replace(level, medals=tuple(medals), official=official)


def _solution(elem: ET.Element, level: Level, width: int, height: int, source: str) -> tuple[Move, ...] | None:
    solutions = elem.findall("Solution")
    if not solutions:
        return None
    if len(solutions) > 1:
        raise FormatError(f"found {len(solutions)} <Solution> elements, expected at most one", source=source,
                          where="Solution")
    sol = solutions[0]
    turns = sol.findall("Turn")
    if len(turns) > MAX_PLAYED:  # (each is replayed on the whole board, and listed by info)
        raise FormatError(too_many_played(), source=source, where="Solution")
    length = _attr_int(sol, "length", source, "Solution ", required=False)
    if length is not None and length != len(turns):
        raise FormatError(f"says {length}, but there are {len(turns)} <Turn> elements", source=source,
                          where="Solution attribute 'length'")
    moves = []
    for k, turn in enumerate(turns, start=1):
        where = f"Solution turn {k} "
        x = _attr_int(turn, "x", source, where, required=True)
        y = _attr_int(turn, "y", source, where, required=True)
        colour = _attr_int(turn, "colour", source, where, required=True)
        assert x is not None and y is not None and colour is not None
        if x >= width or y >= height:
            raise FormatError(f"taps x {x}, y {y}, off the {width} x {height} board", source=source,
                              where=f"Solution turn {k}")
        if colour > 9:
            raise FormatError(f"colour {colour} is not a colour digit (0-9)", source=source,
                              where=f"{where}attribute 'colour'")
        moves.append(Move(level.index((y, x)), str(colour)))
    return tuple(moves) if moves else None


def read_xml(path: str | Path, geometry: str | None = None) -> Level:
    if geometry not in (None, "square"):
        raise FormatError(f"a PuzzleData board is made of squares; --geometry {geometry} does not apply",
                          source=str(path), where="--geometry")
    return level_from_xml(read_text_file(path), str(path), name=Path(path).stem)
