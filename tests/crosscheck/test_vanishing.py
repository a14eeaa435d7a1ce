"""The colour bound by the vanishing order (models/bounds.md, "The vanishing order"; issue 27) against the
exhaustive oracle: on boards where it raises the bound, along optimal plans, and its claim move by move."""

from __future__ import annotations

import random

from kamicp.board.regions import islands, regions_of
from kamicp.board.rules import replay
from kamicp.prover.bounds import bound_report, cluster_costs, gather_costs
from kamicp.prover.search import IDAStar
from tests.helpers.boards import random_graph, random_grid
from tests.helpers.oracle import bfs_optimum


def _bounds(level, colours=None) -> tuple[int, int]:
    regions = regions_of(level, colours)
    k = len(regions.palette)
    return (bound_report(regions.adj, regions.colours, k).value,
            bound_report(regions.adj, regions.colours, k, vanishing_order=True).value)


def test_the_order_never_exceeds_the_oracle_where_it_raises_the_bound():
    """Random graphs of 6-10 regions in 4 colours where the order raises the bound above the old one (one
    colour cheap, two or more costly): never above the true optimum, and often equal to it. The reference
    search with the order finds the same optimum."""
    rng = random.Random(3)
    checked = exact = 0
    while checked < 25:
        level = random_graph(rng, rng.randint(6, 10), 4, rng.choice([0.2, 0.3, 0.45]))
        old, new = _bounds(level)
        if new <= old:
            continue
        truth = bfs_optimum(level, limit=14)
        if truth is None:
            continue
        checked += 1
        assert new <= truth[0], level
        exact += new == truth[0]
        regions = regions_of(level)
        search = IDAStar(regions.adj, regions.colours, len(regions.palette), vanishing_order=True)
        assert search.within(truth[0] - 1) is None and len(search.within(truth[0])) == truth[0]
    assert exact > checked // 2  # (the raised bound is mostly the optimum: a test that can tell)


def test_the_order_holds_along_optimal_plans_and_its_claim_move_by_move():
    """After i moves of an optimal plan (the oracle's, replayed by the rules engine) the order's bound is at
    most optimum - i; and in the plan, the j-th colour to disappear (from the start) was one region after
    t_j - 1 moves with t_j - 1 >= its gathering cost on the start board (the proof's one step)."""
    rng = random.Random(27)
    checked = claims = 0
    for i in range(160):
        level = (random_graph(rng, rng.randint(5, 9), 4, rng.uniform(0.25, 0.6)) if i % 2
                 else random_grid(rng, "triangle", rng.randint(2, 3), rng.randint(2, 4), 4))
        truth = bfs_optimum(level, limit=8)
        if truth is None:
            continue
        optimum, moves = truth
        boards = replay(level, moves)
        for step, board in enumerate(boards[:-1]):
            assert _bounds(level, board.colours)[1] <= optimum - step, (level, step)
            checked += 1
        regions = regions_of(level)
        if len(set(regions.colours)) < 2 or len(islands(regions.size, regions.adj)) > 1:
            continue
        nodes = range(regions.size)
        cost = gather_costs(nodes, regions.adj, regions.colours)
        for colour, value in cluster_costs(nodes, regions.adj, regions.colours, 8).items():
            cost[colour] = max(cost[colour], value)
        keys = level.colour_keys
        gone: dict[int, int] = {}  # colour index -> move (1-based) at which it first disappears
        for t in range(1, len(boards)):
            present = {keys.index(c) for c in boards[t].colours}
            for colour in cost:
                if colour not in present and colour not in gone:
                    gone[colour] = t
        for colour, t in gone.items():
            assert t - 1 >= cost[colour], (level, colour, t)
            claims += 1
    assert checked >= 300 and claims >= 150
