"""The count's cheap colour prunes (the colour bound on a position before contracting it, moves filtered by
the colours they leave, the weakened gather term in the quick bound): sound against the exhaustive
oracle, and the same counts as without them on boards beyond the brute force's reach."""

from __future__ import annotations

import random

import pytest

from kamicp import solve
from kamicp.board.regions import quotient, regions_of
from kamicp.designer.count import count_with, quick_bound
from tests.helpers.boards import random_graph, random_grid
from tests.helpers.oracle import bfs_optimum


def boards(seed: int, rows: int, cols: int, colours: int):
    rng = random.Random(seed)
    yield random_grid(rng, rng.choice(["square", "triangle"]), rows, cols, colours)
    yield random_graph(rng, rows * cols // 2, colours, 0.3)


@pytest.mark.parametrize("seed", range(40))
def test_the_quick_bound_never_exceeds_the_optimum(seed):
    for level in boards(seed, 3, 4, 4):
        best = bfs_optimum(level, limit=9)
        if best is None:
            continue
        regions = regions_of(level)
        q = quotient(regions.adj, regions.colours)
        if q.size > 1:
            assert quick_bound(q) <= best[0], level


@pytest.mark.parametrize("seed", range(12))
def test_the_same_counts_with_and_without_the_prunes(seed):
    for level in boards(1000 + seed, 5, 5, 4):
        result = solve(level, engine="search", time_limit=20)
        if result.status != "optimal":
            continue
        fast = count_with(level, result, time_limit=30)
        slow = count_with(level, result, time_limit=30, colours_first=False)
        assert fast.complete and slow.complete, level
        assert (fast.solutions, fast.classes, fast.examples) == (slow.solutions, slow.classes, slow.examples)
