"""Counting optimal Flood-It solutions (kamicp.floodit.count) against an independent brute force on the
rules engine: every colour sequence of the optimum's length, played with the pivot rule."""

from __future__ import annotations

import random

import pytest

from kamicp.board.level import Level
from kamicp.board.rules import verify
from kamicp.errors import UsageError
from kamicp.floodit import count_pivot
from tests.helpers.boards import random_grid
from tests.helpers.count_oracle import brute_pivot_count
from tests.helpers.oracle import bfs_pivot_optimum


def _boards(count: int, seed: int) -> list[tuple[Level, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        level = random_grid(rng, rng.choice(["square", "triangle"]), rng.randint(2, 4), rng.randint(2, 4),
                            rng.randint(2, 4), hole_rate=0.15)
        out.append((level, rng.randrange(level.size)))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_count_matches_brute_force_on_random_boards(seed):
    checked = 0
    for level, cell in _boards(12, seed):
        label = level.labels[cell]
        res = count_pivot(level, label, engine="search")
        truth = bfs_pivot_optimum(level, cell, limit=10)
        if truth is None:  # no solution (islands the flood cannot reach differ in colour) or past the limit
            assert res.optimum is None or res.optimum > 10
            continue
        assert res.optimum == truth[0] and res.complete and res.solutions_complete
        assert res.solutions == res.classes == brute_pivot_count(level, cell, truth[0])
        for plan in res.examples:  # distinct optimal plans, each replayed with the pivot rule
            verify(level, plan, pivot=cell)
            assert len(plan) == truth[0]
        assert len(set(res.examples)) == len(res.examples) == min(3, res.solutions)
        checked += 1
    assert checked >= 6


def test_unreachable_islands_of_two_colours_have_nothing_to_count():
    level = Level.from_rows(["AB.A", "BA.B"], "square")
    res = count_pivot(level)
    assert res.optimum is None and res.complete and res.solutions == 0 and res.stopped_by is None


def test_bad_time_limit():
    with pytest.raises(UsageError):
        count_pivot(Level.from_rows(["AB"], "square"), time_limit=0)


@pytest.mark.parametrize("seed", range(3))
def test_count_matches_brute_force_on_5x5_boards(seed):
    """Bigger boards, where optima have many solutions (the counter's memo and bound pruning matter)."""
    rng = random.Random(100 + seed)
    for colours in (3, 4):
        level = Level.from_rows(["".join(rng.choice("ABCD"[:colours]) for _ in range(5)) for _ in range(5)],
                                "square")
        cell = rng.randrange(level.size)
        res = count_pivot(level, level.labels[cell], engine="search")
        truth = bfs_pivot_optimum(level, cell, limit=14)
        assert truth is not None and res.optimum == truth[0]
        assert res.solutions == brute_pivot_count(level, cell, truth[0])
