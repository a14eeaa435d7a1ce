"""The long proof's order of horizons (kamicp.prover.long_proof.open_first, the cubes' loop): the open horizon
bottom-up first when the race's estimate of it fits in the time left, then top-down; the same optimum and a
proof row for every horizon either way."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kamicp import load_level
from kamicp.prover.config import SolveOptions
from kamicp.prover.distributed import solve_cubes
from kamicp.prover.engines import SearchEngine
from kamicp.prover.estimate import Estimate
from kamicp.prover.horizons import HorizonLoop, kami_footing, prepare
from kamicp.prover.long_proof import open_first
from kamicp.prover.outcome import EngineName, Outcome, Result, Status
from kamicp.prover.request import Budget, Request
from kamicp.prover.solver import Free
from kamicp.runtime.clock import Deadline
from kamicp.runtime.pool import LocalPool
from tests.helpers import LEVELS, known_optima


def unknown(lower: int, estimate: Estimate | None) -> Result:
    return Result(level="x", status=Status.UNKNOWN, moves=(), lower_bound=lower, upper_bound=lower + 2,
                  max_steps=None, proof=(), engine=EngineName.AUTO, seconds=20.0, regions=100, colours=5,
                  estimate=estimate)


def cost(horizon: int, seconds: float) -> Estimate:
    return Estimate(horizon=horizon, nodes=seconds * 1000, seconds=seconds, rate=1000.0, method="knuth")


@pytest.mark.parametrize(("quick", "workers", "left", "first"), [
    (unknown(11, cost(11, 1600.0)), 2, 1000.0, True),  # 800 s on two workers, 1000 s left
    (unknown(11, cost(11, 1600.0)), 1, 1000.0, False),  # 1600 s on one worker
    (unknown(11, cost(11, 1600.0)), 2, 700.0, False),
    (unknown(11, cost(11, 1600.0)), 2, float("inf"), True),  # no time limit
    (unknown(11, cost(12, 1.0)), 2, 1000.0, False),  # an estimate of another horizon says nothing of the open one
    (unknown(11, None), 2, 1000.0, False),  # no estimate: top-down as before
    (None, 2, 1000.0, False),  # no race (resumed from a store)
])
def test_the_open_horizon_goes_first_when_its_estimate_fits(quick: Result | None, workers: int, left: float,
                                                           first: bool) -> None:
    assert open_first(quick, workers, left) is first


def loop_rows(lower: int, *, first: bool, best: bool = True) -> tuple[Result, dict[int, Outcome]]:
    """tri-24b4c-s104 (optimum 6) by the search through the loop, top-down, from the sound but weaker bound
    `lower` (and without the prepared plan unless `best`)."""
    level = load_level(LEVELS / "tri-24b4c-s104.json")
    prepared = prepare(level, SolveOptions(), Deadline.after(60))
    footing = replace(kami_footing(level, prepared, SolveOptions()), lower=lower, monotone=True)
    if not best:
        footing = replace(footing, best=None)
    loop = HorizonLoop(footing, SearchEngine(prepared.regions), Budget.start(60), label=EngineName.SEARCH)
    result = loop.run(top_down=True, open_first=first)
    return result, {h.steps: h.outcome for h in result.proof}


def test_the_loop_answers_the_open_horizon_then_goes_top_down() -> None:
    optimum = known_optima()["tri-24b4c-s104"]["optimum"]
    result, rows = loop_rows(2, first=True)
    assert result.optimum == optimum
    assert rows == {1: Outcome.BOUND, 2: Outcome.INFEASIBLE, **dict.fromkeys(range(3, optimum - 1), Outcome.IMPLIED),
                    optimum - 1: Outcome.INFEASIBLE, optimum: Outcome.FEASIBLE}
    result, rows = loop_rows(2, first=False)  # top-down at once: the one refutation implies the rest
    assert result.optimum == optimum and rows[2] == Outcome.IMPLIED and rows[optimum - 1] == Outcome.INFEASIBLE


def test_an_open_horizon_solved_first_is_the_optimum() -> None:
    optimum = known_optima()["tri-24b4c-s104"]["optimum"]
    result, rows = loop_rows(optimum, first=True, best=False)  # no plan known: the open horizon is solved
    assert result.status == Status.OPTIMAL and result.optimum == optimum and len(result.moves) == optimum
    assert rows[optimum] == Outcome.FEASIBLE


def cubes(open_horizon_first: bool):
    level = load_level(LEVELS / "tri-32b5c-s106.json")  # bound 6, best plan 8 after `prepare`: a gap of two
    with LocalPool(2) as pool:
        return solve_cubes(Request(level, Free(), Budget.start(120)), pool, parent_pivot=False,
                           open_first=open_horizon_first)


@pytest.mark.slow  # (two cube proofs: 13 s on 2 quiet cores, 2.5 min under load)
def test_the_cubes_answer_the_open_horizon_first_then_top_down() -> None:
    up, down = cubes(True), cubes(False)
    optimum = known_optima()["tri-32b5c-s106"]["optimum"]
    assert up.result.optimum == down.result.optimum == optimum
    assert [h.horizon for h in down.horizons] == [optimum - 1]  # top-down: the one refutation
    first = up.horizons[0].horizon
    assert first < optimum - 1 and [h.horizon for h in up.horizons] == [first, optimum - 1]
    assert all(h.outcome == Outcome.INFEASIBLE for h in up.horizons)
    rows = {h.steps: h.outcome for h in up.result.proof}
    assert rows[first] == Outcome.INFEASIBLE and rows[optimum - 1] == Outcome.INFEASIBLE
    assert all(h in rows for h in range(first, optimum + 1)), rows
