"""The cluster plan (kamicp.prover.plan): the makespan simulation on hand-checked cases and against a
step-by-step simulation of the same dispatch, and the plan's scaling of measured cube costs to the estimate."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.prover import distributed
from kamicp.prover.estimate import Estimate
from kamicp.prover.plan import PLAN_WORKERS, WINDOW, cluster_plan, run_window, simulate_makespan


def step_by_step(costs: list[int], workers: int, window: int, overhead: int) -> int:
    """The same dispatch one time unit at a time (integer costs): each task's time left, counted down."""
    n = len(costs)
    sent = in_flight = min(window, n)
    started = done = t = 0
    left: list[int] = []
    while done < n:
        while len(left) < workers and started < sent:
            left.append(costs[started] + overhead)
            started += 1
        t += 1
        left = [r - 1 for r in left]
        for _ in range(left.count(0)):
            done, in_flight = done + 1, in_flight - 1
            if in_flight < window // 2 and sent < n:
                more = min(window - in_flight, n - sent)
                sent, in_flight = sent + more, in_flight + more
        left = [r for r in left if r > 0]
    return t


def test_equal_costs_divide_evenly() -> None:
    assert simulate_makespan([1.0] * 8, 4, overhead=0) == 2.0
    assert simulate_makespan([1.0] * 9, 4, overhead=0) == 3.0  # (the ninth runs alone)


def test_one_long_cube_bounds_the_makespan() -> None:
    costs = [10.0] + [1.0] * 20
    assert simulate_makespan(costs, 100, overhead=0) == 10.0
    assert simulate_makespan(costs, 2, overhead=0) == 15.0  # (the other worker takes the 20 short ones)
    assert simulate_makespan([1.0] * 20 + [10.0], 2, overhead=0) == 20.0  # sent last, it ends last


def test_one_worker_takes_the_sum_and_the_overheads() -> None:
    costs = [0.5, 2.0, 1.25, 3.0]
    assert simulate_makespan(costs, 1, overhead=0.25) == pytest.approx(sum(costs) + 4 * 0.25)


def test_a_small_window_idles_workers() -> None:
    # window 4: the 4 first run at once; the window is topped up only when 1 is left in flight (fewer than
    # half), so 3 more run in the second unit and the eighth alone in the third
    assert simulate_makespan([1.0] * 8, 4, window=4, overhead=0) == 3.0
    assert simulate_makespan([1.0] * 8, 4, window=8, overhead=0) == 2.0


def test_no_cubes_take_no_time() -> None:
    assert simulate_makespan([], 16) == 0.0


def test_nonsense_is_refused() -> None:
    with pytest.raises(ValueError):
        simulate_makespan([1.0], 0)
    with pytest.raises(ValueError):
        simulate_makespan([-1.0], 1)
    with pytest.raises(ValueError):
        simulate_makespan([1.0], 1, window=1)


def test_the_window_is_the_distributed_runs() -> None:
    assert WINDOW == distributed.WINDOW
    assert run_window(4) == WINDOW and run_window(100) == 800  # (at least 8 tasks per worker)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=40), st.integers(1, 9), st.integers(2, 12), st.integers(0, 2))
def test_the_simulation_agrees_with_a_step_by_step_one(costs: list[int], workers: int, window: int,
                                                       overhead: int) -> None:
    got = simulate_makespan([float(c) for c in costs], workers, window=window, overhead=overhead)
    assert got == step_by_step(costs, workers, window, overhead)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 100), min_size=1, max_size=60), st.integers(1, 50))
def test_the_makespan_lies_between_the_even_share_and_the_sum(costs: list[float], workers: int) -> None:
    got = simulate_makespan(costs, workers, window=run_window(workers), overhead=0)
    assert max(max(costs), sum(costs) / workers) - 1e-9 <= got <= sum(costs) + 1e-9


def estimate(seconds: float) -> Estimate:
    return Estimate(horizon=11, nodes=seconds * 1e6, seconds=seconds, rate=1e6, method="test")


def test_without_cube_costs_the_work_divides_evenly() -> None:
    plan = cluster_plan(estimate(40 * 3600), workers=(1, 16, 100))
    assert [(r.workers, r.seconds) for r in plan.rows] == [(1, 144000), (16, 9000), (100, 1440)]
    assert plan.cubes is None and plan.longest is None and plan.core_hours == 40


def test_measured_cubes_are_scaled_to_the_estimate() -> None:
    plan = cluster_plan(estimate(4000), [1.0, 1.0, 2.0], workers=(1000, 1, 2), overhead=0.5)
    assert plan.scale == 1000 and plan.longest == 2000 and plan.cubes == 3
    seconds = {r.workers: r.seconds for r in plan.rows}
    assert list(seconds) == [1, 2, 1000]
    assert seconds[1] == pytest.approx(4000 + 3 * 0.5)
    assert seconds[2] == pytest.approx(2000 + 0.5 + 1000 + 0.5)  # (the first worker takes the third cube)
    assert seconds[1000] == pytest.approx(2000 + 0.5)  # the longest cube, not 4000 / 1000


def test_default_sizes_start_with_this_machines_cores() -> None:
    plan = cluster_plan(estimate(3600))
    assert [r.workers for r in plan.rows] == sorted({os.cpu_count() or 1, *PLAN_WORKERS})


def test_a_plan_as_data() -> None:
    data = cluster_plan(estimate(7200), [1.0, 3.0], workers=(1, 2), overhead=0).to_dict()
    assert data["core_hours"] == 2 and data["cubes"] == 2 and data["longest_cube_seconds"] == 5400
    assert data["rows"] == [{"workers": 1, "seconds": 7200}, {"workers": 2, "seconds": 5400}]
    assert data["estimate"]["horizon"] == 11
    with pytest.raises(ValueError):
        cluster_plan(estimate(1), workers=(0,))


def test_a_partial_sample_is_repeated_up_to_the_horizons_cubes() -> None:
    plan = cluster_plan(estimate(9000), [1.0, 2.0], cubes=6, workers=(1000,), overhead=0)
    assert plan.cubes == 6 and plan.scale == 1000 and plan.longest == 2000  # (1, 2, 1, 2, 1, 2): 9 s
    assert plan.rows[0].seconds == 2000
    assert cluster_plan(estimate(6000), [1.0, 2.0], cubes=1, workers=(1,)).cubes == 2  # (never fewer)
