"""The whole horizon by CP-SAT beside its cubes (kamicp.prover.cube_task.run_whole, the cubes' run with `whole`):
its answers agree with the search's optimum, the pool's stop flag (or a Dask stop event) ends it, it answers a
top-down horizon the cubes have not, on a local pool and on a Dask cluster, and the run leaves no process
behind."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kamicp import load_level
from kamicp.board.rules import verify
from kamicp.prover import distributed
from kamicp.prover.config import SolveOptions
from kamicp.prover.cube_task import WHOLE, CubeOutcome, WholeTask, run_cube, run_whole
from kamicp.prover.distributed import solve_cubes
from kamicp.prover.outcome import EngineName, Outcome, Status
from kamicp.prover.request import Budget, Request
from kamicp.prover.solver import Free
from kamicp.runtime.clock import Deadline
from kamicp.runtime.pool import LocalPool
from kamicp.runtime.store import Store
from tests.helpers import HARD, LEVELS, known_optima


def task(horizon: int, flag: int = 0, seconds: float = 120.0) -> WholeTask:
    options = SolveOptions()
    return WholeTask(horizon, Deadline.after(seconds).portable(), 0, options.model, options.cpsat, flag)


@pytest.mark.parametrize("name", ["tri-24b4c-s104", "squ-14b4c-s301"])
def test_the_whole_horizon_refutes_below_the_optimum_and_solves_at_it(name: str) -> None:
    level = load_level(LEVELS / f"{name}.json")
    optimum = known_optima()[name]["optimum"]
    below = run_whole(level, task(optimum - 1))  # (outside a pool no flag is ever raised)
    assert (below.key, below.outcome, below.by) == (WHOLE, CubeOutcome.REFUTED, EngineName.CPSAT)
    at = run_whole(level, task(optimum))
    assert at.outcome == CubeOutcome.SOLVED and len(at.moves) <= optimum
    verify(level, at.moves, max_moves=optimum)


def test_the_pools_stop_flag_ends_the_whole_horizon_as_unknown() -> None:
    level = load_level(HARD / "gen-tri-110b5c-mirror-proper-s705.json")  # horizon 11: CP-SAT needs many minutes
    t0 = time.monotonic()
    with LocalPool(1) as pool:
        flag = pool.new_flag()
        [fut] = pool.map(run_whole, [level], [task(11, flag)])
        time.sleep(1.0)  # (the task under way: the flag is raised while it runs)
        pool.raise_flag(flag)
        answer = fut.result(timeout=60)
    assert answer.outcome == CubeOutcome.UNKNOWN and time.monotonic() - t0 < 60


def stalled_cube(level, cube_task):  # noqa: ANN001 - the cubes' task, made slow (some 30 cubes: minutes)
    time.sleep(15)
    return run_cube(level, cube_task)


def test_the_whole_task_answers_a_top_down_horizon_the_cubes_do_not(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    level = load_level(LEVELS / "tri-32b5c-s106.json")  # bound 6, best plan 8 after `prepare`
    optimum = known_optima()["tri-32b5c-s106"]["optimum"]
    monkeypatch.setattr(distributed, "run_cube", stalled_cube)  # (inherited by the pool's forked workers)
    monkeypatch.setattr(distributed, "WHOLE_AFTER", 2.0)  # (CP-SAT joins once the cubes are this slow)
    t0 = time.monotonic()
    with LocalPool(2) as pool, Store(tmp_path / "proofs.db") as store:
        run = solve_cubes(Request(level, Free(), Budget.start(300)), pool, parent_pivot=False, whole=True,
                          store=store)
        workers = [p.pid for ex in pool.executors for p in (ex._processes or {}).values()]
    assert time.monotonic() - t0 < 200
    assert run.result.status == Status.OPTIMAL and run.result.optimum == optimum
    verify(level, run.result.moves, max_moves=optimum)
    rows = {h.steps: (h.outcome, h.engine) for h in run.result.proof}
    assert rows[optimum - 1] == (Outcome.INFEASIBLE, EngineName.CPSAT)  # (the proof row names who refuted it)
    top = run.horizons[-1]
    assert top.outcome == Outcome.INFEASIBLE and top.horizon == optimum - 1
    assert top.whole is not None and top.whole.by == EngineName.CPSAT
    assert WHOLE not in top.counts()
    assert len([a for a in top.answers if a.key != WHOLE]) < top.cubes  # (not all its cubes: CP-SAT answered it)
    assert all(not Path(f"/proc/{pid}").exists() for pid in workers), "pool workers left behind"
    with LocalPool(2) as pool, Store(tmp_path / "proofs.db") as store:  # a rerun: the refutation from the store
        again = solve_cubes(Request(level, Free(), Budget.start(300)), pool, parent_pivot=False, whole=True,
                            store=store)
    assert again.result.optimum == optimum and again.reused == 1  # (the whole refutation; the plan is prepared)
    [h] = again.horizons
    assert h.horizon == optimum - 1 and h.counts() == {} and h.whole is not None and h.whole.source == "store"


def test_cubes_that_answer_quickly_get_no_whole_task(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(distributed, "WHOLE_AFTER", 60.0)  # (s106's horizon takes its cubes a few seconds)
    level = load_level(LEVELS / "tri-32b5c-s106.json")
    with LocalPool(2) as pool:
        run = solve_cubes(Request(level, Free(), Budget.start(120)), pool, parent_pivot=False, whole=True)
    assert run.result.optimum == known_optima()["tri-32b5c-s106"]["optimum"]
    assert run.horizons and all(h.whole is None for h in run.horizons)


@pytest.mark.parametrize(("seconds", "answered", "due"), [(10.0, 0, False), (40.0, 0, True), (40.0, 49, True),
                                                         (40.0, 50, False)])
def test_cp_sat_joins_slow_cubes_only(monkeypatch: pytest.MonkeyPatch, seconds: float, answered: int,
                                      due: bool) -> None:
    now = time.monotonic()
    monkeypatch.setattr(distributed, "WHOLE_AFTER", 30.0)
    assert distributed.whole_due(now - seconds, answered, 100) is due


def test_without_two_workers_there_is_no_whole_task() -> None:
    level = load_level(LEVELS / "tri-24b4c-s104.json")
    with LocalPool(1) as pool:
        run = solve_cubes(Request(level, Free(), Budget.start(120)), pool, parent_pivot=False, whole=True)
    assert run.result.optimum == known_optima()["tri-24b4c-s104"]["optimum"]
    assert all(a.key != WHOLE for h in run.horizons for a in h.answers)


def test_the_cube_summary_names_the_whole_answer() -> None:
    from kamicp.cli.distributed import counts_text
    from kamicp.prover.cube_task import CubeAnswer

    cubes = [CubeAnswer("3=A", 9, CubeOutcome.REFUTED, EngineName.SEARCH)]
    whole = CubeAnswer(WHOLE, 9, CubeOutcome.REFUTED, EngineName.CPSAT, seconds=12.34)
    h = distributed.HorizonCubes(9, 1, 40, 40, (*cubes, whole), Outcome.INFEASIBLE)
    assert counts_text(h) == ("1 refuted of 40 (1 by search); "
                               "the whole horizon refuted by CP-SAT beside them (in 12.3 s)")
    assert h.to_dict()["whole"]["outcome"] == "refuted" and h.to_dict()["counts"] == {"search": 1}


@pytest.fixture(scope="module")
def threads_cluster():
    """A Dask LocalCluster in this process (so the tests' stand-ins reach its tasks): one worker of two threads (a
    cluster's threads, not its workers, are what CP-SAT beside the cubes needs two of)."""
    distributed_dask = pytest.importorskip("distributed")
    with distributed_dask.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       dashboard_address=None) as cluster, distributed_dask.Client(cluster) as client:
        yield client


def test_a_dask_stop_event_ends_the_whole_horizon_as_unknown(threads_cluster) -> None:  # noqa: ANN001
    from kamicp.runtime.cluster import new_stop, raise_stop

    level = load_level(HARD / "gen-tri-110b5c-mirror-proper-s705.json")  # horizon 11: CP-SAT needs many minutes
    name = new_stop()
    t0 = time.monotonic()
    fut = threads_cluster.submit(run_whole, level, task(11, name), pure=False)
    time.sleep(1.5)  # (the task under way: the event is raised while it runs)
    raise_stop(threads_cluster, name)
    answer = fut.result(timeout=60)
    assert answer.outcome == CubeOutcome.UNKNOWN and time.monotonic() - t0 < 60


def test_every_completed_gives_dask_futures_in_batches_and_empty_ones_meanwhile(threads_cluster) -> None:  # noqa: ANN001
    from kamicp.runtime.cluster import EveryCompleted

    quick, slow = threads_cluster.map(time.sleep, [0.0, 1.5], pure=False)
    done = EveryCompleted([quick, slow], timeout=30)
    batches = list(done.batches(every=0.3))
    assert [f for b in batches for f in b] == [quick, slow]
    assert [] in batches  # (while the slow one ran)
    late = threads_cluster.submit(time.sleep, 1.0, pure=False)
    with pytest.raises(TimeoutError):
        list(EveryCompleted([late], timeout=0.3).batches(every=0.1))
    late.result(timeout=30)


RELEASED = threading.Event()


def held_cube(level, cube_task):  # noqa: ANN001 - the cubes' task on threads of this process, held until released
    RELEASED.wait(15)
    return run_cube(level, cube_task)


@pytest.mark.slow  # (some 25 s: CP-SAT's refutation on one thread; the local pool's test above runs by default)
def test_on_dask_the_whole_task_answers_a_top_down_horizon_the_cubes_do_not(monkeypatch: pytest.MonkeyPatch,
                                                                           threads_cluster) -> None:  # noqa: ANN001
    level = load_level(LEVELS / "tri-32b5c-s106.json")  # bound 6, best plan 8 after `prepare`
    optimum = known_optima()["tri-32b5c-s106"]["optimum"]
    RELEASED.clear()
    monkeypatch.setattr(distributed, "run_cube", held_cube)  # (the workers are threads of this process)
    monkeypatch.setattr(distributed, "WHOLE_AFTER", 2.0)
    t0 = time.monotonic()
    try:
        run = solve_cubes(Request(level, Free(), Budget.start(300)), threads_cluster, parent_pivot=False, whole=True)
    finally:
        RELEASED.set()  # (the held cubes still running when the run ends are let go at once)
    assert time.monotonic() - t0 < 200
    assert run.result.status == Status.OPTIMAL and run.result.optimum == optimum and run.pool == "dask"
    verify(level, run.result.moves, max_moves=optimum)
    top = run.horizons[-1]
    assert top.outcome == Outcome.INFEASIBLE and top.horizon == optimum - 1
    assert top.whole is not None and top.whole.by == EngineName.CPSAT and top.whole.worker.startswith("inproc")
    assert len([a for a in top.answers if a.key != WHOLE]) < top.cubes
