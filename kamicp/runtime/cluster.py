"""Connecting to a Dask cluster (the optional extra `kamicp[dask]`), for every command that uses one
(`solve --dask`, `validate --dask`): the scheduler address check, the bounded "is it a scheduler?" probe, a
LocalCluster for 'local', Dask's own logs silenced, and telling a lost scheduler from a failed task.
Dask is imported only inside the functions that need it.

A LocalCluster's worker processes never see the terminal's Ctrl-C: they are in kamicp's process group,
so a SIGINT from the terminal would reach each of them (and each would print a KeyboardInterrupt
traceback). The cluster is started from a thread that blocks SIGINT; its event loop thread and the
threads that start the worker processes inherit that mask, and so do the processes (a blocked signal
stays blocked across fork and exec): the parent alone hears Ctrl-C and closes the cluster, whose
nannies end the workers with SIGTERM."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from kamicp.errors import ClusterLost, UsageError
from kamicp.runtime.extras import require
from kamicp.runtime.text import cut

CONNECT_TIMEOUT = 5.0  # seconds for a scheduler to answer (at most: the time limit's rest when shorter)
LOCAL_DASHBOARD = "127.0.0.1:0"  # the local cluster's HTTP server (dashboard): a free port, this machine only
STOP_LOOK = 1.0  # seconds between a task's looks at its stop event (each look is a message to the scheduler)
READY_POLL = 0.05  # seconds between looks for finished futures while waiting for a batch (EveryCompleted)


def dashboard_link(client) -> str | None:
    """The address of the cluster's dashboard, when it has one (it needs bokeh installed)."""
    from importlib.util import find_spec

    return client.dashboard_link if find_spec("bokeh") is not None else None


@contextmanager
def quiet_logs() -> Iterator[None]:
    """Dask's own log lines off while kamicp uses a cluster: a lost scheduler or worker is reported by kamicp
    as one line (distributed's client would log tracebacks while it tries to reconnect). Restored when the
    block ends or fails; left off when it is interrupted (Ctrl-C while a LocalCluster starts: Dask closes
    that cluster at the process's exit, and its closing lines would follow kamicp's one line)."""
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")]
    loggers = [logging.getLogger(name) for name in {"distributed", "tornado", *names}]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.CRITICAL + 1)
    try:
        yield
    except Exception:
        _restore(loggers, levels)
        raise
    # (an interruption, not an Exception, leaves them off: a cluster caught half-started is closed by Dask's
    # atexit handler)
    _restore(loggers, levels)


def _restore(loggers: list[logging.Logger], levels: list[int]) -> None:
    for log, level in zip(loggers, levels, strict=True):
        log.setLevel(level)


def scheduler_lost(client: Any, error: BaseException) -> bool:
    """Did `error` (a future's) come from losing the scheduler rather than from the task or one worker?"""
    lost = getattr(error, "reason", "") == "scheduler-connection-lost"
    closed = isinstance(error, OSError)  # (distributed's CommClosedError: the connection reset)
    return lost or closed or client.status not in ("running", "newly-created")


def lost_scheduler(address: str) -> ClusterLost:
    return ClusterLost(f"the Dask scheduler at {cut(address, 80)} went away (killed, or the network to it lost)")


def no_workers(address: str) -> ClusterLost:
    return ClusterLost(f"the Dask scheduler at {cut(address, 80)} has no workers (none joined in time)")


def check_address(address: str) -> None:
    """'local', tcp://HOST:PORT or HOST:PORT; another scheme is a UsageError (one line) before any work."""
    scheme, sep, rest = address.partition("://")
    if address == "local" or (sep and scheme == "tcp" and rest) or (not sep and ":" in address):
        return
    if sep and scheme in ("tls", "wss", "ws", "ucx", "inproc"):
        raise UsageError(f"--dask {cut(address, 80)}: kamicp connects to a scheduler over tcp:// only (a "
                         f"{scheme}:// scheduler needs security or transport settings kamicp does not take); "
                         "give tcp://HOST:PORT, or 'local'")
    raise UsageError(f"--dask {cut(address, 80)}: not a scheduler address (tcp://HOST:PORT, HOST:PORT or 'local')")


def connect(address: str, jobs: int, timeout: float | None = None):
    """A client of the scheduler at `address`, or of a LocalCluster of `jobs` one-thread workers started here
    for 'local' (returned too, for the caller to close). A remote scheduler must answer within
    CONNECT_TIMEOUT, or `timeout` seconds when shorter (the time limit's rest)."""
    check_address(address)
    require("dask", "--dask")
    import dask
    from distributed import Client, LocalCluster

    if address == "local":

        def start() -> tuple[Any, Any]:
            with dask.config.set({"distributed.worker.daemon": False}):
                # its own logs are noise here (e.g. a heartbeat lost while closing); task failures come as
                # rows. The scheduler always serves HTTP (the dashboard, with bokeh installed): on a free port
                # of this machine only, so a second cluster (8787 is taken) is no warning and nothing
                # listens outside
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                       dashboard_address=LOCAL_DASHBOARD, silence_logs=logging.CRITICAL)
            try:
                return Client(cluster), cluster
            except BaseException:
                cluster.close()
                raise

        return _deaf_to_sigint(start)
    seconds = CONNECT_TIMEOUT if timeout is None else max(min(CONNECT_TIMEOUT, timeout), 0.5)
    _probe(address, seconds)
    try:
        return Client(address, timeout=f"{seconds}s"), None
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"--dask {cut(address, 80)}: cannot reach the scheduler ({e})") from None


def _deaf_to_sigint(start: Any) -> tuple[Any, Any]:
    """`start()` (client, cluster) run in a thread that blocks SIGINT (see the module's docstring), while
    this thread waits for it and hears the signals. Interrupted meanwhile, it lets the start finish (a
    LocalCluster half started cannot be closed: Dask's exit handler would fail on it, with tracebacks),
    closes what was started, and raises the interrupt."""
    from multiprocessing import resource_tracker

    # the tracker's first start (from the thread that spawns a worker) unblocks SIGINT and SIGTERM in that
    # thread after spawning itself: started here first, it is only checked there
    resource_tracker.ensure_running()
    made: dict[str, Any] = {}

    def run() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            made["value"] = start()
        except BaseException as e:  # noqa: BLE001 - raised again in the waiting thread
            made["error"] = e

    thread = threading.Thread(target=run, name="kamicp: starting a LocalCluster", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except KeyboardInterrupt:  # (SIGINT, or SIGTERM as the CLI's Terminated)
        _close_when_started(thread, made)
        raise
    if "error" in made:
        raise made["error"]
    return made["value"]


def _close_when_started(thread: threading.Thread, made: dict[str, Any]) -> None:
    """Wait for the start to end (more signals meanwhile change nothing), then close what it started."""
    while thread.is_alive():
        with contextlib.suppress(KeyboardInterrupt):
            thread.join(0.05)
    for part in made.get("value", ()):
        with contextlib.suppress(Exception, KeyboardInterrupt):
            part.close()


def _probe(address: str, seconds: float) -> None:
    """Ask the address who it is, within `seconds`: a Dask scheduler answers; anything else (a port that
    accepts and says nothing, a dashboard's HTTP port, a worker) is a UsageError, in bounded time
    (distributed's Client waits without end for a listener that never answers)."""
    import asyncio
    import socket

    from distributed.comm import connect as comm_connect
    from distributed.comm.addressing import parse_address, parse_host_port

    async def identity() -> object:
        comm = await asyncio.wait_for(comm_connect(address, timeout=seconds), seconds)
        try:
            await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), seconds)
            return await asyncio.wait_for(comm.read(), seconds)
        finally:
            comm.abort()

    where = f"--dask {cut(address, 80)}"
    try:
        host, port = parse_host_port(parse_address(address)[1])
        with socket.create_connection((host, port), timeout=seconds):  # a refused port at once (Dask retries)
            pass
        reply = asyncio.run(identity())
    except TimeoutError:
        raise UsageError(f"{where}: no Dask scheduler answered within {seconds:g} s (is it a scheduler's "
                         "port? the dashboard's is not)") from None
    except (OSError, ValueError, TypeError, OverflowError) as e:  # refused, unreachable, closed by HTTP ...
        raise UsageError(f"{where}: cannot reach the scheduler ({cut(str(e) or type(e).__name__, 200)})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        what = reply.get("type") if isinstance(reply, dict) else type(reply).__name__
        raise UsageError(f"{where}: not a Dask scheduler (it answered as {cut(str(what), 40)})")


def new_stop() -> str:
    """A stop event's name, unique to the caller: a Dask task polls it (`stop_look`) to end early once the
    client raises it (`raise_stop`). (A running Dask task cannot be cancelled: it ends itself.)"""
    return f"kamicp-stop-{uuid.uuid4().hex}"


def raise_stop(client: Any, name: str) -> None:
    """Tell the Dask task polling the stop event `name` to stop."""
    from distributed import Event

    Event(name, client=client).set()


class DaskStops:
    """Stop flags for the Dask tasks of `client`, with the local pool's `new_flag` and `raise_flag` (a flag is
    a stop event's name), so a run asks either the same way."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def new_flag(self) -> str:
        return new_stop()

    def raise_flag(self, flag: str) -> None:
        with contextlib.suppress(Exception):  # (a lost scheduler has no task left to stop)
            raise_stop(self.client, flag)


def stop_look(name: str) -> Callable[[], bool]:
    """In a Dask task: has the client raised the stop event `name`? Made in the task's own thread (the event
    takes the worker's client there); the check it returns may be called from any thread, often, and asks
    the scheduler at most once per STOP_LOOK seconds. A scheduler that does not answer reads as 'not raised'
    (the task then ends by its own deadline)."""
    from distributed import Event

    event = Event(name)
    state = {"at": -STOP_LOOK, "raised": False}

    def raised() -> bool:
        now = time.monotonic()
        if not state["raised"] and now - state["at"] >= STOP_LOOK:
            state["at"] = now
            with contextlib.suppress(Exception):  # (a lost scheduler is the run's to report, not this check's)
                state["raised"] = bool(event.is_set())
        return bool(state["raised"])

    return raised


class EveryCompleted:
    """Dask's `as_completed` read as the local pool's (kamicp.runtime.pool.Completed): `batches(every=)` also
    yields an empty batch after `every` seconds with none done, so that the caller can act meanwhile; past
    `timeout` seconds from now it raises TimeoutError."""

    def __init__(self, futures: Iterable[Any], timeout: float | None = None) -> None:
        from distributed import as_completed

        self.inner = as_completed(list(futures))
        self.until = None if timeout is None else time.monotonic() + timeout

    def add(self, future: Any) -> None:
        self.inner.add(future)

    def update(self, futures: Iterable[Any]) -> None:
        self.inner.update(futures)

    def batches(self, every: float | None = None) -> Iterator[list[Any]]:
        """The futures done since the last batch, until none is left in flight."""
        while not self.inner.is_empty():
            started = time.monotonic()
            while not self.inner.has_ready():
                now = time.monotonic()
                if self.until is not None and now >= self.until:
                    raise TimeoutError
                if every is not None and now - started >= every:
                    break
                time.sleep(READY_POLL)
            yield self.inner.next_batch(block=False)


__all__ = ["CONNECT_TIMEOUT", "LOCAL_DASHBOARD", "DaskStops", "EveryCompleted", "check_address", "connect",
           "dashboard_link", "lost_scheduler", "new_stop", "no_workers", "quiet_logs", "raise_stop", "scheduler_lost",
           "stop_look"]
