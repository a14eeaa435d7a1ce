"""Cell lattices: which cells touch, and where each cell is drawn.

Triangle, square and plain-graph levels differ only here; everything above the cell graph is shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

Point = tuple[float, float]

GEOMETRIES = ("triangle", "square", "graph")


@dataclass(frozen=True)
class Lattice:
    """A grid of cells addressed by (row, column)."""

    name: str

    def neighbours(self, r: int, c: int) -> Iterator[tuple[int, int]]:
        raise NotImplementedError

    def polygon(self, r: int, c: int, size: float = 1.0) -> list[Point]:
        """Corner points of cell (r, c) in drawing coordinates (x right, y down)."""
        raise NotImplementedError

    def extent(self, rows: int, cols: int, size: float = 1.0) -> Point:
        """Width and height of a rows x cols board in drawing coordinates."""
        raise NotImplementedError


@dataclass(frozen=True)
class SquareLattice(Lattice):
    """Kami 1: squares with four side neighbours."""

    name: str = "square"

    def neighbours(self, r: int, c: int) -> Iterator[tuple[int, int]]:
        yield from ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))

    def polygon(self, r: int, c: int, size: float = 1.0) -> list[Point]:
        x, y = c * size, r * size
        return [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]

    def extent(self, rows: int, cols: int, size: float = 1.0) -> Point:
        return (cols * size, rows * size)


TRI_WIDTH = 3**0.5 / 2  # width of a left/right pointing equilateral triangle of side 1


@dataclass(frozen=True)
class TriangleLattice(Lattice):
    """Kami 2: equilateral triangles pointing right (r + c even) or left, stacked in columns.

    Cell (r, c) spans rows r/2 .. r/2 + 1 of its column; it shares its vertical side with
    (r, c - 1) when it points right and with (r, c + 1) when it points left, and its slanted
    sides with (r - 1, c) and (r + 1, c).
    """

    name: str = "triangle"

    @staticmethod
    def points_right(r: int, c: int) -> bool:
        return (r + c) % 2 == 0

    def neighbours(self, r: int, c: int) -> Iterator[tuple[int, int]]:
        yield (r - 1, c)
        yield (r + 1, c)
        yield (r, c - 1) if self.points_right(r, c) else (r, c + 1)

    def polygon(self, r: int, c: int, size: float = 1.0) -> list[Point]:
        w = TRI_WIDTH * size
        x0, x1 = c * w, (c + 1) * w
        top, mid, bottom = r * size / 2, (r + 1) * size / 2, (r + 2) * size / 2
        if self.points_right(r, c):
            return [(x0, top), (x1, mid), (x0, bottom)]
        return [(x1, top), (x0, mid), (x1, bottom)]

    def extent(self, rows: int, cols: int, size: float = 1.0) -> Point:
        return (cols * TRI_WIDTH * size, (rows + 1) * size / 2)


LATTICES: dict[str, Lattice] = {"square": SquareLattice(), "triangle": TriangleLattice()}


def lattice(name: str) -> Lattice:
    """The lattice for a grid geometry name ('graph' levels have none)."""
    return LATTICES[name]
