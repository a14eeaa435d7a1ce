"""The local pool (kamicp.runtime.pool): the part of a Dask client a cube proof uses, over forked worker
processes: results under their keys, cancel, a killed worker's tasks read as lost and the pool goes on,
and no worker process outlives `close`."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import CancelledError

import psutil
import pytest

from kamicp.runtime.pool import LocalPool


def square(x: int) -> int:
    return x * x


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def workers_of(pool: LocalPool) -> list[psutil.Process]:
    return [p for p in psutil.Process().children() if p.pid in {
        pid for e in pool.executors for pid in (e._processes or {})}]


def test_results_under_their_keys_as_they_complete() -> None:
    with LocalPool(2) as pool:
        [shared] = pool.scatter([3])
        futures = pool.map(pow, [shared] * 4, [0, 1, 2, 3], key=[f"k{i}" for i in range(4)])
        done = [f for batch in pool.as_completed(futures, timeout=30).batches() for f in batch]
        assert sorted(f.key for f in done) == ["k0", "k1", "k2", "k3"]
        assert {f.key: f.result() for f in done} == {"k0": 1, "k1": 3, "k2": 9, "k3": 27}
        assert len(pool.nthreads()) == 2 and shared.status == "finished"


def test_cancel_and_the_deadline_of_as_completed() -> None:
    with LocalPool(1) as pool:
        futures = pool.map(nap, [0.5] * 6)
        time.sleep(0.2)  # the first task runs; the others wait
        # (the executor hands a worker's next tasks to its call queue early: one running and two queued at
        # most can no longer be cancelled)
        pool.cancel(futures[3:])
        assert all(f.inner.cancelled() for f in futures[3:])
        with pytest.raises(TimeoutError):
            for _ in pool.as_completed(futures[:2], timeout=0.1).batches():
                pass


def test_a_killed_worker_loses_its_tasks_and_the_pool_goes_on() -> None:
    with LocalPool(2) as pool:
        running = pool.map(nap, [30.0, 30.0])
        deadline = time.monotonic() + 20
        while len(workers_of(pool)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(workers_of(pool)[0].pid, signal.SIGKILL)
        for fut in running:
            with pytest.raises(CancelledError):  # (the whole executor breaks: every task in flight is lost)
                fut.result(timeout=20)
        [again] = pool.map(square, [7])  # a fresh executor takes the tasks sent again
        assert again.result(timeout=20) == 49


def test_close_stops_every_worker_even_mid_task() -> None:
    pool = LocalPool(2)
    pool.map(nap, [60.0, 60.0, 60.0])
    deadline = time.monotonic() + 20
    while len(workers_of(pool)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    procs = workers_of(pool)
    assert len(procs) == 2
    start = time.monotonic()
    pool.close()
    _, alive = psutil.wait_procs(procs, timeout=5)
    assert not alive and time.monotonic() - start < 5  # (not the 60 s the tasks would take)
