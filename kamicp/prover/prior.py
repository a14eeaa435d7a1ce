"""A prior move: "solutions canonical after move P" (models/cubes.md, "The order across the cube boundary").

A cube's child is searched as if the cube's last move P had just been played: the commuting-move order
(models/strengthening.md §2) applies to the child's first move against P, as it does below any node of
the search. The question answered is then "a solution whose first move is canonical after P?", which is
NOT "a solution?": a "no" is only a cube's refutation, never the child's (or a level's) answer. Only
the compiled search uses a prior; the Python IDAStar and CP-SAT ignore it and answer the unrestricted
(stronger) question, which is also sound.

P is given on cells, so that it means the same on any board of the level: its clicked cells, the cells of
the level's regions in N[P] (P's regions and their neighbours; a region of any board reached from the
start holds one of these cells iff it holds a cell of P or a neighbour of one, as the level's regions lie
whole in one region of such a board) and the colour P's cells had before it was clicked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kamicp.errors import UsageError

if TYPE_CHECKING:  # (config.py holds an After: this module stays free of the region graph's imports)
    from kamicp.board.regions import Regions


@dataclass(frozen=True)
class After:
    """The move P a search's root is taken to follow: `clicked` its cells, `near` the cells of the level's
    regions in N[P], `color` the colour key the clicked cells had before P."""

    clicked: frozenset[int]
    near: frozenset[int]
    colour: str


@dataclass(frozen=True)
class RootPrior:
    """A prior on a region graph, as the compiled search takes it: `region` the region holding P (where P
    merged), `near` the regions holding a cell of N[P], `color` P's old colour index."""

    region: int
    near: tuple[int, ...]
    colour: int


def root_prior(after: After, regions: Regions) -> RootPrior:
    """`after` on the region graph of the board the search starts from (the board P left)."""
    where = {cell: k for k, cells in enumerate(regions.cells) for cell in cells}
    if not after.clicked or not after.clicked <= where.keys() or not after.near <= where.keys():
        raise UsageError("the prior move's cells are not cells of this board")
    holding = {where[cell] for cell in after.clicked}
    if len(holding) != 1:  # P's cells all have P's new colour and form a connected set
        raise UsageError("the prior move's clicked cells are not in one region of this board")
    if after.colour not in regions.palette:
        raise UsageError(f"the prior move's colour {after.colour!r} is not a colour of this board")
    return RootPrior(holding.pop(), tuple(sorted({where[cell] for cell in after.near})),
                     regions.palette.index(after.colour))


def after_move(regions: Regions, clicked: tuple[int, ...] | frozenset[int], old_colour: int) -> After:
    """The prior of a move on the level's region graph `regions` (its initial regions): the initial regions
    it clicked and the colour index they had."""
    near_regions = set(clicked).union(*(regions.adj[k] for k in clicked))
    cells = frozenset(c for k in clicked for c in regions.cells[k])
    return After(cells, frozenset(c for k in near_regions for c in regions.cells[k]), regions.palette[old_colour])
