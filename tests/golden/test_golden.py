"""Golden levels with known optima."""

from __future__ import annotations

import pytest

from kamicp import load_level, solve, verify
from kamicp.prover.solver import OPTIMAL


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


def test_proof_by_horizon_prefers_definite_answers():
    from kamicp.prover.solver import Horizon, Result

    steps = (Horizon(4, "bound", 0, "bound"), Horizon(5, "infeasible", 0.1, "search"),
             Horizon(6, "unknown", 0.4, "search"), Horizon(6, "infeasible", 2.0, "cpsat"),
             Horizon(7, "unknown", 1.0, "search"), Horizon(5, "infeasible", 0.3, "cpsat"))
    result = Result("x", "unknown", (), 7, None, None, steps, "auto", 3.0, 10, 4)
    shown = result.proof_by_horizon()
    assert [(h.steps, h.outcome, h.engine) for h in shown] == [
        (4, "bound", "bound"), (5, "infeasible", "search"), (6, "infeasible", "cpsat"), (7, "unknown", "search")]
