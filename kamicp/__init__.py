"""kamicp: solve Kami-style flood puzzles provably optimally."""

from kamicp.board.level import Level, Move
from kamicp.board.regions import region_graph
from kamicp.board.rules import replay, verify
from kamicp.errors import FormatError, Interrupted, KamiError, RuleError, SolverError, UsageError, WorkerError
from kamicp.formats import load_level
from kamicp.prover.solver import Result, Validation, prove_under, solve, validate

__version__ = "0.1.0"

__all__ = [
    "FormatError", "Interrupted", "KamiError", "Level", "Move", "Result", "RuleError", "SolverError", "UsageError",
    "Validation", "load_level", "prove_under", "region_graph", "replay", "solve", "validate", "verify", "WorkerError",
]
