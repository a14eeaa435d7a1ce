"""A sibling puzzle, Katamino: pack a set of distinct pentominoes exactly into a rectangle (with blocked
cells), under the game's rule (the I lies lengthwise) or freely, by a compiled bitboard search, a CP-SAT
exact-cover model (models/katamino.md) or Knuth's Algorithm X, with counts up to the board's symmetries;
and the game's challenges (a line of pieces from a starting width) and books of them.

May import: the prover, the board, formats, pictures, the runtime and the foundations (never the designer
tools, packs or faces). Its files are read by `formats/katamino.py` (moving to `katamino/files.py`)."""

from kamicp.katamino.board import check_solution, impossibility, symmetries
from kamicp.katamino.book import Book, Challenge, solve_book
from kamicp.katamino.pieces import LETTERS, Rule, i_direction, orientations
from kamicp.katamino.puzzle import Placement, Puzzle, puzzle_from_data, shorthand
from kamicp.katamino.solver import (
    AUTO,
    KATAMINO_ENGINES,
    KataminoResult,
    KataminoStatus,
    asymmetric_piece,
    solve_katamino,
    usable_engines,
)

__all__ = ["AUTO", "KATAMINO_ENGINES", "LETTERS", "Book", "Challenge", "KataminoResult", "Placement", "Puzzle", "Rule",
           "KataminoStatus", "asymmetric_piece", "check_solution", "i_direction", "impossibility", "orientations",
           "puzzle_from_data", "shorthand", "solve_book", "solve_katamino", "symmetries", "usable_engines"]
