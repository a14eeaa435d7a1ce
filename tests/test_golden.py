"""Golden levels with known optima."""

from __future__ import annotations

import pytest

from kamicp import load_level, solve, verify
from kamicp.solver import OPTIMAL


@pytest.mark.parametrize("engine", ["cpsat", "search"])
def test_blog_level_solves_in_five_with_proof_that_four_is_impossible(blog_path, engine):
    level = load_level(blog_path)
    result = solve(level, engine=engine)
    assert result.status == OPTIMAL
    assert len(result.moves) == 5
    verify(level, result.moves, max_moves=5)
    refuted = {h.steps for h in result.proof if h.outcome in ("infeasible", "bound")}
    assert 4 in refuted
    assert result.lower_bound == 5
