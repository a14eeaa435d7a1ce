"""The engines meet: CP-SAT model vs reference IDA* vs an exhaustive oracle, on many random boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import Move, solve, verify
from kamicp.board.regions import regions_of
from kamicp.prover.bounds import bound_report
from kamicp.prover.model import FloodModel
from kamicp.prover.search import IDAStar
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL
from tests.helpers.boards import levels, random_graph, random_mixed
from tests.helpers.oracle import bfs_optimum

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def _small(level, max_regions):
    return regions_of(level).size <= max_regions


@settings(max_examples=150, **SETTINGS)
@given(levels(max_rows=3, max_cols=3, max_colours=3))
def test_search_and_bound_match_exhaustive_oracle(level):
    truth = bfs_optimum(level)
    assert truth is not None
    optimum, _ = truth
    regions = regions_of(level)
    assert bound_report(regions.adj, regions.colours, len(regions.palette)).value <= optimum
    result = solve(level, engine="search")
    assert result.status == OPTIMAL
    assert len(result.moves) == optimum
    verify(level, result.moves, max_moves=optimum)


def _random_level(seed: int):
    return random_mixed(seed, triangle=(3, 6), square=(3, 5), nodes=(4, 10), edge_rates=(0.15, 0.3, 0.45))


@pytest.mark.parametrize("chunk", range(10))
def test_cpsat_matches_search_on_random_boards(chunk):
    """300 boards (triangle, square, graph with islands): same optimum from both engines, and the
    model agrees with the search on every horizon around the optimum, not only where solve() asks."""
    for seed in range(chunk * 30, chunk * 30 + 30):
        level = _random_level(seed)
        a = solve(level, engine="cpsat", workers=1)
        b = solve(level, engine="search")
        assert a.status == b.status == OPTIMAL, seed
        assert len(a.moves) == len(b.moves) == a.lower_bound == b.lower_bound, seed
        verify(level, a.moves, max_moves=len(a.moves))
        verify(level, b.moves, max_moves=len(b.moves))
        regions = regions_of(level)
        optimum = len(a.moves)
        search = IDAStar(regions.adj, regions.colours, len(regions.palette))
        for horizon in range(max(1, optimum - 2), optimum + 1):
            out = FloodModel(regions, horizon).solve(workers=1)
            plan = search.within(horizon)
            if horizon < optimum:
                assert out.status == "infeasible" and plan is None, (seed, horizon)
            else:
                assert out.status == "feasible" and plan is not None, (seed, horizon)
                moves = [Move(regions.ids[r], regions.palette[c]) for r, c in out.plan]
                verify(level, moves, max_moves=horizon)


@settings(max_examples=40, **SETTINGS)
@given(levels(max_rows=3, max_cols=4, max_colours=3), st.integers(0, 4))
def test_max_steps_gives_proven_no_solution_or_optimum(level, max_steps):
    truth = bfs_optimum(level)
    assert truth is not None
    optimum, _ = truth
    for engine in ("cpsat", "search"):
        result = solve(level, engine=engine, max_steps=max_steps)
        if optimum <= max_steps:
            assert result.status == OPTIMAL and len(result.moves) == optimum
        else:
            assert result.status == NO_SOLUTION
            assert result.lower_bound > max_steps


def _colour_regions(board, cells, colour):
    """The number of regions of `color` among `cells` (one island), by the rules engine's flood fill."""
    seen: set[int] = set()
    count = 0
    for cell in cells:
        if cell not in seen and board.colours[cell] == colour:
            seen.update(board.region_at(cell))
            count += 1
    return count


def test_gather_costs_are_exactly_the_one_move_test():
    """gather_costs says 0/1/2 for "one region / one move can make it one region / no move can"; checked
    against every move of the rules engine on boards where colours have several regions."""
    from kamicp.board.regions import islands
    from kamicp.board.rules import Board, apply_move
    from kamicp.prover.bounds import gather_costs

    twos = 0
    for seed in range(120):
        level = _random_level(seed)
        regions = regions_of(level)
        start = Board.start(level)
        for nodes in islands(regions.size, regions.adj):
            cells = [cell for v in nodes for cell in regions.cells[v]]
            costs = gather_costs(nodes, regions.adj, regions.colours)
            for c, cost in costs.items():
                key = regions.palette[c]
                before = _colour_regions(start, cells, key)
                assert (cost == 0) == (before == 1)
                if before == 1:
                    continue
                one_move = any(
                    _colour_regions(apply_move(start, Move(regions.cells[v][0], new)), cells, key) == 1
                    for v in nodes for new in level.colour_keys if new != level.colours[regions.cells[v][0]]
                )
                assert (cost == 1) == one_move, (seed, key)
                twos += cost == 2
    assert twos >= 20  # the case the refinement adds is really exercised


def test_bound_with_gathering_never_exceeds_the_oracle():
    """Boards where a colour cannot be gathered in one move (the bound's +2 case) against the oracle."""
    from kamicp.prover.bounds import gather_costs

    checked = 0
    rng = random.Random(5)
    while checked < 25:
        level = random_graph(rng, rng.randint(6, 9), 3, 0.3)
        regions = regions_of(level)
        costs = gather_costs(range(regions.size), regions.adj, regions.colours)
        if len(set(regions.colours)) < 3 or 2 not in costs.values():
            continue
        truth = bfs_optimum(level, limit=14)
        if truth is None:
            continue
        checked += 1
        assert bound_report(regions.adj, regions.colours, len(regions.palette)).value <= truth[0]


def test_ring_rule_on_a_path():
    """A B A B C: radius 2 (centre the middle A), but its outermost ring {A, C} has two colours and no
    other region has eccentricity 2, so the bound is 3; the oracle agrees that 3 is the optimum."""
    from kamicp.board.level import Level
    from kamicp.prover.bounds import ring_radius

    level = Level.from_graph({str(i): c for i, c in enumerate("ABABC")}, [(str(i), str(i + 1)) for i in range(4)])
    regions = regions_of(level)
    assert ring_radius(range(regions.size), regions.adj, regions.colours) == (2, 3)
    report = bound_report(regions.adj, regions.colours, len(regions.palette))
    assert (report.value, report.radius, report.ring) == (3, 2, 1)
    assert bfs_optimum(level)[0] == 3


def test_bound_with_the_ring_rule_never_exceeds_the_oracle():
    """Boards where the ring rule raises the bound above both the radius and the colour bound, against the
    exhaustive oracle; it is often exact there."""
    checked = exact = 0
    rng = random.Random(11)
    while checked < 30:
        level = random_graph(rng, rng.randint(5, 9), rng.choice([3, 4]), rng.choice([0.0, 0.2, 0.35]))
        regions = regions_of(level)
        report = bound_report(regions.adj, regions.colours, len(regions.palette))
        if report.islands > 1 or report.ring == 0 or report.value != report.radius + 1 \
                or report.colour_part >= report.value:
            continue
        truth = bfs_optimum(level, limit=14)
        if truth is None:
            continue
        checked += 1
        assert report.value <= truth[0]
        exact += report.value == truth[0]
    assert exact >= 10
