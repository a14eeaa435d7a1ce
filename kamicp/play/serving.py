"""Serving the play app: uvicorn on a socket bound to 127.0.0.1, with the limits of a local web service.

uvicorn's own options bound what it can: at most LIMIT_CONCURRENCY connections and requests at once (more
are answered 503), idle keep-alive connections closed after KEEP_ALIVE seconds, headers at most
MAX_HEADER_BYTES (h11), at most GRACEFUL seconds of waiting for open requests on shutdown. uvicorn has no
deadline for a request's headers, so a connection that never completes them would stay open for ever
(and enough of them exhaust the file descriptors): the protocol below closes it after HEADER_SECONDS,
and closes at once a connection beyond MAX_CONNECTIONS. A signal kills every running solve at once
(kamicp.play.jobs) before uvicorn's own shutdown.
"""

from __future__ import annotations

import resource
import socket
from collections.abc import Callable

import h11
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from kamicp.errors import UsageError

HEADER_SECONDS = 10.0
KEEP_ALIVE = 5
GRACEFUL = 2
MAX_HEADER_BYTES = 16 * 1024
BACKLOG = 16  # (asyncio accepts up to this many connections at once, before the cap below can close them)


def max_connections() -> int:
    """Connections served at once: 100, or fewer when the process may open few files (each connection
    is one; the rest are kept for the server's own files, pipes and solver processes)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 100 if soft == resource.RLIM_INFINITY else max(4, min(100, (soft - 32 - BACKLOG) // 2))


class Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the headers of each request and a connection cap."""

    header_timer = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > max_connections():
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # a request has begun, its headers are not complete yet
            self._arm()
        elif self.header_timer is not None:  # its headers are complete: the deadline is met
            self.header_timer.cancel()
            self.header_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self.header_timer is None:
            self.header_timer = self.loop.call_later(HEADER_SECONDS, self._headers_late)

    def _headers_late(self) -> None:
        self.header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def bind(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1 (`port` 0: a free port the system picks)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {e.strerror}") from None
    sock.listen(BACKLOG)
    return sock


def port_of(sock: socket.socket) -> int:
    return sock.getsockname()[1]


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}/"


def server_for(app: Starlette, on_ready: Callable[[str], None] | None = None, sock: socket.socket | None = None):
    """A uvicorn Server for `app` with the limits above (run it with .run(sockets=[sock]))."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            if on_ready is not None and self.started and sock is not None:
                on_ready(url_of(sock))

        def handle_exit(self, sig, frame) -> None:
            app.state.server.close()  # every solve and level being opened ends now, replays at their next move
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", lifespan="off", http=Protocol, loop="asyncio",
                            limit_concurrency=max_connections(), timeout_keep_alive=KEEP_ALIVE,
                            timeout_graceful_shutdown=GRACEFUL, h11_max_incomplete_event_size=MAX_HEADER_BYTES,
                            backlog=BACKLOG)
    return Server(config)


def serve(app: Starlette, sock: socket.socket, on_ready: Callable[[str], None] | None = None) -> None:
    """Serve `app` on `sock` until Ctrl-C or SIGTERM (uvicorn handles the signal and shuts down)."""
    server_for(app, on_ready, sock).run(sockets=[sock])
