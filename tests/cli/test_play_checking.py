"""The play server's win in two steps: /api/move with "prove": false answers a first win at once
("checking"), /api/optimum proves the optimum; later wins and the default /api/move answer in one."""

from __future__ import annotations

import multiprocessing
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from kamicp import load_level, solve  # noqa: E402
from kamicp.play import server  # noqa: E402
from tests.helpers import PUZZLES  # noqa: E402


def test_a_win_is_answered_at_once_then_proven(monkeypatch):
    level = load_level(PUZZLES / "blog-18.json")
    best = [{"tap": level.tap_data(m.cell), "color": m.colour} for m in solve(level, engine="search").moves]
    calls = multiprocessing.get_context("fork").Value("i", 0)  # (the solves run in forked processes)
    real = server.solve

    def counted(*args, **kwargs):
        with calls.get_lock():
            calls.value += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(server, "solve", counted)
    c = TestClient(server.create_app(level), base_url="http://127.0.0.1")
    token = c.get("/api/level").json()["token"]
    first = c.post("/api/move", json={"token": token, "moves": best, "prove": False}).json()
    assert first["status"] == "solved" and first["checking"] is True and first["optimum"] is None and not calls.value
    assert c.post("/api/optimum", json={"token": token, "moves": best[:-1]}).status_code == 400  # not a win
    proven = c.post("/api/optimum", json={"token": token, "moves": best}).json()
    assert proven == {"moves": 5, "optimum": 5, "optimal": True} and calls.value == 1
    again = c.post("/api/move", json={"token": token, "moves": best, "prove": False}).json()
    assert again["checking"] is False and again["optimal"] is True and calls.value == 1  # proven once per level
    stale = c.post("/api/optimum", json={"token": "9", "moves": best})
    assert stale.status_code == 409
