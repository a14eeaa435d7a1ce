"""Graph levels' drawings: networkx's spring layout below 500 nodes, Pivot MDS with sampled forces from
500 on (networkx would need SciPy there, which kamicp does not depend on), in bounded time."""

from __future__ import annotations

import random
import sys
import time

import numpy as np
import pytest
from typer.testing import CliRunner

from kamicp.board.level import Level
from kamicp.board.regions import region_graph
from kamicp.cli import app as cli
from kamicp.formats import write_json
from kamicp.render.layout import LARGE, graph_layout


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
    level = Level.from_graph({**{f"a{i}": a.colors[i] for i in range(a.size)},
                              **{f"b{i}": b.colors[i] for i in range(b.size)}},
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
