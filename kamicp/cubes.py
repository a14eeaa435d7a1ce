"""Cubes: a horizon split by its first moves into independent sub-problems (models/cubes.md).

A cube of depth D is a sequence of D legal moves from the start position (a move taps a region of the
current board and gives it a colour of the level other than its own). Its child is the board those
moves leave. "No solution of at most h moves" holds iff no solution of fewer than D moves exists and
no cube's child is solvable in at most h - D moves. Children equal as boards are one cube (the answer
depends on the board only). The child boards are computed here on the region graph (kamicp.regions),
never with the rules engine, which stays the independent judge of every solution.
"""

from __future__ import annotations

from dataclasses import dataclass

from kamicp.bounds import lower_bound
from kamicp.errors import UsageError
from kamicp.level import Level, Move
from kamicp.outcome import Plan, to_moves
from kamicp.regions import Quotient, Regions, quotient, recolor

DEPTHS = (1, 2)  # cube depths supported (the number of children grows as (regions x colours)^D)


@dataclass(frozen=True)
class Cube:
    """One cube: its moves (initial region index, colour index per move) and the child board they leave
    (a colour index per initial region). `key` names it stably: the taps and colour keys of its moves."""

    plan: tuple[tuple[int, int], ...]
    state: tuple[int, ...]
    key: str

    @property
    def depth(self) -> int:
        return len(self.plan)


@dataclass(frozen=True)
class CubeSet:
    """The distinct cubes of one depth, how many move sequences they stand for (`sequences`), and a
    solution shorter than the depth met on the way (`shorter`, a plan), if any: then the cubes alone
    do not cover every solution and the caller must use it."""

    depth: int
    cubes: tuple[Cube, ...]
    sequences: int
    shorter: tuple[tuple[int, int], ...] | None


def check_depth(depth: int) -> None:
    if depth not in DEPTHS:
        raise UsageError(f"cube depth must be one of {', '.join(map(str, DEPTHS))}, got {depth!r}")


def _children(q: Quotient, state: tuple[int, ...], num_colors: int
              ) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
    """Every legal move on the board `state` (whose contraction is `q`), as (smallest initial region of
    the tapped region, new colour), with the board it leaves."""
    return [((q.rep[k], c), recolor(state, q.members[k], c))
            for k in range(q.size) for c in range(num_colors) if c != q.colors[k]]


def _solved(state: tuple[int, ...]) -> bool:
    return len(set(state)) <= 1


def cube_key(regions: Regions, plan: Plan | tuple[tuple[int, int], ...]) -> str:
    """A cube's stable name: 'cell=colour' per move, cells as indices of the level, joined by '/'."""
    return "/".join(f"{m.cell}={m.color}" for m in to_moves(regions, list(plan)))


def enumerate_cubes(regions: Regions, depth: int) -> CubeSet:
    """The distinct children of every legal sequence of `depth` moves from the start, in a fixed order
    (the first sequence reaching a board names its cube)."""
    check_depth(depth)
    num_colors = len(regions.palette)
    layer: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = [((), regions.colors)]
    shorter = None
    sequences = 1
    for d in range(1, depth + 1):
        nxt: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
        sequences = 0
        for plan, state in layer:
            for move, child in _children(quotient(regions.adj, state), state, num_colors):
                sequences += 1
                nxt.setdefault(child, (*plan, move))
                if d < depth and shorter is None and _solved(child):
                    shorter = (*plan, move)
        layer = [(plan, state) for state, plan in nxt.items()]
    cubes = tuple(Cube(plan, state, cube_key(regions, plan)) for plan, state in layer)
    return CubeSet(depth, cubes, sequences, shorter)


def child_bound(regions: Regions, cube: Cube) -> int:
    """A sound lower bound (models/bounds.md) on the moves the cube's child needs."""
    q = quotient(regions.adj, cube.state)
    return lower_bound(q.adj, q.colors, len(regions.palette))


def cell_colors(regions: Regions, cube: Cube) -> tuple[str, ...]:
    """The colour key of every cell of the level after the cube's moves."""
    colors = [""] * sum(len(cells) for cells in regions.cells)
    for k, cells in enumerate(regions.cells):
        for cell in cells:
            colors[cell] = regions.palette[cube.state[k]]
    return tuple(colors)


def child_level(level: Level, regions: Regions, cube: Cube) -> Level:
    """The cube's child as a level of its own (`Level.position`)."""
    return level.position(cell_colors(regions, cube), f"{level.name}#{cube.key}")


def cube_moves(regions: Regions, cube: Cube) -> tuple[Move, ...]:
    """The cube's moves on the level's cells and colour keys (to prefix a child's solution with)."""
    return to_moves(regions, list(cube.plan))
