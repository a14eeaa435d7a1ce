"""count: both counts cross-checked against brute-force enumeration (tests/helpers/count_oracle.py) on
hundreds of small random boards, the normal form's local rule against the swap definition."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kamicp import verify
from kamicp.board.level import Level
from kamicp.designer.count import count_optimal
from tests.helpers.boards import graph_levels, grid_levels
from tests.helpers.count_oracle import optimal_plans, swap_classes

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_against_brute_force(level: Level) -> None:
    brute = optimal_plans(level, max_depth=6, max_plans=3000)
    assume(brute is not None)
    optimum, plans = brute
    got = count_optimal(level, engine="search")
    assert got.complete and got.optimum == optimum
    assert got.solutions == len(plans)
    assert got.classes == swap_classes(level, plans)
    for plan in got.examples:
        verify(level, plan, max_moves=optimum)


@SETTINGS
@given(grid_levels(max_rows=3, max_cols=4))
def test_counts_match_brute_force_on_grids(level: Level) -> None:
    check_against_brute_force(level)


@SETTINGS
@given(graph_levels(max_nodes=7))
def test_counts_match_brute_force_on_graphs(level: Level) -> None:
    check_against_brute_force(level)


@settings(max_examples=60, deadline=None)
@given(grid_levels(max_rows=4, max_cols=4, holes=False), st.sampled_from([2, 3]))
def test_limit_gives_lower_bounds(level: Level, limit: int) -> None:
    full = count_optimal(level, engine="search")
    cut = count_optimal(level, engine="search", limit=limit)
    assert cut.solutions == full.solutions  # counted without enumerating: never cut by the limit
    assert cut.classes == min(full.classes, limit)
    assert cut.complete == (full.classes < limit)


def test_one_colour_board_has_one_empty_plan() -> None:
    got = count_optimal(Level.from_rows(["AA", "AA"], "square"), engine="search")
    assert (got.optimum, got.solutions, got.classes, got.complete) == (0, 1, 1, True)
