"""A local pool: the part of a Dask client that a cube proof uses (`scatter`, `map` with keys, `cancel`,
`nthreads`, `as_completed`), over a `concurrent.futures.ProcessPoolExecutor` of forked worker processes on
this machine, so that a long proof uses every core without the optional extra `kamicp[dask]`.

The workers never outlive kamicp (`processes.die_with`: SIGINT is the parent's, SIGTERM ends them, the kernel
kills them when the parent dies) and `close` stops them on every way out (SIGTERM, then SIGKILL). A worker
killed mid-proof breaks the executor: every task in flight then reads as cancelled (Dask's "lost with a
worker"), and the next `map` starts a fresh executor, so the caller sends those tasks again.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import SimpleNamespace
from typing import Any

from kamicp.runtime.processes import die_with, stop

STOP_WAIT = 1.0  # seconds a worker has to end after SIGTERM before SIGKILL


class Scattered:
    """Data 'sent to every worker' (Dask's scatter): kept here, and passed with each task."""

    status = "finished"

    def __init__(self, value: object) -> None:
        self.value = value


class PoolFuture:
    """One task's future, under its key. A task lost with a killed worker reads as cancelled."""

    def __init__(self, key: str, inner: Future) -> None:
        self.key, self.inner = key, inner

    def result(self, timeout: float | None = None) -> Any:
        try:
            return self.inner.result(timeout)
        except BrokenProcessPool:
            raise CancelledError(f"task {self.key} lost with a worker process") from None

    def cancel(self) -> bool:
        return self.inner.cancel()

    def done(self) -> bool:
        return self.inner.done()


class Completed:
    """Dask's `as_completed` for pool futures: `batches()` yields the futures done since the last batch, until
    none is pending; a TimeoutError once `timeout` seconds have passed. `add`/`update` add futures."""

    def __init__(self, futures: Iterable[PoolFuture], timeout: float | None = None) -> None:
        self.pending: set[PoolFuture] = set(futures)
        self.until = None if timeout is None else time.monotonic() + timeout

    def add(self, future: PoolFuture) -> None:
        self.pending.add(future)

    def update(self, futures: Iterable[PoolFuture]) -> None:
        self.pending.update(futures)

    def batches(self, every: float | None = None) -> Iterator[list[PoolFuture]]:
        """The futures done since the last batch; with `every`, an empty batch after `every` seconds with none
        (so that the caller can act meanwhile)."""
        while self.pending:
            left = None if self.until is None else self.until - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            timeout = every if left is None else left if every is None else min(left, every)
            done, _ = wait([f.inner for f in self.pending], timeout=timeout, return_when=FIRST_COMPLETED)
            if not done and timeout == left:
                raise TimeoutError
            batch = [f for f in self.pending if f.inner in done]
            self.pending.difference_update(batch)
            yield batch


FLAGS = 64  # stop flags of a pool (kept by the tasks that poll one; reused round the ring)
_flags: Any = None  # in a worker process: its pool's stop flags (shared memory inherited at the fork)


def _start_worker(parent: int, flags: Any) -> None:
    global _flags
    die_with(parent)
    _flags = flags


def flag_raised(flag: int) -> bool:
    """In a pool's worker: has the pool raised this stop flag (`LocalPool.raise_flag`)? (False elsewhere.)"""
    return _flags is not None and bool(_flags[flag])


class LocalPool:
    """`workers` forked worker processes, one task at a time each; a context manager (closed on the way out)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.status = "running"
        self.scheduler = SimpleNamespace(address=f"local pool of {workers}")
        self.executors: list[ProcessPoolExecutor] = []
        # (made before any worker is forked, so that every worker shares them)
        self.flags = multiprocessing.get_context("fork").Array("b", FLAGS, lock=False)
        self.next_flag = 0
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_start_worker, initargs=(os.getpid(), self.flags))
        self.executors.append(executor)
        return executor

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def nthreads(self) -> dict[str, int]:
        return {f"local-{i}": 1 for i in range(self.workers)}

    def scatter(self, data: list[Any], broadcast: bool = True, hash: bool = False) -> list[Scattered]:
        return [Scattered(x) for x in data]

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any], pure: bool = False,
            key: list[str] | None = None) -> list[PoolFuture]:
        calls = [[a.value if isinstance(a, Scattered) else a for a in args] for args in zip(*iterables, strict=True)]
        keys = key or [f"task-{i}" for i in range(len(calls))]
        return [PoolFuture(k, self._submit(fn, args)) for k, args in zip(keys, calls, strict=True)]

    def _submit(self, fn: Callable[..., Any], args: list[Any]) -> Future:
        try:
            return self.executor.submit(fn, *args)
        except BrokenProcessPool:  # a worker was killed: its tasks read as lost; a fresh pool takes the rest
            self._stop(self.executor)
            self.executor = self._start()
            return self.executor.submit(fn, *args)

    def new_flag(self) -> int:
        """A stop flag, lowered, for a task that polls it (`flag_raised` in the worker) to end early."""
        flag, self.next_flag = self.next_flag, (self.next_flag + 1) % FLAGS
        self.flags[flag] = 0
        return flag

    def raise_flag(self, flag: int) -> None:
        """Tell the task polling `flag` to stop (a running task cannot be cancelled: it ends itself)."""
        self.flags[flag] = 1

    def cancel(self, futures: Iterable[PoolFuture]) -> None:
        """Cancel the tasks not yet started (a running one ends with its own deadline, or at `close`)."""
        for f in futures:
            f.cancel()

    def as_completed(self, futures: Iterable[PoolFuture], timeout: float | None = None) -> Completed:
        return Completed(futures, timeout)

    def close(self) -> None:
        """Stop every worker process (SIGTERM, then SIGKILL), whatever they were doing."""
        self.status = "closed"
        for executor in self.executors:
            self._stop(executor)
        self.executors = []

    @staticmethod
    def _stop(executor: ProcessPoolExecutor) -> None:
        # (the executor's own processes: shutdown alone would wait for the running tasks to finish)
        procs = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        stop(procs, STOP_WAIT)
        _unblock(executor)


def _unblock(executor: ProcessPoolExecutor) -> None:
    """Once its workers are killed, let the executor's manager thread (which the interpreter joins at exit) end:
    a result a killed worker half sent would keep its read waiting while this process holds the pipe's writing
    end, and tasks queued for killed workers would keep the queue's feeder thread joined. (A session's CI run
    once hung at exit after an interrupted long proof; these are the two waits that can outlive the workers.)"""
    results, calls = getattr(executor, "_result_queue", None), getattr(executor, "_call_queue", None)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        with contextlib.suppress(OSError):
            writer.close()  # (the read then ends: the pool reads as broken, as when a worker dies)
    if calls is not None:
        calls.cancel_join_thread()
