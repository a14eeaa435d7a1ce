"""The rules engine: the executable spec every solver's output is checked against.

It works on cells, not on region graphs, so it shares no logic with the solvers it checks.
Rules (named in every RuleError):
- `cell-exists`: a move taps a cell of the level;
- `known-colour`: a move paints one of the level's colours;
- `colour-changes`: a move paints its region a colour different from the one it has;
- `one-colour`: after the last move the whole board has one colour;
- `move-limit`: a solution uses no more moves than allowed;
- `pivot-region` (Flood-It rules, `pivot` given): a move taps the region holding the pivot cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kamicp.board.level import Level, Move
from kamicp.errors import RuleError


@dataclass(frozen=True)
class Board:
    """A level's cells with their current colours."""

    level: Level
    colours: tuple[str, ...]

    @classmethod
    def start(cls, level: Level) -> Board:
        return cls(level, level.colours)

    def region_at(self, cell: int) -> list[int]:
        """The cells of the same-coloured connected region containing `cell` (flood fill)."""
        adj = self.level.adjacency()
        col = self.colours[cell]
        seen = {cell}
        stack = [cell]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w not in seen and self.colours[w] == col:
                    seen.add(w)
                    stack.append(w)
        return sorted(seen)

    @property
    def solved(self) -> bool:
        return len(set(self.colours)) == 1

    @property
    def colours_left(self) -> int:
        return len(set(self.colours))


def apply_move(board: Board, move: Move, step: int | None = None, pivot: int | None = None) -> Board:
    """Paint the region containing `move.cell` with `move.color` (it merges with its neighbours).
    With `pivot` (a cell), the Flood-It rules: the move must tap the region holding the pivot."""
    level = board.level
    if not 0 <= move.cell < level.size:
        raise RuleError("cell-exists", f"cell {move.cell} is not on the board", step=step)
    region = board.region_at(move.cell)
    if pivot is not None and pivot not in region:  # (the same test as `move.cell in region_at(pivot)`)
        raise RuleError("pivot-region", f"{level.format_label(move.cell)} is not in the region holding the pivot "
                        f"{level.format_label(pivot)}", step=step)
    if level.key_position(move.colour) is None:  # (a dict: the keys may be many, the moves too)
        raise RuleError(
            "known-colour",
            f"colour {move.colour!r} is not one of the level's colours ({level.keys_text()})",
            step=step,
        )
    old = board.colours[move.cell]
    if old == move.colour:
        raise RuleError(
            "colour-changes",
            f"region at {level.format_label(move.cell)} already has colour {move.colour!r}",
            step=step,
        )
    colours = list(board.colours)
    for cell in region:
        colours[cell] = move.colour
    return Board(level, tuple(colours))


def replay(level: Level, moves: Sequence[Move], pivot: int | None = None) -> list[Board]:
    """The start board and the board after each move (Flood-It rules when a `pivot` cell is given)."""
    boards = [Board.start(level)]
    for step, move in enumerate(moves, start=1):
        boards.append(apply_move(boards[-1], move, step=step, pivot=pivot))
    return boards


def verify(level: Level, moves: Sequence[Move], max_moves: int | None = None, pivot: int | None = None) -> Board:
    """Check that `moves` solve `level` (within `max_moves` if given; every move tapping the region of the
    `pivot` cell if given); return the final board."""
    if max_moves is not None and len(moves) > max_moves:
        raise RuleError("move-limit", f"{len(moves)} moves, but at most {max_moves} are allowed")
    final = Board.start(level)
    for step, move in enumerate(moves, start=1):  # (only the current board is kept: memory is one board)
        final = apply_move(final, move, step=step, pivot=pivot)
    if not final.solved:
        raise RuleError(
            "one-colour",
            f"after {len(moves)} move{'' if len(moves) == 1 else 's'} the board still has {final.colours_left} colours",
        )
    return final
