"""The compiled cluster gathering cost (kamicp/_core/clusters.hpp) against the Python reference
(bounds.spread_sample and bounds.cluster_cost): the same sample and value, and its threshold test
(`at_least`, the branch and bound the compiled search decides with, and its cache of the tables it has seen)
agrees with the exact value at every threshold, in any order of questions. The searches' node-for-node
agreement is in test_proof_power.py."""

from __future__ import annotations

import random

import pytest

from kamicp.board.regions import regions_of
from kamicp.prover.bounds import cluster_cost, distances, spread_sample
from kamicp.prover.search import HAVE_COMPILED, compiled_core
from tests.helpers.boards import random_grid

pytestmark = pytest.mark.skipif(not HAVE_COMPILED, reason="checks the compiled core")


def _colour_classes(seed: int, count: int):
    """(regions of one colour ascending, their distances) on random connected boards of 20-150 regions."""
    rng = random.Random(seed)
    for _ in range(count):
        geometry = rng.choice(["triangle", "square"])
        level = random_grid(rng, geometry, rng.randint(4, 10), rng.randint(4, 12), rng.randint(2, 4), hole_rate=0)
        regions = regions_of(level)
        by_colour: dict[int, list[int]] = {}
        for v in range(regions.size):
            by_colour.setdefault(regions.colours[v], []).append(v)
        for members in by_colour.values():
            if len(members) >= 2:
                yield members, {v: distances(v, regions.adj) for v in members}


def test_the_compiled_sample_cost_and_threshold_match_the_python_reference():
    checked = sampled = 0
    for members, dist in _colour_classes(seed=1719, count=150):
        flat = [dist[a][b] for a in members for b in members]
        for size in (3, 5, 8):
            expected = cluster_cost(spread_sample(members, dist, size), dist)
            caps = list(range(-1, expected + 3))
            for order in (caps, caps[::-1], random.Random(len(flat)).sample(caps, len(caps))):
                cost, answers = compiled_core.cluster_cost(flat, size, order + order)  # (asked twice: the cache)
                assert cost == expected, (members, size)
                assert answers == [expected >= cap for cap in order + order], (members, size, order)
            checked += 1
            sampled += len(members) > size
    assert checked >= 100 and sampled >= 50  # both the whole class and a sample of it were compared


def test_the_threshold_on_arbitrary_distances_matches_the_exact_value():
    """Not only graph distances: any symmetric table (the branch and bound must not rely on a metric)."""
    rng = random.Random(1720)
    for _ in range(1000):
        r = rng.randint(1, 11)
        table = [[0] * r for _ in range(r)]
        for i in range(r):
            for j in range(i + 1, r):
                table[i][j] = table[j][i] = rng.randint(1, 9)
        dist = {i: {j: table[i][j] for j in range(r)} for i in range(r)}
        flat = [table[i][j] for i in range(r) for j in range(r)]
        size = rng.randint(2, 9)  # (the Python sample needs two picks when it samples)
        expected = cluster_cost(spread_sample(list(range(r)), dist, size), dist)
        caps = [rng.randint(-1, expected + 2) for _ in range(4)]
        assert compiled_core.cluster_cost(flat, size, caps) == (expected, [expected >= cap for cap in caps])


def test_bad_distance_tables_are_refused():
    with pytest.raises(ValueError):
        compiled_core.cluster_cost([0, 1, 1], 8, [2])  # not r x r
    with pytest.raises(ValueError):
        compiled_core.cluster_cost([0, 1, 1, 0], 13, [2])  # sample too large
