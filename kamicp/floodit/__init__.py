"""A sibling puzzle, Flood-It with a fixed pivot: every move repaints the region holding the pivot cell (by
default the top-left cell). A pivot bound, a pivot IDA*, a pivot CP-SAT model and a horizon loop with
proofs.

May import: the prover, the board, formats, pictures, the runtime and the foundations (never the designer
tools, packs or faces)."""

from kamicp.floodit.bound import pivot_bound
from kamicp.floodit.game import PivotGame, pivot_cell, pivot_game
from kamicp.floodit.rules import Pivot, count_pivot, prove_pivot_under, solve_pivot, validate_pivot
from kamicp.floodit.solver import PIVOT_ENGINES, greedy_plan
from kamicp.floodit.validate import parse_pivot

__all__ = ["PIVOT_ENGINES", "Pivot", "PivotGame", "count_pivot", "greedy_plan", "parse_pivot", "pivot_bound",
           "pivot_cell", "pivot_game", "prove_pivot_under", "solve_pivot", "validate_pivot"]
