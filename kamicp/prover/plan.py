"""What the open horizon of a proof would take on a cluster: an estimate, never a bound.

`simulate_makespan` replays how a distributed proof (kamicp.prover.distributed) hands out its cubes: sent in
order, at most a window in flight (refilled when fewer than half are), each free worker taking the next
task, each task costing its cube's seconds plus a per-task overhead. `cluster_plan` applies it to the
estimate of the open horizon (kamicp.prover.estimate): with the measured cube costs of the run, their
distribution scaled so that their sum is the estimate's core-seconds (the longest cube then bounds the
makespan, however many workers); without them, the work divided evenly. Pure Python: no OR-Tools, no Dask.
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Sequence
from dataclasses import dataclass

from kamicp.prover.estimate import Estimate

__all__ = ["PLAN_WORKERS", "TASK_OVERHEAD", "WINDOW", "ClusterPlan", "PlanRow", "cluster_plan", "run_window",
           "simulate_makespan"]

WINDOW = 256  # cube tasks in flight at most: kamicp.prover.distributed.WINDOW (a test holds them equal)
# Seconds each cube task costs beyond its own measured seconds (scheduling, sending the task and its answer,
# recording it), fitted from one-worker LocalCluster runs: benchmarks/topics/distributed.md, "Planning a
# cluster: simulated makespan".
TASK_OVERHEAD = 0.02
PLAN_WORKERS = (16, 100, 1000)  # the cluster sizes a plan names besides this machine's cores


def run_window(workers: int, window: int = WINDOW) -> int:
    """The window a distributed run of `workers` worker threads uses: at least 8 tasks per worker (as
    DistributedRun._gather does)."""
    return max(window, 8 * workers)


def simulate_makespan(costs: Sequence[float], workers: int, *, window: int = WINDOW,
                      overhead: float = TASK_OVERHEAD) -> float:
    """The seconds from the first cube sent to the last answer when `workers` one-thread workers run tasks
    costing `costs` (seconds each, in the order sent) plus `overhead` each: at most `window` tasks in flight,
    topped up to `window` when fewer than half are (as DistributedRun._gather does; pass `run_window(workers)`
    for its window), and each worker that falls free takes the next task sent (list scheduling)."""
    if workers < 1 or window < 2:
        raise ValueError(f"workers must be at least 1 and window at least 2 (got {workers}, {window})")
    if any(c < 0 for c in costs) or overhead < 0:
        raise ValueError("cube costs and the overhead must not be negative")
    n = len(costs)
    sent = in_flight = min(window, n)
    started, now, idle = 0, 0.0, workers
    running: list[float] = []  # finish times of the tasks on the workers (a heap)
    while started < n or running:
        while idle and started < sent:  # (the free workers take the next tasks sent)
            heapq.heappush(running, now + costs[started] + overhead)
            started, idle = started + 1, idle - 1
        now = heapq.heappop(running)
        idle, in_flight = idle + 1, in_flight - 1
        if in_flight < window // 2 and sent < n:  # (the window is topped up only when half empty)
            more = min(window - in_flight, n - sent)
            sent, in_flight = sent + more, in_flight + more
    return now


@dataclass(frozen=True)
class PlanRow:
    """`workers` one-thread workers would take about `seconds` (simulated) for the open horizon."""

    workers: int
    seconds: float

    def to_dict(self) -> dict:
        return {"workers": self.workers, "seconds": round(self.seconds, 1)}


@dataclass(frozen=True)
class ClusterPlan:
    """The open horizon's estimated cost on clusters of several sizes: an estimate, never a bound.
    `cubes`: the number of cube tasks whose measured costs (scaled to the estimate) were simulated; None
    when no cube was measured and the work is taken as evenly divisible. `longest`: the longest scaled
    cube's seconds (no cluster finishes sooner); `scale`: the factor from measured to estimated seconds."""

    estimate: Estimate
    rows: tuple[PlanRow, ...]
    cubes: int | None = None
    longest: float | None = None
    scale: float | None = None

    @property
    def core_hours(self) -> float:
        return self.estimate.core_hours

    def to_dict(self) -> dict:
        return {"estimate": self.estimate.to_dict(), "core_hours": round(self.core_hours, 3),
                "cubes": self.cubes, "longest_cube_seconds": None if self.longest is None else round(self.longest, 1),
                "scale": None if self.scale is None else round(self.scale, 3),
                "rows": [r.to_dict() for r in self.rows]}


def cluster_plan(estimate: Estimate, cube_seconds: Sequence[float] | None = None, *, cubes: int | None = None,
                 workers: Sequence[int] | None = None, overhead: float = TASK_OVERHEAD) -> ClusterPlan:
    """The makespan of the open horizon (`estimate`) on each cluster size of `workers` (default: this
    machine's cores, then PLAN_WORKERS). With `cube_seconds` (the measured seconds of the run's cube tasks,
    in the order sent: not the cubes the parent's bound refuted, nor those from the store) their
    distribution, scaled so that their sum is the estimate's seconds, is simulated with the per-task
    `overhead`; `cubes`, the open horizon's cube tasks when more than were measured (a run stopped
    mid-horizon), repeats the measured costs in order up to that many before scaling (the cubes still
    running then, likely the long ones, are not in the sample). Without costs (or when they sum to
    nothing) the seconds are divided evenly."""
    sizes = sorted(set(workers if workers is not None else ((os.cpu_count() or 1), *PLAN_WORKERS)))
    if not sizes or sizes[0] < 1:
        raise ValueError(f"cluster sizes must be at least 1 (got {sizes})")
    measured = sum(cube_seconds) if cube_seconds else 0.0
    if measured <= 0:
        rows = tuple(PlanRow(n, estimate.seconds / n) for n in sizes)
        return ClusterPlan(estimate, rows)
    assert cube_seconds is not None
    sample = [cube_seconds[k % len(cube_seconds)] for k in range(max(cubes or 0, len(cube_seconds)))]
    scale = estimate.seconds / sum(sample)
    costs = [c * scale for c in sample]
    rows = tuple(PlanRow(n, simulate_makespan(costs, n, window=run_window(n), overhead=overhead)) for n in sizes)
    return ClusterPlan(estimate, rows, cubes=len(costs), longest=max(costs), scale=scale)
