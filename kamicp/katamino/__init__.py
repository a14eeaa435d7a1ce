"""Katamino: pack a set of distinct pentominoes exactly into a rectangle (with blocked cells), by a CP-SAT
exact-cover model (models/katamino.md) or Knuth's Algorithm X, with counts up to the board's symmetries."""

from kamicp.katamino.board import check_solution, impossibility, symmetries
from kamicp.katamino.pieces import LETTERS, orientations
from kamicp.katamino.puzzle import Placement, Puzzle, puzzle_from_data, shorthand
from kamicp.katamino.solver import ENGINES, KataminoResult, Status, solve_katamino

__all__ = ["ENGINES", "LETTERS", "KataminoResult", "Placement", "Puzzle", "Status", "check_solution",
           "impossibility", "orientations", "puzzle_from_data", "shorthand", "solve_katamino", "symmetries"]
