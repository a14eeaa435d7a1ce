"""Helpers for the game-file tests: compare region graphs up to a renaming of the colours."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import networkx as nx

from kamicp.level import Level
from kamicp.regions import region_graph
from tests.helpers import GAMES, LEVELS

EXAMPLES = GAMES
BENCH = LEVELS  # the JSON level each game file was written from


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
