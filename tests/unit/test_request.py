"""The request: a level, its rules (Kami's `Free`, Flood-It's `Pivot(cell)`) and a `Budget` with its one clock,
taken by the library's entry points (`solve`, `validate`, `count_optimal`), so that no command branches on
the rules."""

from __future__ import annotations

import pytest

from kamicp.designer.count import count_optimal
from kamicp.errors import UsageError
from kamicp.floodit import Pivot, count_pivot, solve_pivot, validate_pivot
from kamicp.formats import load_level
from kamicp.prover.request import Budget, Request
from kamicp.prover.solver import Free, solve, validate
from kamicp.rulebook import rules_named
from tests.helpers import LEVELS
from tests.helpers.boards import flood_square

LEVEL = load_level(LEVELS / "squ-8b3c-s300.json")


def _same(a, b) -> None:
    assert (a.status, a.moves, a.lower_bound, a.upper_bound, a.engine) == (b.status, b.moves, b.lower_bound,
                                                                           b.upper_bound, b.engine)
    assert [(h.steps, h.outcome, h.engine) for h in a.proof] == [(h.steps, h.outcome, h.engine) for h in b.proof]


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_free_rules_are_the_kami_solver(engine: str) -> None:
    budget = Budget.start(60, workers=1, engine=engine)
    _same(solve(LEVEL, rules=Free(), budget=budget), solve(LEVEL, time_limit=60, workers=1, engine=engine))
    _same(Request(LEVEL, Free(), budget).solve(), solve(LEVEL, time_limit=60, workers=1, engine=engine))


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
def test_pivot_rules_are_the_flood_it_solver(engine: str) -> None:
    level = flood_square(5, 4, 3)
    budget = Budget.start(60, workers=1, engine=engine)
    _same(solve(level, rules=Pivot((2, 2)), budget=budget), solve_pivot(level, (2, 2), engine=engine,
                                                                         time_limit=60, workers=1))


def test_validate_and_count_follow_the_rules() -> None:
    level = flood_square(5, 4, 3, par=6)
    budget = Budget.start(60, workers=1, engine="search")
    pivot = validate(level, rules=Pivot(), budget=budget)
    assert pivot.verdict == validate_pivot(level, engine="search", time_limit=60).verdict
    assert validate(level, budget=budget).verdict == validate(level, engine="search", time_limit=60).verdict
    counted = count_optimal(level, engine="search", rules=Pivot())
    assert counted.solutions == count_pivot(level, engine="search").solutions


def test_rules_named_parses_the_options() -> None:
    level = flood_square(4, 3, 1)
    assert rules_named(level, "pivot", "2,3") == Pivot((2, 3))
    assert rules_named(level, "free").name == "free"
    assert Pivot((1, 2)).data(level)["rules"] == "pivot" and Free().data(level) == {}
    with pytest.raises(UsageError, match="--pivot needs --rules pivot"):
        rules_named(level, "free", "1,1")
    with pytest.raises(UsageError, match="unknown rules"):
        rules_named(level, "diagonal")
    with pytest.raises(UsageError, match="--limit is for the free rules"):
        count_optimal(level, limit=3, rules=Pivot())


def test_the_budget_is_checked_for_either_rules() -> None:
    level = flood_square(4, 3, 1)
    for rules in (Free(), Pivot()):
        with pytest.raises(UsageError, match="max-steps"):
            solve(level, rules=rules, budget=Budget(max_steps=-1))
        with pytest.raises(UsageError, match="unknown engine"):
            solve(level, rules=rules, budget=Budget(engine="magic"))


def test_one_request_carries_one_clock_down() -> None:
    """The budget's deadline is made once (Budget.start) and the request's changes keep it: a validation's
    max_steps, the progress line."""
    budget = Budget.start(60, engine="search")
    request = Request(LEVEL, Free(), budget)
    assert request.but(max_steps=3, progress=print).budget.deadline is budget.deadline
    assert budget.deadline.limited and 59 < budget.deadline.left() <= 60
    assert not Budget().deadline.limited


def test_the_rules_describe_themselves_for_the_printed_result() -> None:
    level = flood_square(4, 3, 1)
    assert Free().describe(level) == "Kami rules" and Pivot((1, 2)).describe(level) == "Flood-It rules, pivot (1, 2)"
    assert Free().chooses_region and not Pivot().chooses_region
