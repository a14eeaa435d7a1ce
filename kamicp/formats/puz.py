"""The Kami 2 game asset `.puz`: one line, `|`-separated fields.

```
01|<palette name>|<lowX>|<lowY>|<W>|<L>|<tiles, run-length encoded>|<par>||0|<solution>
```

The file stores the board as rows of `W` squares, each square split into triangle side 0 and side 1,
tile index t = r * 2W + 2c + s. The game shows it turned: the file's rows are the screen's columns,
right to left, and each row's tiles run up the screen (measured against the game's screenshots). Tile
k = 2c + s of row r is placed on kamicp's triangle lattice at

    column C = 9 - r,   row R = 20 - 2 lowX - (k + r)

Side 1 lands on right-pointing cells (R + C even) and side 0 on left-pointing ones. The three puz
adjacencies become lattice adjacencies, one for one: (r,c,0)-(r,c,1) and (r,c,1)-(r,c+1,0) are
neighbours up and down one column ((R, C)-(R-1, C)), and (r,c,1)-(r+1,c,0) is the vertical side
(R, C)-(R, C-1). The map is invertible, so no other cells touch, and the region graph (so every optimum)
does not depend on where the board is drawn. A story level (10 rows of tiles) fills the game's screen:
the 29 x 10 board the game shows, cell for cell, so taps and pictures match the screenshot. Any other
board is shifted so its smallest row and column are 0 (one empty row is added on top if the shift
would flip which cells point right).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from kamicp.board.level import HOLE, Level, Move
from kamicp.errors import FormatError
from kamicp.formats.common import check_cells, parse_int, read_text_file
from kamicp.limits import MAX_DIGITS, MAX_MOVES, MAX_PLAYED, limits, too_many_played
from kamicp.runtime.text import cut

FIELDS = ("version", "palette", "lowX", "lowY", "W", "L", "tiles", "par", "unused", "flag", "solution")
VERSION = "01"

# Display colours for colour numbers 1-9 (the game's own palettes are display data we do not ship).
DEFAULT_PALETTE = {
    "1": "#e9d8a6", "2": "#005f73", "3": "#ae2012", "4": "#0a9396", "5": "#ee9b00",
    "6": "#94d2bd", "7": "#ca6702", "8": "#9b2226", "9": "#6d597a",
}

_MOVE = re.compile(r"([0-9]+)([A-Za-z])")
_INT = re.compile(r"-?[0-9]+")


def default_palette(keys: tuple[str, ...]) -> dict[str, str]:
    """Display colours for the colour numbers used on a board."""
    return {k: DEFAULT_PALETTE[k] for k in sorted(keys) if k in DEFAULT_PALETTE}


def decode_rle(text: str, source: str, where: str = "field 'tiles'", *, limit: int | None = None) -> str:
    """Expand `<ch>X<two digits>` and `<ch><lowercase m>` (m - 'a' + 3 copies); other characters stand
    for themselves. Every tile character must be a digit. Stops (FormatError) as soon as the expansion
    passes `limit` tiles, so a small file cannot expand into a huge string."""
    out: list[str] = []
    i, n, total = 0, len(text), 0
    while i < n:
        total += len(out[-1]) if out else 0
        if limit is not None and total > limit:
            raise FormatError(f"decodes to more than {limit} tiles, but field 'L' says {limit}", source=source,
                              where=where)
        ch = text[i]
        if not ch.isdigit() or not ch.isascii():
            what = "a run count without a tile before it" if ch == "X" or ch.islower() else "not a tile digit"
            raise FormatError(f"character {i + 1} {ch!r} is {what}", source=source, where=where)
        nxt = text[i + 1] if i + 1 < n else ""
        if nxt == "X":
            digits = text[i + 2:i + 4]
            if len(digits) != 2 or not (digits.isdigit() and digits.isascii()):
                raise FormatError(f"character {i + 2}: 'X' must be followed by two digits, got {digits!r}",
                                  source=source, where=where)
            out.append(ch * int(digits))
            i += 4
        elif nxt and "a" <= nxt <= "z":
            out.append(ch * (ord(nxt) - ord("a") + 3))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _int(value: str, source: str, name: str, *, minimum: int | None = 0,
         maximum: int | None = MAX_MOVES) -> int:
    where = f"field '{name}'"
    if value and not _INT.fullmatch(value):
        raise FormatError(f"must be an integer, got {cut(value)!r}", source=source, where=where)
    return parse_int(value, source=source, where=where, minimum=minimum, maximum=maximum)


def tile_position(t: int, width: int) -> tuple[int, int, int]:
    """(r, c, s) of tile index t in a board of `width` squares per row."""
    r, rest = divmod(t, 2 * width)
    c, s = divmod(rest, 2)
    return r, c, s


SCREEN = (29, 10)  # the game's board: rows, columns


def lattice_position(r: int, c: int, s: int, low_x: int = 0) -> tuple[int, int]:
    """Where tile (r, c, s) sits on the game's screen (see the module docstring): (row, column)."""
    return 20 - 2 * low_x - (2 * c + s + r), SCREEN[1] - 1 - r


def parse_solution(text: str, source: str) -> list[tuple[int, int]]:
    """The `<tile index><capital letter>` list as (tile, colour number) pairs."""
    where = "field 'solution'"
    moves = []
    pos = 0
    while pos < len(text):
        if len(moves) == MAX_PLAYED:  # (before reading on: millions of moves cost time and memory)
            raise FormatError(too_many_played(), source=source, where=where)
        m = _MOVE.match(text, pos)
        if m is None:
            raise FormatError(f"character {pos + 1}: expected <tile index><capital letter>, got {text[pos:pos + 8]!r}",
                              source=source, where=where)
        if len(m.group(1)) > MAX_DIGITS:
            raise FormatError(f"move {len(moves) + 1}: a {len(m.group(1))}-digit tile index is out of range",
                              source=source, where=where)
        letter = m.group(2)
        number = ord(letter) - ord("A")
        if not ("A" <= letter <= "Z") or not 1 <= number <= 9:
            raise FormatError(f"move {len(moves) + 1} {m.group(0)!r}: colour letter {letter!r} is not B-J "
                              "(colour numbers 1-9)", source=source, where=where)
        moves.append((int(m.group(1)), number))
        pos = m.end()
    return moves


def _split_fields(text: str, source: str) -> dict[str, str]:
    """The line's fields by name, once it is one line of the right version with every field: the
    checks come first so that a wrong file is named as such, not as a bad number further on."""
    line = text.strip()
    if not line:
        raise FormatError("the file is empty", source=source)
    if "\n" in line:
        raise FormatError("expected one line of text, found several", source=source)
    parts = line.split("|")
    if len(parts) != len(FIELDS):
        missing = f"; missing field '{FIELDS[len(parts)]}'" if len(parts) < len(FIELDS) else ""
        raise FormatError(f"expected {len(FIELDS)} '|'-separated fields, found {len(parts)}{missing}",
                          source=source, where="line 1")
    fields = dict(zip(FIELDS, parts, strict=True))
    if fields["version"] != VERSION:
        raise FormatError(f"unsupported version {cut(fields['version'])!r} (expected {VERSION!r})", source=source,
                          where="field 'version'")
    return fields


def _read_tiles(fields: dict[str, str], source: str) -> tuple[str, int, int]:
    """The decoded tiles, the row width W and lowX. The sizes are checked (against the cell limit too)
    before the run-length expansion, which is itself bounded by L, so a small file cannot ask for a huge
    board."""
    low_x = _int(fields["lowX"], source, "lowX", minimum=-MAX_MOVES, maximum=MAX_MOVES)
    _int(fields["lowY"], source, "lowY", minimum=None, maximum=None)
    width = _int(fields["W"], source, "W", minimum=1, maximum=limits().max_cells)
    length = _int(fields["L"], source, "L", minimum=1, maximum=None)
    check_cells(length, source=source, where="field 'L'", what="tiles")
    if length % (2 * width):
        raise FormatError(f"{length} tiles is not a whole number of rows of 2 * W = {2 * width} tiles",
                          source=source, where="field 'L'")
    tiles = decode_rle(fields["tiles"], source, limit=length)
    if len(tiles) != length:
        raise FormatError(f"decodes to {len(tiles)} tiles, but field 'L' says {length}", source=source,
                          where="field 'tiles'")
    return tiles, width, low_x


def _lattice_grid(tiles: str, width: int, low_x: int, source: str) -> tuple[list[str], dict[int, tuple[int, int]]]:
    """The board's rows on the triangle lattice (holes where tiles are 0) and each tile's cell label:
    on the game's 29 x 10 screen for a story level, else shifted so the smallest row and column are 0
    (see the module docstring)."""
    raw: dict[tuple[int, int], int] = {}  # lattice position -> tile index
    for t, ch in enumerate(tiles):
        if ch != "0":
            raw[lattice_position(*tile_position(t, width), low_x)] = t
    if not raw:
        raise FormatError("every tile is 0: the board has no triangles", source=source, where="field 'tiles'")
    story = len(tiles) // (2 * width) == SCREEN[1] and all(
        0 <= r < SCREEN[0] and 0 <= c < SCREEN[1] for r, c in raw)
    if story:
        min_r = min_c = 0
        rows_n, cols_n = SCREEN
    else:
        min_r = min(p[0] for p in raw)
        min_c = min(p[1] for p in raw)
        if (min_r + min_c) % 2:  # a shift by an odd amount would flip the triangles: pad one row on top
            min_r -= 1
        rows_n = max(p[0] for p in raw) - min_r + 1
        cols_n = max(p[1] for p in raw) - min_c + 1
    # many short rows become a wide staircase (each column one step lower): check its area before building it
    check_cells(rows_n * cols_n, source=source, where="fields 'W' and 'L'",
                what=f"cells ({rows_n} rows x {cols_n} columns on the triangle lattice)")
    grid = [[HOLE] * cols_n for _ in range(rows_n)]
    tile_label: dict[int, tuple[int, int]] = {}
    for (r0, c0), t in raw.items():
        label = (r0 - min_r, c0 - min_c)
        grid[label[0]][label[1]] = tiles[t]
        tile_label[t] = label
    return ["".join(row) for row in grid], tile_label


def _official_moves(solution: str, level: Level, tile_label: dict[int, tuple[int, int]], length: int,
                    width: int, source: str) -> list[Move]:
    """The file's solution as moves on the level; a tap off the board or on a hole is an error that
    names the tile, since the solution is only worth keeping if it replays on this very board."""
    official = []
    for k, (t, number) in enumerate(parse_solution(solution, source), start=1):
        where = "field 'solution'"
        if t >= length:
            raise FormatError(f"move {k} taps tile {t}, off the board (tiles 0-{length - 1})", source=source,
                              where=where)
        if t not in tile_label:
            r, c, s = tile_position(t, width)
            raise FormatError(f"move {k} taps tile {t} (row {r}, square {c}, side {s}), which is a hole (0)",
                              source=source, where=where)
        official.append(Move(level.index(tile_label[t]), str(number)))
    return official


def level_from_puz(text: str, source: str, name: str = "") -> Level:
    """Build a triangle level (with par and official solution) from the text of a `.puz` file."""
    fields = _split_fields(text, source)
    tiles, width, low_x = _read_tiles(fields, source)
    par = _int(fields["par"], source, "par")
    rows, tile_label = _lattice_grid(tiles, width, low_x, source)
    keys = tuple(sorted(set(tiles) - {"0"}))
    level = Level.from_rows(rows, "triangle", name=name, par=par, palette=default_palette(keys))
    official = _official_moves(fields["solution"], level, tile_label, len(tiles), width, source)
    return replace(level, official=tuple(official)) if official else level


def read_puz(path: str | Path, geometry: str | None = None) -> Level:
    if geometry not in (None, "triangle"):
        raise FormatError(f"a .puz board is made of triangles; --geometry {geometry} does not apply",
                          source=str(path), where="--geometry")
    return level_from_puz(read_text_file(path), str(path), name=Path(path).stem)
