"""Katamino: the known solution counts of the classic rectangles, by both engines."""

from __future__ import annotations

import pytest

from kamicp.katamino import (
    LETTERS,
    Status,
    shorthand,
    solve_katamino,
)


@pytest.mark.parametrize("engine", ["dlx", "cpsat"])
def test_golden_3x20_has_two_solutions_up_to_symmetry(engine):
    result = solve_katamino(shorthand("3x20", LETTERS), engine=engine, count=True)
    assert (result.status, result.distinct, result.count, result.complete) == (Status.SOLVED, 2, 8, True)


@pytest.mark.slow
@pytest.mark.parametrize("board,distinct", [("4x15", 368), ("5x12", 1010), ("6x10", 2339)])
def test_golden_rectangle_counts(board, distinct):
    result = solve_katamino(shorthand(board, LETTERS), engine="dlx", count=True)
    assert result.complete and result.distinct == distinct
    assert result.count == 4 * distinct  # no tiling of these rectangles is symmetric


@pytest.mark.slow
def test_golden_4x15_cpsat():
    result = solve_katamino(shorthand("4x15", LETTERS), engine="cpsat", count=True)
    assert result.complete and result.distinct == 368 and result.count == 1472
