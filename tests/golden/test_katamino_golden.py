"""Katamino: the known solution counts of the classic rectangles (free pentomino packing), by every
engine, and the same rectangles under the game's rule."""

from __future__ import annotations

import pytest

from kamicp.katamino import (
    LETTERS,
    KataminoStatus,
    Rule,
    shorthand,
    solve_katamino,
    usable_engines,
)

needs_core = pytest.mark.skipif("fast" not in usable_engines(), reason="compiled core not built")
CLASSIC = [("3x20", 2), ("4x15", 368), ("5x12", 1010), ("6x10", 2339)]


@pytest.mark.parametrize("engine", usable_engines())
def test_golden_3x20_has_two_solutions_up_to_symmetry(engine):
    result = solve_katamino(shorthand("3x20", LETTERS, Rule.FREE), engine=engine, count=True)
    assert (result.status, result.distinct, result.count, result.complete) == (KataminoStatus.SOLVED, 2, 8, True)


@needs_core
@pytest.mark.parametrize("board,distinct", CLASSIC)
def test_golden_rectangle_counts_fast(board, distinct):
    result = solve_katamino(shorthand(board, LETTERS, Rule.FREE), engine="fast", count=True)
    assert result.complete and result.distinct == distinct
    assert result.count == 4 * distinct  # no tiling of these rectangles is symmetric


@pytest.mark.slow
@pytest.mark.parametrize("board,distinct", CLASSIC[1:])
def test_golden_rectangle_counts(board, distinct):
    result = solve_katamino(shorthand(board, LETTERS, Rule.FREE), engine="dlx", count=True)
    assert result.complete and result.distinct == distinct
    assert result.count == 4 * distinct


@pytest.mark.slow
def test_golden_4x15_cpsat():
    result = solve_katamino(shorthand("4x15", LETTERS, Rule.FREE), engine="cpsat", count=True)
    assert result.complete and result.distinct == 368 and result.count == 1472


@needs_core
def test_the_game_rule_keeps_a_subset_of_the_tilings():
    """Under the game's rule (the I along the long side) 3 x 20 and 4 x 15 keep every tiling (an upright I
    does not fit); 5 x 12 and 6 x 10 keep fewer, and the fast engine agrees with Algorithm X on 5 x 12."""
    for board, distinct in CLASSIC[:2]:
        assert solve_katamino(shorthand(board, LETTERS), count=True).distinct == distinct
    fast = solve_katamino(shorthand("6x10", LETTERS), engine="fast", count=True)
    assert fast.complete and 0 < fast.distinct < 2339


@pytest.mark.slow
@needs_core
def test_game_rule_5x12_fast_against_algorithm_x():
    fast = solve_katamino(shorthand("5x12", LETTERS), engine="fast", count=True)
    dlx = solve_katamino(shorthand("5x12", LETTERS), engine="dlx", count=True)
    assert fast.complete and dlx.complete and fast.distinct == dlx.distinct < 1010
