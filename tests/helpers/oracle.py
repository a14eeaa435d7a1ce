"""An exhaustive breadth-first oracle built only on the rules engine (cells, not region graphs).

It shares no code with the solvers or bounds it checks, so agreeing with it means something.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, apply_move
from tests.helpers.boards import random_grid


def region_moves(board: Board, colours: Iterable[str] | None = None) -> Iterator[tuple[list[int], Move]]:
    """Every legal move of the position once: each region (tapped at its first cell, with its cells) in
    each colour it does not have, of `colors` (default: the level's colours)."""
    keys = tuple(board.level.colour_keys if colours is None else colours)
    done: set[int] = set()
    for cell in range(board.level.size):
        if cell in done:
            continue
        region = board.region_at(cell)
        done.update(region)
        for colour in keys:
            if colour != board.colours[cell]:
                yield region, Move(cell, colour)


def bfs_optimum(level: Level, limit: int = 12, start: Board | None = None) -> tuple[int, list[Move]] | None:
    """Fewest moves that make the board one colour (and one such move list), or None past `limit`; from
    `start` (a position of the level) when given, trying every colour of the level, also those that have
    vanished from the board."""
    start = start or Board.start(level)
    if start.solved:
        return 0, []
    keys = level.colour_keys
    seen = {start.colours: None}
    frontier = [(start, [])]
    for depth in range(1, limit + 1):
        nxt = []
        for board, path in frontier:
            for _, move in region_moves(board, keys):
                child = apply_move(board, move)
                if child.colours in seen:
                    continue
                seen[child.colours] = None
                if child.solved:
                    return depth, [*path, move]
                nxt.append((child, [*path, move]))
        frontier = nxt
    return None


def bfs_pivot_optimum(level: Level, pivot: int = 0, limit: int = 12) -> tuple[int, list[Move]] | None:
    """Flood-It rules: fewest moves, each tapping the region holding cell `pivot`, that make the board one
    colour (and one such move list), or None past `limit` (also when no solution exists)."""
    start = Board.start(level)
    if start.solved:
        return 0, []
    seen = {start.colours}
    frontier = [(start, [])]
    for depth in range(1, limit + 1):
        nxt = []
        for board, path in frontier:
            for colour in level.colour_keys:
                if colour == board.colours[pivot]:
                    continue
                move = Move(pivot, colour)
                child = apply_move(board, move, pivot=pivot)
                if child.colours in seen:
                    continue
                seen.add(child.colours)
                if child.solved:
                    return depth, [*path, move]
                nxt.append((child, [*path, move]))
        frontier = nxt
        if not frontier:
            return None
    return None


def blobby_levels(seed: int, count: int) -> Iterator[tuple[Level, int]]:
    """`count` boards like real levels (5 x 5, regions of several cells, triangle and square in turn, 3-4
    colours, a few holes) with their optimum (all within 8 moves): where cubes of depth 2 matter."""
    rng = random.Random(seed)
    for i in range(count):
        level = random_grid(rng, ("triangle", "square")[i % 2], 5, 5, 3 + i % 2, hole_rate=0.05)
        found = bfs_optimum(level, limit=8)
        assert found is not None, level.name
        yield level, found[0]


def finals_by_bfs(level: Level, pivot: int | None = None, limit: int = 12) -> dict[str, int]:
    """For every colour key d of the level, the fewest moves that leave the board all d (those within `limit`):
    any region tapped (Kami's rules), or, with `pivot`, only the region holding that cell (Flood-It's). One
    breadth-first search over the rules engine's boards; solved boards are expanded too (d may be reached
    from a board solved in another colour)."""
    start = Board.start(level)
    keys = level.colour_keys
    found: dict[str, int] = {}
    if start.solved:
        found[start.colours[0]] = 0
    seen = {start.colours}
    frontier = [start]
    for depth in range(1, limit + 1):
        if len(found) == len(keys) or not frontier:
            break
        nxt = []
        for board in frontier:
            if pivot is None:
                moves = (move for _, move in region_moves(board, keys))
            else:
                moves = (Move(pivot, c) for c in keys if c != board.colours[pivot])
            for move in moves:
                child = apply_move(board, move) if pivot is None else apply_move(board, move, pivot=pivot)
                if child.colours in seen:
                    continue
                seen.add(child.colours)
                if child.solved:
                    found.setdefault(child.colours[move.cell], depth)
                nxt.append(child)
        frontier = nxt
    return found
