"""Flood-It with a fixed pivot: the pivot rule in the rules engine, the pivot bound's admissibility, and
the search, the CP-SAT model and the exhaustive oracle (tests/helpers/oracle.py, rules engine only) agreeing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.board.level import Level, Move
from kamicp.board.rules import replay, verify
from kamicp.errors import RuleError, UsageError
from kamicp.floodit import pivot_bound, pivot_game, prove_pivot_under, solve_pivot
from kamicp.floodit.model import PivotModel
from kamicp.floodit.search import PivotSearch
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL, UNKNOWN
from tests.helpers.boards import flood_square as square
from tests.helpers.boards import grid_levels, random_grid
from tests.helpers.oracle import bfs_pivot_optimum

SETTINGS = dict(deadline=None, derandomize=True)


def test_rules_engine_pivot_rule():
    level = Level.from_rows(["AB", "BA"], "square")
    with pytest.raises(RuleError, match="pivot-region"):
        verify(level, [Move(1, "A")], pivot=0)
    replay(level, [Move(1, "A")])  # a legal move under the free rules
    boards = replay(level, [Move(0, "B"), Move(0, "A")], pivot=0)
    assert boards[-1].solved
    verify(level, [Move(0, "B"), Move(0, "A")], pivot=0)


@settings(max_examples=60, **SETTINGS)
@given(grid_levels(max_rows=4, max_cols=4, max_colours=4), st.data())
def test_search_model_and_oracle_agree_on_small_boards(level, data):
    pivot = data.draw(st.integers(0, level.size - 1))
    label = level.labels[pivot]
    oracle = bfs_pivot_optimum(level, pivot, limit=16)
    for engine in ("search", "cpsat"):
        result = solve_pivot(level, label, engine=engine)
        if oracle is None:  # no solution at all: the other islands differ in colour
            assert result.status == NO_SOLUTION, (level, engine)
        else:
            assert result.status == OPTIMAL and len(result.moves) == oracle[0], (level, engine)
            verify(level, result.moves, pivot=pivot)


@settings(max_examples=40, **SETTINGS)
@given(grid_levels(max_rows=4, max_cols=4, max_colours=4, holes=False))
def test_pivot_bound_is_admissible_along_optimal_play(level):
    """h never exceeds the moves an optimal solution still needs, in every state it passes through."""
    game = pivot_game(level)
    oracle = bfs_pivot_optimum(level, 0, limit=16)
    if oracle is None:  # triangle boards can fall apart into islands of several colours
        assert game.blocked
        return
    flooded, colour = 1 << game.start, game.regions.colours[game.start]
    palette = game.regions.palette
    for k, move in enumerate(oracle[1]):
        assert pivot_bound(game, flooded, colour) <= oracle[0] - k
        colour = palette.index(move.colour)
        flooded = game.absorb(flooded, colour)
    assert game.solved(flooded, colour) and pivot_bound(game, flooded, colour) == 0


@pytest.mark.parametrize("n,colours", [(n, k) for n in (6, 7, 8, 9, 10) for k in (3, 4, 5, 6)]
                         + [(12, 3), (12, 4), (14, 3), (14, 4)])
def test_search_and_model_agree_on_random_boards(n, colours):
    level = square(n, colours, seed=100 * n + colours)
    a = solve_pivot(level, engine="search", time_limit=60)
    b = solve_pivot(level, engine="cpsat", time_limit=60)
    assert a.status == b.status == OPTIMAL
    assert len(a.moves) == len(b.moves)
    for r in (a, b):
        verify(level, r.moves, pivot=0)


@pytest.mark.slow
@pytest.mark.parametrize("n,colours", [(12, 5), (12, 6), (14, 5), (14, 6)])
def test_search_and_model_agree_on_big_boards(n, colours):
    level = square(n, colours, seed=100 * n + colours)
    a = solve_pivot(level, engine="auto", time_limit=300)
    b = solve_pivot(level, engine="cpsat", time_limit=300)
    assert a.status == b.status == OPTIMAL and len(a.moves) == len(b.moves)


def test_oracle_agrees_on_random_6x6_with_three_colours():
    for seed in range(6):
        level = square(6, 3, seed)
        oracle = bfs_pivot_optimum(level, 0, limit=14)
        assert oracle is not None
        assert len(solve_pivot(level, engine="search").moves) == oracle[0]


def test_horizon_by_horizon_the_engines_agree():
    level = square(8, 4, seed=3)
    game = pivot_game(level)
    optimum = len(solve_pivot(level).moves)
    search = PivotSearch(game)
    for steps in range(max(optimum - 3, 0), optimum + 2):
        expected = "feasible" if steps >= optimum else "infeasible"
        assert search.horizon(steps)[0] == expected
        assert PivotModel(game, steps).solve()[0] == expected  # monotone on a connected board


def test_islands_fix_the_final_colour_or_forbid_a_solution():
    fixed = Level.from_rows(["AB.C", "BA.C"], "square")  # the other island is all C: end in C
    result = solve_pivot(fixed, engine="search")
    assert result.status == OPTIMAL and result.moves[-1].colour == "C"
    assert len(result.moves) == bfs_pivot_optimum(fixed, 0)[0] == len(solve_pivot(fixed, engine="cpsat").moves)
    split = Level.from_rows(["AB.C", "BA.A"], "square")  # the other island has two colours: never one colour
    assert solve_pivot(split).status == NO_SOLUTION and bfs_pivot_optimum(split, 0) is None


def test_pivot_option_and_prove_under():
    level = random_grid(random.Random(5), "square", 5, 5, 3, hole_rate=0.0)
    centre = solve_pivot(level, (2, 2), engine="search")
    assert len(centre.moves) == bfs_pivot_optimum(level, level.index((2, 2)), limit=14)[0]
    assert {m.cell for m in centre.moves} == {level.index((2, 2))}
    optimum = len(centre.moves)
    assert prove_pivot_under(level, optimum, (2, 2)).status == NO_SOLUTION
    assert prove_pivot_under(level, optimum + 1, (2, 2)).status == OPTIMAL
    with pytest.raises(UsageError):
        solve_pivot(level, (7, 7))
    with pytest.raises(UsageError):
        solve_pivot(level, engine="magic")


def test_time_limit_gives_unknown_with_a_replayed_upper_bound():
    level = square(14, 6, seed=1406)
    result = solve_pivot(level, engine="search", time_limit=0.05)
    assert result.status in (UNKNOWN, OPTIMAL)
    if result.status == UNKNOWN:
        assert result.upper_bound == len(result.moves) and result.lower_bound <= result.upper_bound
        verify(level, result.moves, pivot=0)


def test_benchmark_script_runs(tmp_path):
    import importlib.util
    import json

    from tests.helpers import ROOT

    spec = importlib.util.spec_from_file_location("bench_floodit", ROOT / "benchmarks" / "floodit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "f"
    module.main(["--sizes", "6", "--colours", "3", "--time-limit", "30", "--out", str(out)])
    (record,) = json.loads(out.with_suffix(".json").read_text())["records"]
    assert {record[e]["optimum"] for e in ("search", "cpsat", "auto")} == {len(solve_pivot(square(6, 3, 603)).moves)}


@pytest.mark.parametrize("side", [40, 200])
def test_time_limit_holds_on_large_boards(side):
    """Found by the hostile pass: on a 200 x 200 board the greedy alone took minutes, and on 40 x 40 a search
    node's bound and the model's build outlasted the limit. Every phase now stops at the deadline."""
    import time

    rng = random.Random(side)
    rows = ["".join(rng.choice("ABCDEFG") for _ in range(side)) for _ in range(side)]
    level = Level.from_rows(rows, geometry="square")
    start = time.monotonic()
    result = solve_pivot(level, time_limit=1.0)
    assert time.monotonic() - start < 1.0 + 2.0  # the game's set-up on 40,000 cells included, on a loaded machine
    assert result.status == UNKNOWN and result.lower_bound >= 1
