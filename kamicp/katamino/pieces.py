"""The 12 free pentominoes and their fixed orientations (rotations and reflections).

A shape is a frozenset of (row, col) cells normalised so its smallest row and column are 0.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

Shape = frozenset[tuple[int, int]]

# Conway's letters; each picture is one orientation of the piece.
_PICTURES: dict[str, tuple[str, ...]] = {
    "F": (".FF", "FF.", ".F."),
    "I": ("IIIII",),
    "L": ("LLLL", "L..."),
    "N": ("NN..", ".NNN"),
    "P": ("PP", "PP", "P."),
    "T": ("TTT", ".T.", ".T."),
    "U": ("U.U", "UUU"),
    "V": ("V..", "V..", "VVV"),
    "W": ("W..", "WW.", ".WW"),
    "X": (".X.", "XXX", ".X."),
    "Y": (".Y..", "YYYY"),
    "Z": ("ZZ.", ".Z.", ".ZZ"),
}
LETTERS = "".join(_PICTURES)  # FILNPTUVWXYZ


def normalise(cells: set[tuple[int, int]] | Shape) -> Shape:
    """The shape moved so its smallest row and column are 0."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def shape_of(letter: str) -> Shape:
    """The piece's cells in its reference orientation."""
    return frozenset((r, c) for r, row in enumerate(_PICTURES[letter]) for c, ch in enumerate(row) if ch != ".")


def transforms(shape: Shape) -> list[Shape]:
    """The shape under the 8 symmetries of the square (with repeats), each normalised."""
    out = []
    for flip in (False, True):
        cells = {(r, -c) if flip else (r, c) for r, c in shape}
        for _ in range(4):
            out.append(normalise(cells))
            cells = {(c, -r) for r, c in cells}  # a quarter turn
    return out


@cache
def orientations(letter: str) -> tuple[Shape, ...]:
    """The distinct fixed orientations of a free pentomino (63 over the 12 pieces), in a fixed order."""
    return tuple(sorted(set(transforms(shape_of(letter))), key=sorted))


def congruent(cells: set[tuple[int, int]] | Shape, letter: str) -> bool:
    """Is this set of cells a copy of the piece, in any position and orientation?"""
    return normalise(cells) in set(transforms(shape_of(letter)))


class Rule(StrEnum):
    """KATAMINO: the game's rule, the I piece lies lengthwise (along the board's long side); FREE: free
    pentomino packing, every piece turned and flipped freely."""

    KATAMINO = "katamino"
    FREE = "free"


def i_direction(rows: int, cols: int) -> str:
    """Which way the I lies under the game's rule: 'rows' (horizontally), 'cols' (vertically) or 'any'.

    Along the board's long side; the game's tray is 5 cells high and a 5 x w board is a slice of it, so
    its long side is its rows whatever w is (on 5 x 4 the I fits nowhere). On a square other than 5 x 5
    both sides are long."""
    if rows == 5 or cols > rows:
        return "rows"
    return "cols" if rows > cols else "any"


def lies_lengthwise(cells: set[tuple[int, int]] | Shape, rows: int, cols: int) -> bool:
    """Does this I (its cells) lie as the game's rule wants on a rows x cols board?"""
    way = i_direction(rows, cols)
    if way == "any":
        return True
    return len({r for r, _ in cells} if way == "rows" else {c for _, c in cells}) == 1
