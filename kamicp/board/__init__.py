"""The board wing: the puzzle itself, as plain values. The cell lattices (`lattice`: triangle, square,
graph), levels and moves (`level`), region graphs (`regions`, networkx), the rules engine (`rules`: the
executable spec every solver's output is replayed by; it shares no code with the solvers), the board's
colour-preserving symmetries (`symmetry`) and a level's content hash (`hashing`).

It may import only the foundations (`kamicp.errors`, `kamicp.limits`), the standard library and
networkx; every other wing builds on it.
"""

from kamicp.board.hashing import level_hash
from kamicp.board.lattice import Lattice, lattice
from kamicp.board.level import Level, Move
from kamicp.board.regions import Regions, region_graph, regions_of
from kamicp.board.rules import Board, apply_move, replay, verify

__all__ = ["Board", "Lattice", "Level", "Move", "Regions", "apply_move", "lattice", "level_hash", "region_graph",
           "regions_of", "replay", "verify"]
