"""The fast engine: the compiled bitboard search (kamicp/_core/katamino.hpp) on a puzzle's placements.

The free cells become the bits of one 64-bit word, numbered along the board's short side first (column
by column on a wide board), so that "the first empty cell" the search always covers moves along a
frontier as short as the board allows. The placements stay the puzzle's (`Puzzle.placements`, the same
plain data the other engines read), each turned into a mask.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass

from kamicp.errors import UsageError
from kamicp.katamino.puzzle import Placement, Puzzle

try:
    import kamicp._fastsearch as _fastsearch
except ImportError:  # pragma: no cover - the compiled core did not build
    _fastsearch = None

MAX_CELLS = 64


def available() -> bool:
    """Is the compiled core built (with its Katamino search)?"""
    return _fastsearch is not None and hasattr(_fastsearch, "pack")


def cell_order(puzzle: Puzzle) -> tuple[int, ...]:
    """The free cells in bit order: along the short side first."""
    if puzzle.cols >= puzzle.rows:
        return tuple(sorted(puzzle.free, key=lambda i: (i % puzzle.cols, i // puzzle.cols)))
    return puzzle.free


@dataclass(frozen=True)
class BitResult:
    """`end`: 'complete' (every solution counted), 'limit' (stopped at the limit) or 'timeout' (the time
    limit or an interrupt); `count` solutions found, the first `keep` as placement indices."""

    end: str
    count: int
    nodes: int
    solutions: tuple[tuple[int, ...], ...]


class BitSearch:
    """One puzzle's bitboard search over a placement list (all of the puzzle's, or a restricted one)."""

    def __init__(self, puzzle: Puzzle, placements: Sequence[Placement]) -> None:
        if not available():
            raise UsageError("the fast engine needs the compiled core (pip install -e . builds it)")
        order = cell_order(puzzle)
        if len(order) > MAX_CELLS:
            raise UsageError(f"the fast engine handles at most {MAX_CELLS} free cells, got {len(order)}")
        bit = {cell: k for k, cell in enumerate(order)}
        self.cells = len(order)
        self.neighbours = [self._mask(bit, self._adjacent(puzzle, cell)) for cell in order]
        letters = {letter: k for k, letter in enumerate(puzzle.pieces)}
        self.pieces = len(letters)
        self.masks = [self._mask(bit, p.cells) for p in placements]
        self.piece = [letters[p.letter] for p in placements]
        self._stop: ctypes.Array | None = None

    @staticmethod
    def _mask(bit: dict[int, int], cells: Sequence[int]) -> int:
        return sum(1 << bit[c] for c in cells if c in bit)

    @staticmethod
    def _adjacent(puzzle: Puzzle, cell: int) -> list[int]:
        r, c = divmod(cell, puzzle.cols)
        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return [a * puzzle.cols + b for a, b in near if 0 <= a < puzzle.rows and 0 <= b < puzzle.cols]

    def stop_on(self, flags: ctypes.Array) -> bool:
        """Stop (as on a timeout) once flags[0] is non-zero: kamicp.runtime.interrupt.attach hands us the
        flags `stop_everything` sets on Ctrl-C. Always True."""
        self._stop = flags
        return True

    def run(self, *, limit: int | None = None, keep: int | None = 0, seconds: float | None = None) -> BitResult:
        """Count the exact covers (stopping after `limit`), keeping the first `keep` (None: all)."""
        stop = 0 if self._stop is None else ctypes.addressof(self._stop)
        end, count, nodes, sols = _fastsearch.pack(
            self.cells, self.neighbours, self.pieces, self.masks, self.piece,
            limit=-1 if limit is None else limit, keep=-1 if keep is None else keep,
            seconds=-1.0 if seconds is None else seconds, stop=stop)
        return BitResult(end, count, nodes, tuple(tuple(s) for s in sols))
