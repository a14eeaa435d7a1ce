"""The compiled core's binding (kamicp/_core/module.cpp): keyword settings, checked input, and the beam and
rollout built from the board alone (their plans replayed by the rules engine, each within its limit)."""

from __future__ import annotations

import random

import pytest

from kamicp import Move, verify
from kamicp.board.regions import regions_of
from kamicp.prover.search import BEAM_SCHEDULE, HAVE_COMPILED, beam_plan, rollout_plan
from kamicp.prover.search import compiled_core as core
from tests.helpers.boards import random_graph, random_grid

pytestmark = pytest.mark.skipif(not HAVE_COMPILED, reason="compiled core not built")

PATH = [[1], [0, 2], [1]]  # three regions in a row


def _moves(regions, plan) -> list[Move]:
    return [Move(regions.ids[r], regions.palette[c]) for r, c in plan]


def test_settings_are_keyword_only():
    handle = core.create(PATH, [0, 1, 0], 2, table_limit=100, por=1, gather=False, ring=False,
                                adjacent=False, symmetry=[2, 1, 0])
    assert core.within(handle, 1, seconds=5.0) == ("feasible", [(1, 0)], 2)
    with pytest.raises(TypeError):
        core.create(PATH, [0, 1, 0], 2, 100, 1)  # the old positional flags
    with pytest.raises(TypeError):
        core.create(PATH, [0, 1, 0], 2, por=1, ringg=False)


@pytest.mark.parametrize(
    ("adj", "start", "k", "kw", "message"),
    [
        (PATH, [0, 1, 2], 2, {}, "colour index out of range"),
        (PATH, [0, 1], 2, {}, "adj and start differ in length"),
        ([[1], [0, 3], [1]], [0, 1, 0], 2, {}, "adjacency index out of range"),
        (PATH, [0, 1, 0], 16, {}, "1..15 colours"),
        (PATH, [0, 1, 0], 2, {"symmetry": [0, 1]}, "symmetry and start differ in length"),
        (PATH, [0, 1, 0], 2, {"symmetry": [0, 1, 5]}, "symmetry index out of range"),
    ],
)
def test_bad_input_is_a_clear_value_error(adj, start, k, kw, message):
    with pytest.raises(ValueError, match=message):
        core.create(adj, start, k, **kw)
    if not kw:  # the heuristics check the board the same way
        with pytest.raises(ValueError, match=message):
            core.beam(adj, start, k, width=4, fan=8, seconds=1.0)
        with pytest.raises(ValueError, match=message):
            core.rollout(adj, start, k, limit=3, seconds=1.0)


def _random_levels(count: int):
    rng = random.Random(13)
    for i in range(count):
        if i % 3 == 2:
            yield random_graph(rng, rng.randint(3, 9), rng.randint(2, 4), 0.35)
        else:
            yield random_grid(rng, rng.choice(["triangle", "square"]), rng.randint(2, 5), rng.randint(2, 5),
                              rng.randint(2, 4), hole_rate=0.1)


def test_every_beam_pass_and_the_rollout_give_replayable_plans():
    checked = 0
    for level in _random_levels(40):
        regions = regions_of(level)
        k = len(regions.palette)
        lengths = []
        for entry in BEAM_SCHEDULE:
            for closeness in (True, False):
                plan = beam_plan(regions.adj, regions.colours, k, seconds=10, schedule=(entry,), closeness=closeness)
                assert plan is not None, level.name  # the beam always finishes a small board
                verify(level, _moves(regions, plan))
                lengths.append(len(plan))
        best = beam_plan(regions.adj, regions.colours, k, seconds=10)
        assert best is not None and len(best) == min(lengths)
        plan = rollout_plan(regions.adj, regions.colours, k, 2 * regions.size, seconds=10)
        if plan is not None:
            verify(level, _moves(regions, plan), max_moves=2 * regions.size)
            checked += 1
    assert checked >= 10
