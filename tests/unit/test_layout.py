"""Graph levels' drawings: networkx's spring layout below 500 nodes, Pivot MDS with sampled forces from
500 on (networkx would need SciPy there, which kamicp does not depend on), in bounded time."""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from typer.testing import CliRunner

from kamicp.board.level import Level
from kamicp.board.regions import region_graph
from kamicp.board.rules import Board
from kamicp.cli import app as cli
from kamicp.formats import load_level, write_json
from kamicp.render.layout import LARGE, graph_layout
from kamicp.render.scene import Circle, Line, board_scene, flat_items
from tests.helpers.boards import graph_levels, random_grid

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def board_graph(side: int, seed: int = 1) -> Level:
    """The region graph of a random square board as a graph level (planar, board-like)."""
    rng = random.Random(seed)
    board = Level.from_rows(["".join(rng.choice("ABCD") for _ in range(side)) for _ in range(side)], "square")
    g = region_graph(board)
    name = {v: str(i) for i, v in enumerate(g.nodes)}
    return Level.from_graph({name[v]: "ABCD"[i % 4] for i, v in enumerate(g.nodes)},
                            [(name[a], name[b]) for a, b in g.edges], name=f"g{len(g)}")


@pytest.fixture
def no_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)  # an import of it fails, installed or not
    graph_layout.cache_clear()
    yield
    graph_layout.cache_clear()


def test_large_graph_is_laid_out_without_scipy_in_bounded_time(no_scipy):
    level = board_graph(42)
    assert level.size >= LARGE
    start = time.monotonic()
    pos = np.array(graph_layout(level))
    assert time.monotonic() - start < 20  # (a fixed amount of work: about a second here)
    assert pos.shape == (level.size, 2) and pos.min() == 0 and pos.max() == 1
    # spread out: neighbours closer than the average pair, and no two nodes on one point
    edges = np.array(level.edges)
    near = np.linalg.norm(pos[edges[:, 0]] - pos[edges[:, 1]], axis=1).mean()
    pairs = np.random.default_rng(0).integers(0, level.size, size=(2000, 2))
    assert near < 0.5 * np.linalg.norm(pos[pairs[:, 0]] - pos[pairs[:, 1]], axis=1).mean()
    assert len({(round(x, 6), round(y, 6)) for x, y in pos}) == level.size
    assert graph_layout.__wrapped__(level) == tuple(map(tuple, pos))  # the same picture every time


def test_a_disconnected_large_graph_is_laid_out(no_scipy):
    a, b = board_graph(30, seed=2), board_graph(30, seed=3)
    shift = a.size
    level = Level.from_graph({**{f"a{i}": a.colours[i] for i in range(a.size)},
                              **{f"b{i}": b.colours[i] for i in range(b.size)}},
                             [(f"a{i}", f"a{j}") for i, j in a.edges] + [(f"b{i}", f"b{j}") for i, j in b.edges])
    assert level.size == shift + b.size >= LARGE
    pos = np.array(graph_layout(level))
    assert np.isfinite(pos).all() and pos.shape == (level.size, 2)


def test_show_svg_of_a_500_node_graph(no_scipy, tmp_path):
    level = board_graph(42)
    path = tmp_path / "g500.json"
    write_json(level, path)
    res = CliRunner().invoke(cli, ["show", str(path), "--svg", str(tmp_path / "x.svg")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "x.svg").read_text().count("<circle") >= level.size


# --- no edge through a node that is not one of its ends (issue 37, new-user defect 1) -----------------
def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from point p to the segment a-b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def crowded_nodes(level: Level) -> list[str]:
    """Every node of the drawn picture that an edge not ending at it touches (the edge's half width and
    a 2-unit gap beyond the node's circle), or that touches another node."""
    items = flat_items(board_scene(Board.start(level)))
    nodes = {s.cell: s for s in items if isinstance(s, Circle) and s.role == "node"}
    at = {n.center: cell for cell, n in nodes.items()}
    bad = []
    for line in (s for s in items if isinstance(s, Line)):
        ends = {at[line.a], at[line.b]}
        for cell, node in nodes.items():
            if cell not in ends and _segment_distance(node.center, line.a, line.b) < node.radius + line.width / 2 + 2:
                bad.append(f"edge {sorted(ends)} through node {cell}")
    for i, j in itertools.combinations(nodes, 2):
        if math.dist(nodes[i].center, nodes[j].center) < nodes[i].radius + nodes[j].radius + 2:
            bad.append(f"nodes {i} and {j} overlap")
    return bad


def test_blog_18_draws_no_edge_through_another_node():
    # (the 8-10 edge was drawn through node 11, both purple: a player read them as one region)
    level = load_level(PUZZLES / "blog-18.json")
    assert crowded_nodes(level) == []


@pytest.mark.parametrize("seed", range(40))
def test_region_graphs_of_random_boards_draw_no_edge_through_another_node(seed):
    rng = random.Random(seed)
    geometry = ("triangle", "square")[seed % 2]
    board = random_grid(rng, geometry, rng.randint(3, 14), rng.randint(3, 14), rng.randint(2, 4), hole_rate=0.05)
    g = region_graph(board)  # (holes may split it into islands)
    name = {v: str(i) for i, v in enumerate(g.nodes)}
    level = Level.from_graph({name[v]: "ABCD"[i % 4] for i, v in enumerate(g.nodes)},
                             [(name[a], name[b]) for a, b in g.edges], name=f"g{seed}")
    assert crowded_nodes(level) == []


@settings(max_examples=60, deadline=None)
@given(graph_levels(max_nodes=12))
def test_small_graph_levels_draw_no_edge_through_another_node(level):
    assert crowded_nodes(level) == []
