"""Helpers for the game-file tests: a tiny game file and its variants, region graphs compared up to a
renaming of the colours."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import networkx as nx

from kamicp.board.level import Level
from kamicp.board.regions import region_graph
from tests.helpers import GAMES, LEVELS

EXAMPLES = GAMES
BENCH = LEVELS  # the JSON level each game file was written from
# A tiny synthetic Kami 2 board: W = 2 squares per row, 2 rows, 8 tiles (t = r * 4 + 2c + s).
#   row 0: (0,0,0)=1 (0,0,1)=2 (0,1,0)=2 (0,1,1)=0
#   row 1: (1,0,0)=1 (1,0,1)=1 (1,1,0)=2 (1,1,1)=2
TINY_PUZ = "01|Default|0|0|2|8|12201122|2||0|1B1C"  # regions: a path 1-2-1-2
PUZ_FIELDS = ("version", "palette", "lowX", "lowY", "W", "L", "tiles", "par", "unused", "flag", "solution")


def puz(**fields: str) -> str:
    """TINY_PUZ with some fields replaced (by the names of PUZ_FIELDS)."""
    parts = dict(zip(PUZ_FIELDS, TINY_PUZ.split("|"), strict=True))
    parts.update(fields)
    return "|".join(parts[n] for n in PUZ_FIELDS)


def example_files() -> list[Path]:
    """The game-file examples written by tests/data/make_data.py from levels in tests/data/levels."""
    return sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".puz", ".xml"))


def colour_bijections(a: Level, b: Level) -> list[dict[str, str]]:
    """Every renaming of a's colours onto b's that keeps the region graphs isomorphic."""
    ga, gb = region_graph(a), region_graph(b)
    ca = sorted({d["color"] for _, d in ga.nodes(data=True)})
    cb = sorted({d["color"] for _, d in gb.nodes(data=True)})
    if len(ca) != len(cb) or ga.number_of_nodes() != gb.number_of_nodes():
        return []
    found = []
    for perm in permutations(cb):
        rename = dict(zip(ca, perm, strict=True))
        if nx.is_isomorphic(ga, gb, node_match=lambda x, y, r=rename: r[x["color"]] == y["color"]):
            found.append(rename)
    return found


def same_board(a: Level, b: Level) -> bool:
    """Region graphs isomorphic with one consistent bijection between the two colour sets."""
    return bool(colour_bijections(a, b))
