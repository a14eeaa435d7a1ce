"""Flood-It with a fixed pivot as plain data: the region graph seen from the pivot's region.

Only the pivot's region is ever recoloured, so every other region keeps its initial colour until the
flood absorbs it, and a state is just the flooded set (a bit mask over regions) and its colour. An
initial region joins the flood at a move playing its colour exactly when a neighbour was flooded before
that move (adjacent initial regions differ in colour, so no region joins through another joining at the
same move). Regions outside the pivot's island never change: the board can end one colour only if they
all share one colour, which is then the required final colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from kamicp.board.level import Label, Level
from kamicp.board.regions import Regions, islands, regions_of
from kamicp.errors import UsageError


@dataclass(frozen=True)
class PivotGame:
    regions: Regions
    pivot_cell: int  # the cell every move taps
    start: int  # the pivot's initial region
    island: int  # bit mask of the regions the flood can reach (the pivot's island)
    final: int | None  # the colour the flood must end in (set by the other islands), or None
    blocked: str  # why no solution exists (other islands of several colours), or ""

    @property
    def n(self) -> int:
        return self.regions.size

    def absorb(self, flooded: int, colour: int) -> int:
        """The flooded set after a move painting it `color`."""
        new = flooded
        for i in range(self.n):
            if not flooded >> i & 1 and self.regions.colours[i] == colour and any(
                    flooded >> j & 1 for j in self.regions.adj[i]):
                new |= 1 << i
        return new

    def solved(self, flooded: int, colour: int) -> bool:
        return flooded == self.island and (self.final is None or colour == self.final)


def pivot_cell(level: Level, pivot: Label | None = None) -> int:
    """The pivot's cell index: `pivot` (a (row, col) or node id) or the top-left cell (cell 0)."""
    if pivot is None:
        return 0
    if not level.has_cell(pivot):
        raise UsageError(f"pivot {pivot!r} is not a cell of the level")
    return level.index(pivot)


def pivot_game(level: Level, pivot: Label | None = None) -> PivotGame:
    cell = pivot_cell(level, pivot)
    regions = regions_of(level)
    start = next(k for k, members in enumerate(regions.cells) if cell in members)
    parts = islands(regions.size, regions.adj)
    home = next(p for p in parts if start in p)
    outside = {regions.colours[i] for p in parts if p is not home for i in p}
    island = sum(1 << i for i in home)
    if len(outside) > 1:
        names = ", ".join(regions.palette[c] for c in sorted(outside))
        return PivotGame(regions, cell, start, island, None,
                         f"regions the flood cannot reach keep their colours ({names})")
    final = next(iter(outside)) if outside else None
    return PivotGame(regions, cell, start, island, final, "")
