"""The play server for tests: the real uvicorn (with the limits `kamicp play` uses) in a thread on a free
port of 127.0.0.1, and a TestClient with a Host the server accepts."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from starlette.applications import Starlette

from kamicp.board.level import Level
from kamicp.play.server import create_app
from kamicp.play.serving import bind, port_of, server_for, url_of

with warnings.catch_warnings():  # starlette warns that httpx will give way to httpx2 one day
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def client(level: Level, **kwargs) -> TestClient:
    """A TestClient of the app for `level` (its Host 127.0.0.1: the server refuses other names)."""
    return TestClient(create_app(level, **kwargs), base_url="http://127.0.0.1", raise_server_exceptions=False)


@contextmanager
def running(level: Level, **kwargs) -> Iterator[tuple[str, Starlette]]:
    """(url, app) of the real server for `level`; stopped (as by SIGTERM) afterwards."""
    sock = bind(0)
    app = create_app(level, port=port_of(sock), **kwargs)
    server = server_for(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < end:
        time.sleep(0.02)
    try:
        yield url_of(sock), app
    finally:
        server.handle_exit(15, None)  # (as SIGTERM would: running solves end at once)
        thread.join(timeout=15)
        sock.close()
