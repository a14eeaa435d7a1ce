"""The "99problems" Flood-It board format (the standard benchmark of exact Flood-It solvers; README.md,
Level formats). One board per file, named rows_cols_colours_index (e.g. 12_12_06_001), no extension:

    # comment lines start with '#'
    m n k                 rows, columns, colours
    c1 c2 ... c(m*n)      the colours 1..k, row by row; the first cell is the pivot (top-left)
    optimum               the proven minimum number of moves (0 = unknown)

Numbers are separated by any whitespace. Colour i becomes the key KEYS[i - 1] ('1'..'9', then 'A'..'Z');
the optimum becomes the level's par (none when 0).
"""

from __future__ import annotations

import re
from pathlib import Path

from kamicp.board.level import Level
from kamicp.errors import FormatError
from kamicp.formats.common import check_cells, parse_int, read_text_file
from kamicp.runtime.text import cut

KEYS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NAME = re.compile(r"[0-9]+_[0-9]+_[0-9]+_[0-9]+")  # how the benchmark names its files


def looks_like_flood99(path: Path) -> bool:
    """A file named as the benchmark names them (rows_cols_colours_index, no extension)."""
    return not path.suffix and NAME.fullmatch(path.name) is not None


def _tokens(text: str) -> list[tuple[str, int]]:
    """(number text, line) of every whitespace-separated field outside comment lines."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        out += [(field, number) for field in line.split()]
    return out


def level_from_flood99(text: str, source: str, name: str = "") -> Level:
    fields = _tokens(text)
    if len(fields) < 3:
        raise FormatError("expected a header 'rows columns colours'", source=source, where="header")
    rows, cols, k = (parse_int(f, source=source, where=f"line {line}: {what}", minimum=1, maximum=None)
                     for (f, line), what in zip(fields[:3], ("rows", "columns", "colours"), strict=True))
    if k > len(KEYS):
        raise FormatError(f"{k} colours is over the {len(KEYS)} this reader names", source=source,
                          where=f"line {fields[2][1]}: colours")
    check_cells(rows * cols, source=source, where="rows x columns")
    cells = fields[3:3 + rows * cols]
    if len(cells) < rows * cols:
        raise FormatError(f"{len(cells)} cell colours, but {rows} x {cols} = {rows * cols} cells", source=source,
                          where="cells")
    colours = [KEYS[parse_int(f, source=source, where=f"line {line}: cell {i + 1}", minimum=1, maximum=k) - 1]
               for i, (f, line) in enumerate(cells)]
    rest = fields[3 + rows * cols:]
    if not rest:
        raise FormatError("the optimum is missing after the cells (0 when unknown)", source=source, where="optimum")
    if len(rest) > 1:
        raise FormatError(f"unexpected {cut(rest[1][0])!r} after the optimum", source=source,
                          where=f"line {rest[1][1]}")
    optimum = parse_int(rest[0][0], source=source, where=f"line {rest[0][1]}: optimum", minimum=0)
    grid = ["".join(colours[r * cols:(r + 1) * cols]) for r in range(rows)]
    return Level.from_rows(grid, "square", name=name, par=optimum or None)


def read_flood99(path: str | Path, geometry: str | None = None) -> Level:
    if geometry not in (None, "square"):
        raise FormatError(f"a 99problems board is a square grid, not {geometry!r}", source=str(path))
    return level_from_flood99(read_text_file(path), str(path), name=Path(path).name)


def flood99_text(level: Level, optimum: int | None = None) -> str:
    """A square grid level in this format (colours numbered in the order of the level's colour keys; the
    optimum, or the par, or 0 for unknown)."""
    if level.geometry != "square" or level.shape is None or len(level.labels) != level.shape[0] * level.shape[1]:
        raise FormatError("the 99problems format holds full square grids only", source=level.name or "level")
    keys = level.colour_keys
    rows, cols = level.shape
    number = {key: i + 1 for i, key in enumerate(keys)}
    cells = " ".join(str(number[level.colours[level.index((r, c))]]) for r in range(rows) for c in range(cols))
    best = optimum if optimum is not None else level.par or 0
    return f"# {level.name or 'level'}\n{rows} {cols} {len(keys)}\n{cells}\n{best}\n"
