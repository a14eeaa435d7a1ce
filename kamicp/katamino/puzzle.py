"""A Katamino puzzle as a frozen value: a rectangle, blocked cells and a set of distinct pentominoes.

Cells are numbered row-major (cell = row * cols + col). The placements (every position and orientation of
every piece on the free cells) are the plain data both engines consume.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from kamicp.errors import FormatError, UsageError
from kamicp.katamino.pieces import LETTERS, Rule, lies_lengthwise, orientations
from kamicp.limits import MAX_DIGITS
from kamicp.runtime.text import cut, short

MAX_SIDE = 64  # rows and columns are at most this (bounded memory on hostile input)


@dataclass(frozen=True)
class Placement:
    """One way to put a piece on the board: its letter and the cells it covers (sorted)."""

    letter: str
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Puzzle:
    rows: int
    cols: int
    pieces: str  # distinct letters of LETTERS, in the order given
    blocked: frozenset[tuple[int, int]] = frozenset()
    name: str = ""
    rule: Rule = Rule.KATAMINO  # the game's rule (the I lies lengthwise) or free packing

    def __post_init__(self) -> None:
        for field_name, value in (("rows", self.rows), ("cols", self.cols)):
            if not 1 <= value <= MAX_SIDE:
                raise UsageError(f"{field_name} must be between 1 and {MAX_SIDE}, got {value}")
        check_pieces(self.pieces)
        if self.rule not in [r.value for r in Rule]:
            raise UsageError(f"rule must be 'katamino' or 'free', got {self.rule!r}")
        object.__setattr__(self, "rule", Rule(self.rule))
        for r, c in self.blocked:
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise UsageError(f"blocked cell [{r}, {c}] is outside the {self.rows} x {self.cols} board")

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @cached_property
    def free(self) -> tuple[int, ...]:
        """The cells pieces must cover, in order."""
        return tuple(r * self.cols + c for r in range(self.rows) for c in range(self.cols)
                     if (r, c) not in self.blocked)

    @cached_property
    def placements(self) -> tuple[Placement, ...]:
        """Every position and orientation of every piece inside the board on free cells only (under the
        game's rule, the I only lengthwise)."""
        out = []
        for letter in self.pieces:
            for shape in orientations(letter):
                if letter == "I" and self.rule is Rule.KATAMINO and not lies_lengthwise(shape, self.rows, self.cols):
                    continue
                height = 1 + max(r for r, _ in shape)
                width = 1 + max(c for _, c in shape)
                for r0 in range(self.rows - height + 1):
                    for c0 in range(self.cols - width + 1):
                        cells = [(r0 + r, c0 + c) for r, c in shape]
                        if not any(cell in self.blocked for cell in cells):
                            out.append(Placement(letter, tuple(sorted(r * self.cols + c for r, c in cells))))
        return tuple(out)

    def describe(self) -> str:
        blocked = f", {len(self.blocked)} blocked" if self.blocked else ""
        rules = {Rule.FREE: ", free packing", Rule.KATAMINO: ", the I lies lengthwise" if "I" in self.pieces else ""}
        return f"{self.rows} x {self.cols}{blocked}, pieces {self.pieces}{rules[self.rule]}"


def check_pieces(pieces: str) -> None:
    """Letters of the 12 free pentominoes, each at most once (UsageError naming the problem)."""
    unknown = sorted({p for p in pieces if p not in LETTERS})
    if unknown:
        raise UsageError(f"unknown piece {unknown[0]!r} (pieces are the letters {LETTERS})")
    repeated = sorted({p for p in pieces if pieces.count(p) > 1})
    if repeated:
        raise UsageError(f"piece {repeated[0]!r} is given twice (each pentomino at most once)")
    if not pieces:
        raise UsageError("no pieces given")


_BOARD = re.compile(rf"\s*([0-9]{{1,{MAX_DIGITS}}})\s*[xX]\s*([0-9]{{1,{MAX_DIGITS}}})\s*")


def parse_board(text: str) -> tuple[int, int]:
    """'5x6' -> (5, 6)."""
    m = _BOARD.fullmatch(text)
    if not m:  # ASCII digits, few enough for int(): '9' * 5000 is refused here, not by int()
        raise UsageError(f"--board: expected ROWSxCOLS such as 5x6, got {cut(text)!r}")
    return int(m.group(1)), int(m.group(2))


def shorthand(board: str, pieces: str, rule: Rule = Rule.KATAMINO) -> Puzzle:
    """A puzzle from `--board 5x6 --pieces LPUVYN` (letters are case-insensitive)."""
    rows, cols = parse_board(board)
    try:
        return Puzzle(rows, cols, pieces.strip().upper(), name=f"{rows}x{cols}-{pieces.strip().upper()}", rule=rule)
    except UsageError as e:
        raise UsageError(f"--pieces/--board: {e}") from None


def _int(value: Any, where: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"must be an integer, got {short(value)}", source=source, where=where)
    if not 1 <= value <= MAX_SIDE:
        raise FormatError(f"must be between 1 and {MAX_SIDE}, got {value}", source=source, where=where)
    return value


def _blocked(value: Any, rows: int, cols: int, source: str) -> frozenset[tuple[int, int]]:
    where = "field 'blocked'"
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise FormatError("must be a list of [row, col] pairs", source=source, where=where)
    cells = set()
    for k, item in enumerate(value, start=1):
        ok = (isinstance(item, list) and len(item) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in item))
        if not ok:
            raise FormatError(f"item {k}: must be a [row, col] pair of integers, got {short(item)}",
                              source=source, where=where)
        r, c = item
        if not (0 <= r < rows and 0 <= c < cols):
            raise FormatError(f"item {k}: [{r}, {c}] is outside the {rows} x {cols} board",
                              source=source, where=where)
        cells.add((r, c))
    return frozenset(cells)


def puzzle_from_data(data: Any, source: str = "") -> Puzzle:
    """A puzzle from parsed JSON `{"rows", "cols", "pieces", "blocked"?, "name"?, "rule"?}` (FormatError naming
    the field)."""
    if not isinstance(data, dict):
        raise FormatError('must be a JSON object {"rows", "cols", "pieces", "blocked"}', source=source)
    for key in ("rows", "cols", "pieces"):
        if key not in data:
            raise FormatError("is missing", source=source, where=f"field {key!r}")
    rows = _int(data["rows"], "field 'rows'", source)
    cols = _int(data["cols"], "field 'cols'", source)
    pieces = data["pieces"]
    if not isinstance(pieces, str):
        raise FormatError(f"must be a string of piece letters such as \"LPUVY\", got {short(pieces)}",
                          source=source, where="field 'pieces'")
    try:
        check_pieces(pieces.upper())
    except UsageError as e:
        raise FormatError(str(e), source=source, where="field 'pieces'") from None
    name = data.get("name", "")
    if not isinstance(name, str):
        raise FormatError("must be a string", source=source, where="field 'name'")
    rule = read_rule(data.get("rule", Rule.KATAMINO.value), source)
    return Puzzle(rows, cols, pieces.upper(), _blocked(data.get("blocked"), rows, cols, source), name=name,
                  rule=rule)


def read_rule(value: Any, source: str, where: str = "field 'rule'") -> Rule:
    """The optional "rule" field: "katamino" (the default: the I lies lengthwise) or "free"."""
    if value not in [r.value for r in Rule]:
        raise FormatError(f'must be "katamino" or "free", got {short(value)}', source=source, where=where)
    return Rule(value)
