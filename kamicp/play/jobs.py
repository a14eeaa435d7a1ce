"""The play server's heavy work, bounded: solves and the opening of levels (reads of uploads, layouts) in
child processes that can be ended at any moment, and replays in worker threads that stop at their
deadline or when the server stops, each behind a `Gate`.

A solve runs in a forked child process, never in the server's own: when its client goes away, when its
deadline passes, or when the server stops, the child is killed (SIGKILL; the race's own workers die with
it through PR_SET_PDEATHSIG, see kamicp.prover.race), so an abandoned solve costs nothing once its client
has gone. A Gate lets `slots` requests work and `queue` more wait; any more are refused at once
(`Busy`: HTTP 503 with Retry-After), so a burst of requests cannot pile up behind the running ones.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing as mp
import os
import resource
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
from starlette.requests import Request

from kamicp.errors import KamiError
from kamicp.runtime.clock import Deadline
from kamicp.runtime.processes import die_with, kill

POLL = 0.05  # seconds between looks at a child's pipe and at the client's connection
RETRY_UNKNOWN = 60  # Retry-After when a holder's work has no limit (`play --time-limit inf`): nobody knows
MAX_RETRY = 3600  # a longer wait is no advice a page can show


class Busy(Exception):
    """The server cannot take this request now (HTTP 503, or 504 when a deadline passed)."""

    def __init__(self, message: str, retry_after: int, status: int = 503) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status


class Gate:
    """At most `slots` holders at once and `queue` waiting; `retry_after`: the seconds a refused client is
    told to wait (about one holder's work)."""

    def __init__(self, what: str, slots: int, queue: int, retry_after: float) -> None:
        self.what = what
        self.queue = queue
        self.retry_after = max(1, min(MAX_RETRY, round(retry_after))) if math.isfinite(retry_after) else RETRY_UNKNOWN
        self.closed = False
        self._slots = anyio.Semaphore(slots)
        self._waiting = 0

    @contextlib.asynccontextmanager
    async def enter(self) -> AsyncIterator[None]:
        if self.closed:
            raise Busy("the server is stopping", self.retry_after)
        if self._slots.value == 0 and self._waiting >= self.queue:
            raise Busy(f"busy: {self._waiting} {self.what} already waiting; try again shortly", self.retry_after)
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            if self.closed:
                raise Busy("the server is stopping", self.retry_after)
            yield
        finally:
            self._slots.release()


async def until_gone(request: Request) -> None:
    """Return when the client has closed its connection."""
    while not await request.is_disconnected():
        await anyio.sleep(POLL * 4)


async def unless_gone(request: Request, work: Callable[[], Awaitable[Any]]) -> Any:
    """`work()`, cancelled as soon as the client goes away (then None: nobody reads the answer); its
    exception, if any, is raised as it is (not in a group)."""
    result: list[Any] = [None]
    error: list[Exception | None] = [None]
    async with anyio.create_task_group() as group:

        async def watch() -> None:
            await until_gone(request)
            group.cancel_scope.cancel()

        async def run() -> None:
            try:
                result[0] = await work()
            except Exception as exc:  # noqa: BLE001 - raised below, outside the task group
                error[0] = exc
            finally:
                group.cancel_scope.cancel()

        group.start_soon(watch)
        group.start_soon(run)
    if error[0] is not None:
        raise error[0]
    return result[0]


def _child(conn, fn: Callable[..., Any], args: tuple, parent: int) -> None:
    """A solve's process: dies with the server (Linux), answers ("ok", value) or ("error", message)."""
    die_with(parent)
    # the server's sockets are not the solve's: a copy held here would keep a connection the server
    # closed (or whose client left) open until the solve ends
    keep = conn.fileno()
    os.closerange(3, keep)
    os.closerange(keep + 1, _max_fd())
    try:
        conn.send(("ok", fn(*args)))
    except KamiError as exc:
        conn.send(("error", str(exc)))
    except BaseException as exc:  # noqa: BLE001 - the server answers it as an internal error
        conn.send(("bug", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
        os._exit(0)  # (no atexit handlers or inherited threads of the server's)


def _max_fd() -> int:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return 65536 if soft == resource.RLIM_INFINITY else soft


class Processes:
    """Solves in child processes, behind a Gate; every child is killed when its caller stops waiting."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self._running: set[mp.process.BaseProcess] = set()

    async def run(self, fn: Callable[..., Any], *args: Any, deadline: float) -> Any:
        """fn(*args) in a child process; KamiError for its KamiError, Busy(504) after `deadline` seconds."""
        async with self.gate.enter():
            return await self._in_child(fn, args, deadline)

    async def _in_child(self, fn: Callable[..., Any], args: tuple, deadline: float) -> Any:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        # (not a daemon: the auto race starts processes of its own; the child dies with the server anyway)
        proc = ctx.Process(target=_child, args=(child, fn, args, os.getpid()))
        proc.start()
        child.close()
        self._running.add(proc)
        end = Deadline.slice(deadline)
        try:
            while not parent.poll():
                if self.gate.closed:
                    raise Busy("the server is stopping", self.gate.retry_after)
                if not proc.is_alive() and not parent.poll():
                    raise KamiError(f"the solver's process ended without an answer (exit code {proc.exitcode})")
                if end.expired():
                    raise Busy(f"no answer within {deadline:.0f} s", self.gate.retry_after, status=504)
                await anyio.sleep(POLL)
            try:
                kind, value = parent.recv()
            except EOFError:  # (killed: the server is stopping, or it died)
                if self.gate.closed:
                    raise Busy("the server is stopping", self.gate.retry_after) from None
                raise KamiError(f"the solver's process ended without an answer (exit code {proc.exitcode})"
                                ) from None
        finally:
            self._running.discard(proc)
            with anyio.CancelScope(shield=True):  # (reaping it may wait: never on the event loop)
                await anyio.to_thread.run_sync(kill, proc)
            parent.close()
        if kind != "ok":
            raise (KamiError if kind == "error" else RuntimeError)(value)
        return value

    def close(self) -> None:
        """Kill every running child at once (the server is stopping; safe in a signal handler)."""
        self.gate.closed = True
        for proc in list(self._running):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                os.kill(proc.pid, signal.SIGKILL)


class Threads:
    """Slow work of the server's own (replays) in worker threads, behind a Gate; `fn` itself watches the
    deadline it is given and `stopped()` (a thread cannot be killed: CPU-heavy work that cannot watch
    them belongs in `Processes`)."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self._limiter = anyio.CapacityLimiter(1_000)  # (the gate is the bound)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        async with self.gate.enter():
            return await self.call(fn, *args)

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) in a worker thread, for a caller already inside the gate."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)

    def stopped(self) -> bool:
        """Has the server begun to stop? (what a thread's work polls, to end at once)"""
        return self.gate.closed

    def close(self) -> None:
        self.gate.closed = True
