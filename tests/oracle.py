"""An exhaustive breadth-first oracle built only on the rules engine (cells, not region graphs).

It shares no code with the solvers or bounds it checks, so agreeing with it means something.
"""

from __future__ import annotations

from kamicp.level import Level, Move
from kamicp.rules import Board, apply_move


def bfs_optimum(level: Level, limit: int = 12) -> tuple[int, list[Move]] | None:
    """Fewest moves that make the board one colour (and one such move list), or None past `limit`."""
    start = Board.start(level)
    if start.solved:
        return 0, []
    keys = level.color_keys
    seen = {start.colors: None}
    frontier = [(start, [])]
    for depth in range(1, limit + 1):
        nxt = []
        for board, path in frontier:
            done: set[int] = set()
            for cell in range(level.size):
                if cell in done:
                    continue
                region = board.region_at(cell)
                done.update(region)
                for color in keys:
                    if color == board.colors[cell]:
                        continue
                    move = Move(cell, color)
                    child = apply_move(board, move)
                    if child.colors in seen:
                        continue
                    seen[child.colors] = None
                    if child.solved:
                        return depth, [*path, move]
                    nxt.append((child, [*path, move]))
        frontier = nxt
    return None
