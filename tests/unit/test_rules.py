"""The rules engine (the executable spec), the region graph and the level geometry."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from kamicp import FormatError, Level, Move, RuleError, load_level, region_graph, replay, verify
from kamicp.formats import write_json


def test_triangle_adjacency_follows_the_spec():
    level = Level.from_rows(["AAA", "AAA"], "triangle")
    adj = {level.labels[i]: {level.labels[j] for j in nb} for i, nb in enumerate(level.adjacency())}
    # (0,0) points right: neighbours (1,0) and (0,-1) (off the board)
    assert adj[(0, 0)] == {(1, 0)}
    # (0,1) points left: (1,1) and (0,2)
    assert adj[(0, 1)] == {(1, 1), (0, 2)}
    # (1,1) points right: (0,1) and (1,0)
    assert adj[(1, 1)] == {(0, 1), (1, 0)}


def test_square_adjacency_and_holes():
    level = Level.from_rows(["A.B", "CCC"], "square")
    assert level.size == 5
    assert (0, 1) not in level.labels
    adj = {level.labels[i]: {level.labels[j] for j in nb} for i, nb in enumerate(level.adjacency())}
    assert adj[(0, 0)] == {(1, 0)}
    assert adj[(1, 1)] == {(1, 0), (1, 2)}


@pytest.mark.parametrize("geometry", ["square", "triangle"])
def test_a_full_grid_and_a_grid_with_a_hole_agree_with_the_lattice(geometry):
    """A grid with no holes takes its cells and edges from a cache shared by every grid of its size: both paths
    give exactly the pairs of cells the lattice calls neighbours, and two boards of one size share them."""
    from kamicp.board.lattice import lattice

    def oracle(level):
        cells = set(level.labels)
        return {frozenset((a, b)) for a in cells for b in lattice(geometry).neighbours(*a) if b in cells}

    for rows in (["ABCA", "BBCA", "CABC"], ["AB.A", "BBCA", "CA.C"]):
        level = Level.from_rows(rows, geometry)
        assert [level.labels[i] for i in range(level.size)] == sorted(level.labels)  # reading order
        assert {frozenset((level.labels[i], level.labels[j])) for i, j in level.edges} == oracle(level)
        assert list(level.edges) == sorted(level.edges) and all(i < j for i, j in level.edges)
        assert "".join(level.colours) == "".join(rows).replace(".", "")
    other = Level.from_rows(["CCCC", "AAAA", "BBBB"], geometry)
    assert other.edges is Level.from_rows(["ABCA", "BBCA", "CABC"], geometry).edges


def test_region_graph_contracts_same_colour_neighbours():
    level = Level.from_rows(["AAB", "CAB"], "square")
    g = region_graph(level)
    assert isinstance(g, nx.Graph)
    assert sorted(g.nodes) == [0, 2, 3]  # region ids are their top-left cells
    assert g.nodes[0]["color"] == "A" and len(g.nodes[0]["cells"]) == 3
    assert set(g.edges) == {(0, 2), (0, 3)}


def test_apply_move_merges_with_neighbours():
    level = Level.from_rows(["ABA"], "square")
    boards = replay(level, [Move(1, "A")])
    assert boards[-1].solved
    assert boards[0].colours == ("A", "B", "A")


@pytest.mark.parametrize(("move", "rule"), [
    (Move(7, "A"), "cell-exists"),
    (Move(-1, "A"), "cell-exists"),
    (Move(0, "Z"), "known-colour"),
    (Move(0, "A"), "colour-changes"),
])
def test_broken_rules_are_named(move, rule):
    level = Level.from_rows(["ABA"], "square")
    with pytest.raises(RuleError) as info:
        replay(level, [move])
    assert info.value.rule == rule and info.value.step == 1
    assert rule in str(info.value)


def test_verify_checks_one_colour_and_move_limit():
    level = Level.from_rows(["ABC"], "square")
    with pytest.raises(RuleError, match="one-colour"):
        verify(level, [Move(1, "A")])
    good = [Move(1, "A"), Move(0, "C")]
    assert verify(level, good).solved
    with pytest.raises(RuleError, match="move-limit"):
        verify(level, good, max_moves=1)


def test_moves_tap_the_top_left_cell_of_their_region(blog_path):
    from kamicp import solve

    level = Level.from_rows(["BAA", "BAB", "AAB"], "square")
    result = solve(level)
    for board, move in zip(replay(level, result.moves), result.moves, strict=False):
        assert move.cell == board.region_at(move.cell)[0]


def test_json_round_trip(tmp_path, blog_path):
    for level in (load_level(blog_path), Level.from_rows(["AB.", "BBA"], "triangle", name="t", par=2,
                                                         palette={"A": "#fff", "B": "#000"})):
        out = tmp_path / f"{level.name}.json"
        write_json(level, out)
        again = load_level(out)
        assert again == level
        with pytest.raises(FormatError, match="exists"):
            write_json(level, out)


def test_graph_level_ids_may_be_integers(tmp_path):
    f = tmp_path / "g.json"
    f.write_text(json.dumps({"geometry": "graph", "nodes": {"1": "A", "2": "B"}, "edges": [[1, "2"]]}))
    level = load_level(f)
    assert level.edges == ((0, 1),) and level.name == "g"


def test_text_grid_with_star_holes(tmp_path):
    f = tmp_path / "b.txt"
    f.write_text("AB*\nBBA\n\n")
    level = load_level(f, geometry="triangle")
    assert level.size == 5 and level.shape == (2, 3)
    with pytest.raises(FormatError, match="line 2"):
        f.write_text("AB\nB\n")
        load_level(f, geometry="square")
