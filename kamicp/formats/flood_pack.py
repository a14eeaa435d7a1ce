"""Flood-It packs: many boards in one file, as the field's benchmark sets of 1000 boards are written
(`--format floodpack`). Two layouts, told apart by blank lines:

    one board a line                     blocks of rows, separated by blank lines
    2452111412111546421...  (N*N keys)   2452111412
    6fdfb12a45a5ab95f93c...              2563652251
                                         ...
                                         (blank line)
                                         3552611141 ...

A colour is one character (`1`-`9`, then `a`, `b`, ...: any letter or digit). A line-per-board pack's
boards are square (N*N keys on the line); a block is a grid of equal rows. Boards are numbered from 1 in
file order and named `FILE#K`; a single board is named on the command line the same way (`formats.select`).
No board carries a par: `validate --pars` gives them, in the pack's order (`read_pars`).
"""

from __future__ import annotations

import math
from pathlib import Path

from kamicp.board.level import Level
from kamicp.errors import FormatError
from kamicp.formats.common import check_cells, read_text_file
from kamicp.limits import MAX_MOVES
from kamicp.runtime.text import cut

FORMAT = "floodpack"
MAX_PAR_DIGITS = 4  # a pars line of at most this many digits is a par; a longer line is a solution
MAX_BOARDS = 100_000  # boards in one pack file (the field's sets hold 1000)
MAX_PACK_CELLS = 5_000_000  # cells of all its boards together (its largest set holds 576,000)


def _numbered(text: str) -> list[tuple[int, str]]:
    """(line number, stripped line) of every line, comment lines ('#') dropped."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
            if not line.lstrip().startswith("#")]


def _check_keys(row: str, source: str, line: int) -> None:
    if row.isascii() and row.isalnum():  # (every character at once: a pack has a million cells)
        return
    bad = next((ch for ch in row if not ch.isascii() or not ch.isalnum()), None)
    if bad is not None:
        raise FormatError(f"{cut(bad)!r} is not a colour (one letter or digit a cell)", source=source,
                          where=f"line {line}")


def _square(row: str, source: str, line: int) -> list[str]:
    side = math.isqrt(len(row))
    if side < 1 or side * side != len(row):
        raise FormatError(f"{len(row)} cells is not a square board (one board a line: N*N colours)",
                          source=source, where=f"line {line}")
    return [row[r * side:(r + 1) * side] for r in range(side)]


def _boards(text: str, source: str) -> list[tuple[int, list[str]]]:
    """(first line, rows) of every board: a blank line between boards means blocks of rows (so does one
    block alone: N lines of N colours); otherwise one board a line."""
    lines = _numbered(text)
    content = [(n, s) for n, s in lines if s]
    for n, s in content:
        _check_keys(s, source, n)
    if not content:
        return []
    first, last = content[0][0], content[-1][0]
    interior_blank = any(not s and first < n < last for n, s in lines)
    one_block = len({len(s) for _, s in content}) == 1 and len(content) == len(content[0][1]) > 1
    if not interior_blank and not one_block:
        return [(n, _square(s, source, n)) for n, s in content]
    out: list[tuple[int, list[str]]] = []
    open_block = False
    for n, s in lines:
        if not s:
            open_block = False
        elif open_block:
            out[-1][1].append(s)
        else:
            out.append((n, [s]))
            open_block = True
    return out


def levels_from_pack(text: str, source: str, name: str) -> list[Level]:
    """Every board of a pack, in order, named `name#K` (FormatError naming the line of a bad board)."""
    boards = _boards(text, source)
    if not boards:
        raise FormatError("no boards in the file", source=source)
    if len(boards) > MAX_BOARDS:
        raise FormatError(f"{len(boards)} boards is over the limit of {MAX_BOARDS} in one pack", source=source)
    cells = sum(len(rows) * len(rows[0]) for _, rows in boards)
    if cells > MAX_PACK_CELLS:
        raise FormatError(f"{cells} cells in all is over the limit of {MAX_PACK_CELLS} in one pack", source=source)
    levels = []
    for k, (line, rows) in enumerate(boards, start=1):
        check_cells(len(rows) * len(rows[0]), source=source, where=f"board {k} (line {line})")
        try:
            levels.append(Level.from_rows(rows, "square", name=f"{name}#{k}"))
        except FormatError as e:
            raise FormatError(e.message, source=source, where=f"board {k} (line {line})") from None
    return levels


def read_flood_pack(path: str | Path, geometry: str | None = None) -> list[Level]:
    if geometry not in (None, "square"):
        raise FormatError(f"a Flood-It pack holds square boards, not {geometry!r}", source=str(path))
    return levels_from_pack(read_text_file(path), str(path), Path(path).name)


def pars_from_text(text: str, source: str) -> list[int]:
    """One par per line, in the pack's order: a number of at most MAX_PAR_DIGITS digits, or a solution (a
    string of moves, one character each, as the field's optimal-solution files hold), whose length is
    the par. Blank lines and '#' comments are skipped."""
    pars = []
    for n, line in _numbered(text):
        if not line:
            continue
        if line.isdigit() and len(line) <= MAX_PAR_DIGITS:
            pars.append(int(line))
        elif " " in line or "\t" in line:
            raise FormatError(f"expected one par or one solution, got {cut(line)!r}", source=source,
                              where=f"line {n}")
        elif len(line) > MAX_MOVES:
            raise FormatError(f"a solution of {len(line)} moves is over the limit of {MAX_MOVES}",
                              source=source, where=f"line {n}")
        else:
            pars.append(len(line))
    return pars


def read_pars(path: str | Path) -> list[int]:
    return pars_from_text(read_text_file(path), str(path))
