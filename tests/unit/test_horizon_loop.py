"""The one horizon loop (kamicp.prover.horizons.HorizonLoop) through its interface, with a toy puzzle: a `Footing`
(bound, best solution, replay) and a `Prover` answering one horizon at a time. The same loop runs Kami's
engines, Flood-It's pivot engines and the cubes on Dask; here its bookkeeping alone: the proof rows, the
statuses, the deadline and the replay of every solution."""

from __future__ import annotations

import pytest

from kamicp.board.level import Level, Move
from kamicp.errors import Interrupted, SolverError
from kamicp.prover.engines import Answer
from kamicp.prover.horizons import Footing, HorizonLoop
from kamicp.prover.outcome import EngineName, Outcome, Status
from kamicp.prover.request import Budget
from kamicp.runtime.clock import Deadline
from tests.helpers.boards import flood_square

LEVEL: Level = flood_square(3, 3, 0)


def solution(n: int) -> tuple[Move, ...]:
    return tuple(Move(0, "a") for _ in range(n))


class Toy:
    """The shortest solution has `optimum` moves: horizons below it refuted, the others solved in `solves`
    moves (default: the horizon's); `unknown`: horizons answered 'unknown'; `interrupt`: raises SIGINT's
    KeyboardInterrupt there."""

    name = EngineName.SEARCH

    def __init__(self, optimum: int, *, unknown: tuple[int, ...] = (), solves: int | None = None,
                 interrupt: int | None = None) -> None:
        self.optimum, self.unknown, self.solves, self.interrupt = optimum, unknown, solves, interrupt
        self.asked: list[int] = []

    def horizon(self, steps, deadline, stop=None) -> Answer:
        self.asked.append(steps)
        if steps == self.interrupt:
            raise KeyboardInterrupt
        if steps in self.unknown:
            return Answer(Outcome.UNKNOWN, None)
        if steps < self.optimum:
            return Answer(Outcome.INFEASIBLE, None)
        return Answer(Outcome.FEASIBLE, steps if self.solves is None else self.solves)  # (a plan: its length)


def footing(lower: int, best: int | None, replayed: list, *, monotone: bool = False) -> Footing:
    return Footing(level=LEVEL, lower=lower, best=None if best is None else solution(best),
                   source=EngineName.GREEDY, found_at=0.5, size=9, colours=3, moves=solution,
                   replay=lambda moves, most: replayed.append((len(moves), most)), monotone=monotone)


def run(toy: Toy, lower: int, best: int | None, budget: Budget | None = None, **kwargs):
    replayed: list = []
    loop = HorizonLoop(footing(lower, best, replayed, monotone=kwargs.pop("monotone", False)), toy,
                       budget or Budget(), label=EngineName.AUTO)
    return loop.run(**kwargs), replayed


def rows(result) -> list[tuple[int, str, str]]:
    return [(h.steps, str(h.outcome), str(h.engine)) for h in result.proof]


def test_bottom_up_proves_the_first_solved_horizon_optimal() -> None:
    toy = Toy(5)
    result, replayed = run(toy, 3, 8)
    assert toy.asked == [3, 4, 5]
    assert result.status == Status.OPTIMAL and len(result.moves) == 5 == result.lower_bound == result.upper_bound
    assert rows(result) == [(2, "bound", "bound"), (3, "infeasible", "search"), (4, "infeasible", "search"),
                            (5, "feasible", "search")]
    assert replayed == [(5, 5)] and result.engine == EngineName.AUTO and (result.regions, result.colours) == (9, 3)


def test_every_horizon_below_the_upper_bound_refuted_proves_it() -> None:
    result, _ = run(Toy(6), 4, 6)
    assert result.status == Status.OPTIMAL and result.upper_bound == 6
    assert rows(result)[-1] == (6, "feasible", "greedy") and result.proof[-1].seconds == 0.5


def test_max_steps_below_the_optimum_is_no_solution() -> None:
    result, _ = run(Toy(6), 2, 9, Budget(max_steps=4))
    assert result.status == Status.NO_SOLUTION and result.lower_bound == 5 and result.upper_bound == 9


def test_an_unknown_horizon_ends_with_honest_bounds() -> None:
    result, _ = run(Toy(7, unknown=(5,)), 3, 9)
    assert result.status == Status.UNKNOWN and (result.lower_bound, result.upper_bound) == (5, 9)


def test_the_deadline_ends_before_the_first_horizon() -> None:
    toy = Toy(7)
    result, _ = run(toy, 3, 9, Budget(deadline=Deadline.slice(0.0)))
    assert toy.asked == [] and result.status == Status.UNKNOWN and result.lower_bound == 3


def test_a_solution_below_a_refuted_horizon_is_refused() -> None:
    with pytest.raises(SolverError, match="below a proven bound"):
        run(Toy(5, solves=4), 3, 8)


def test_refuted_horizons_given_are_part_of_the_proof() -> None:
    from kamicp.prover.outcome import Horizon

    toy = Toy(6)
    result, _ = run(toy, 3, 8, refuted=(Horizon(3, Outcome.INFEASIBLE, 1.0, EngineName.CPSAT),
                                        Horizon(4, Outcome.INFEASIBLE, 1.0, EngineName.CPSAT)))
    assert toy.asked == [5, 6] and rows(result)[1:3] == [(3, "infeasible", "cpsat"), (4, "infeasible", "cpsat")]


def test_top_down_refutes_one_horizon_and_implies_the_lower_ones() -> None:
    toy = Toy(6)
    result, replayed = run(toy, 3, 9, monotone=True, top_down=True)
    assert toy.asked == [8, 7, 6, 5]  # each solved horizon shortens the best solution by one
    assert result.status == Status.OPTIMAL and result.upper_bound == 6 == result.lower_bound
    assert rows(result) == [(2, "bound", "bound"), (3, "implied", "search"), (4, "implied", "search"),
                            (5, "infeasible", "search"), (6, "feasible", "search"), (7, "feasible", "search"),
                            (8, "feasible", "search")]
    assert replayed == [(8, 8), (7, 7), (6, 6)]


def test_an_interrupt_carries_what_was_proven() -> None:
    with pytest.raises(Interrupted) as caught:
        run(Toy(7, interrupt=5), 3, 9)
    assert caught.value.result.status == Status.UNKNOWN and caught.value.result.lower_bound == 5
