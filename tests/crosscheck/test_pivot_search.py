"""The pivot test at the compiled search's nodes (kamicp/_core/pivot_test.hpp; models/pivot-free.md, "At the
search's nodes") against the exhaustive oracle, which shares no code with the search: on random small boards,
islands included, the search with the test at every node it may be asked (slack 0, every region a pivot) finds
the oracle's optimum, its plan replays, and the test prunes nodes on some of the boards (so the check is not
empty). A few hundred boards here, 10,000 in the slow test; and on a level of the harder set it refutes a
horizon with fewer nodes than without it."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from kamicp import verify
from kamicp.board.level import Level
from kamicp.board.regions import regions_of
from kamicp.formats import load_level
from kamicp.prover.config import SolveOptions, options_without
from kamicp.prover.outcome import to_moves
from kamicp.prover.search import HAVE_COMPILED, CompiledIDAStar
from tests.helpers import HARD
from tests.helpers.boards import mixed_small_board
from tests.helpers.boardsets import search_optimum
from tests.helpers.oracle import bfs_optimum

pytestmark = pytest.mark.skipif(not HAVE_COMPILED, reason="the pivot test is the compiled search's")


@dataclass
class Tally:
    boards: int = 0
    pruning: int = 0  # boards where the test pruned at least one node
    prunes: int = 0  # nodes it pruned, all boards


# the two forms of the test, each alone at every node where it can be asked: the pivot A*'s optimum (slack 0,
# the layered form off), the layered bound of the pivot games (the A* never asked: slack beyond any budget)
MODES = {"astar": {"pivot_slack": 0, "pivot_layered": False}, "layered": {"pivot_slack": 99, "pivot_layered": True}}
# ... and both as `solve` runs them: the layered form, then the A* where it did not prune
FORMS = {**MODES, "both": {"pivot_slack": 0, "pivot_layered": True}}


def check_board(level: Level, tally: Tally, mode: str) -> None:
    regions = regions_of(level)
    if len(set(regions.colours)) < 2:
        return
    truth = bfs_optimum(level, limit=12)
    assert truth is not None, level
    k = len(regions.palette)
    search = CompiledIDAStar(regions.adj, regions.colours, k, clusters=8, pivot=regions.size,
                             **FORMS[mode])
    t, plan = search_optimum(search)
    assert t == truth[0], level
    verify(level, to_moves(regions, plan), max_moves=t)
    stats = search.pivot_stats()
    tally.boards += 1
    tally.pruning += stats.prunes > 0
    tally.prunes += stats.prunes


def run(seed: int, count: int, mode: str) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for i in range(count):
        check_board(mixed_small_board(rng, i, graph_nodes=8), tally, mode)
    return tally


@pytest.mark.parametrize("mode", list(FORMS))
def test_the_search_with_the_pivot_test_finds_the_oracles_optimum(mode):
    tally = run(36, 300, mode)
    # (on boards this small the pivot game rarely needs more than the plain bound: a few boards prune)
    assert tally.boards >= 250 and tally.pruning >= 3, tally


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MODES))
def test_the_pivot_test_on_ten_thousand_boards(mode):
    tally = run(3636, 11_200, mode)  # (boards of one colour are skipped: 10,000 and more are searched)
    assert tally.boards >= 10_000 and tally.pruning >= 50, tally
    print(mode, tally)  # (-s shows the counts: models/pivot-free.md quotes them)


def test_the_pivot_test_refutes_a_horizon_with_fewer_nodes():
    """gen-tri-80b5c-proper-s702 (80 regions, optimum 11): its root bound without the pivot relation is 8, and
    at horizon 9 the pivot games from far regions refute most one-move children, which the plain bound does not.
    With the A* asked only where the plain bound leaves a move of slack, the layered bound of those games prunes
    deeper nodes the A* is not asked at; asked at every node (the default) the A* prunes more still, and the
    layered form first spares it runs."""
    regions = regions_of(load_level(HARD / "gen-tri-80b5c-proper-s702.json"))
    k = len(regions.palette)
    runs = {}
    for pivot, slack, layered in ((0, 0, False), (2, 1, False), (2, 1, True), (2, 0, False), (2, 0, True)):
        search = CompiledIDAStar(regions.adj, regions.colours, k, clusters=8, pivot=pivot, pivot_slack=slack,
                                 pivot_layered=layered)
        assert search.within(9) is None
        runs[pivot, slack, layered] = search.nodes, search.pivot_stats()
    (plain, off), (astar, alone), (nodes, both) = runs[0, 0, False], runs[2, 1, False], runs[2, 1, True]
    assert off.asked == 0 and alone.by_layered == 0 and alone.by_astar > 0 and both.by_layered > 0
    assert nodes < astar < plain
    (everywhere, astar0), (default, both0) = runs[2, 0, False], runs[2, 0, True]
    assert default <= everywhere < nodes and both0.runs < astar0.runs


def test_the_pivot_test_is_on_by_default_and_can_be_switched_off():
    assert options_without(["search-pivot"]).search.pivot == 0 < SolveOptions().search.pivot
