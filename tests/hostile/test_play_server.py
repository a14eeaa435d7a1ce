"""The play server as a local web service under hostile or careless clients: foreign Host names and
Origins, guessable tokens, content types, deep JSON, wrong methods, abandoned and piled-up solves, heavy
replays and uploads next to plain requests, half-open connections with few file descriptors, large graph
levels, and signals. Starlette's TestClient where one request is enough; the real uvicorn (in a thread,
or `kamicp play` in a process) where connections, timing or signals matter."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from kamicp import load_level  # noqa: E402
from kamicp.board.level import Level  # noqa: E402
from kamicp.formats import write_json  # noqa: E402
from kamicp.play import server  # noqa: E402
from tests.helpers import PUZZLES  # noqa: E402
from tests.helpers.play import client, running  # noqa: E402

BLOG = PUZZLES / "blog-18.json"
UPLOAD = {"Content-Type": "application/octet-stream"}


def blog() -> Level:
    return load_level(BLOG)


def body(token: str, moves: list | None = None) -> dict:
    return {"token": token, "moves": moves or []}


# --- who may drive the server ---------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["attacker.test", "evil.example:8000", "127.0.0.1.evil.example", "localhost.:80",
                                  ""])
def test_a_foreign_host_is_refused(host):
    c = client(blog())
    reply = c.get("/api/level", headers={"Host": host})
    assert reply.status_code == 421 and "error" in reply.json()
    assert c.get("/", headers={"Host": host}).status_code == 421


def test_the_real_server_checks_the_port_too():
    with running(blog()) as (url, _):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert httpx.get(url + "api/level", headers={"Host": host}, timeout=30).status_code == 200
        for host in (f"127.0.0.1:{port + 1}", f"evil.example:{port}", "localhost"):
            assert httpx.get(url + "api/level", headers={"Host": host}, timeout=30).status_code == 421


def test_a_foreign_origin_cannot_open_a_level_or_play():
    c = client(blog())
    token = c.get("/api/level").json()["token"]
    data = (PUZZLES / "squ-quilt.json").read_bytes()
    for origin in ("http://evil.example", "null", "https://127.0.0.1", "http://127.0.0.1.evil.example"):
        opened = c.post("/api/open?name=pwn.json", content=data, headers={**UPLOAD, "Origin": origin})
        assert opened.status_code == 403, origin
        assert c.post("/api/hint", json=body(token), headers={"Origin": origin}).status_code == 403
    assert c.post("/api/open?name=ok.json", content=data, headers={**UPLOAD, "Origin": "http://127.0.0.1"}
                  ).status_code == 200
    assert c.get("/api/level").json()["name"] == "blog-18"


def test_only_json_and_octet_stream_bodies_are_taken():
    """The content types a page on another site can send without asking first (a CORS preflight) are
    refused: text/plain, forms."""
    c = client(blog())
    token = c.get("/api/level").json()["token"]
    raw = json.dumps(body(token))
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        assert c.post("/api/move", content=raw, headers={"Content-Type": kind}).status_code == 415
        assert c.post("/api/open?name=x.json", content=b"{}", headers={"Content-Type": kind}).status_code == 415
    assert c.post("/api/move", content=raw, headers={"Content-Type": "application/json; charset=utf-8"}
                  ).status_code == 200


def test_tokens_are_unguessable_and_per_page():
    first, second = client(blog()), client(blog())
    tokens = {first.get("/api/level").json()["token"], second.get("/api/level").json()["token"]}
    data = (PUZZLES / "squ-quilt.json").read_bytes()
    tokens |= {first.post("/api/open?name=q.json", content=data, headers=UPLOAD).json()["token"] for _ in range(3)}
    assert len(tokens) == 5 and all(isinstance(t, str) and len(t) >= 20 for t in tokens)
    for guess in ("1", "2", "3", 1, 2, None, "", "é" * 24, ["x"], {"token": "x"}):
        assert first.post("/api/move", json=body(guess)).status_code == 409  # type: ignore[arg-type]
    surrogate = first.post("/api/move", content=b'{"token": "\\ud800", "moves": []}',
                           headers={"Content-Type": "application/json"})
    assert surrogate.status_code == 409


# --- bad requests: one JSON line, never a 500 -----------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/move", "/api/hint", "/api/solve", "/api/optimum", "/api/pick"])
def test_deep_json_is_a_clean_400(path):
    c = client(blog())
    reply = c.post(path, content=b"[" * 100_000, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400 and "nested too deeply" in reply.json()["error"]


@pytest.mark.parametrize("path", ["/api/move", "/api/hint", "/api/solve", "/api/optimum", "/api/pick", "/api/open"])
def test_get_on_a_post_endpoint_is_405(path):
    reply = client(blog()).get(path)
    assert reply.status_code == 405 and reply.json()["error"] and "POST" in reply.headers["allow"]


def test_an_unknown_api_path_is_a_json_404():
    reply = client(blog()).get("/api/nothing")
    assert reply.status_code == 404 and reply.json()["error"]


def test_a_client_leaving_mid_upload_logs_no_traceback(capfd):
    with running(blog()) as (url, _):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(f"POST /api/open?name=x.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         "Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n{\"a\"".encode())
            time.sleep(0.5)
        time.sleep(0.5)
        assert httpx.get(url + "api/level", timeout=30).status_code == 200
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "ClientDisconnect" not in captured.err


# --- abandoned and piled-up solves ----------------------------------------------------------------------
def slow_hint(level, moves, time_limit, engine):
    """A hint that takes long from the start position (a stand-in for a hard level) and is quick after a move."""
    if not moves:
        time.sleep(120)
    return REAL_HINT_JOB(level, moves, time_limit, engine)


REAL_HINT_JOB = server.hint_job


def _children() -> list[int]:
    """This process's living child processes (the solves' processes of a server in a thread)."""
    return [p.pid for p in multiprocessing.active_children()]


def test_an_abandoned_hint_is_killed_and_does_not_delay_the_next(monkeypatch):
    monkeypatch.setattr(server, "hint_job", slow_hint)
    with running(blog(), time_limit=8) as (url, _):
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        for _ in range(4):  # clients that give up after a second
            with pytest.raises(httpx.TimeoutException):
                httpx.post(url + "api/hint", json=body(token), timeout=1)
        end = time.monotonic() + 5
        while _children() and time.monotonic() < end:
            time.sleep(0.05)
        assert _children() == []  # every abandoned solve's process is gone
        start = time.monotonic()
        reply = httpx.post(url + "api/hint", json=body(token, [{"tap": "1", "color": "Red"}]), timeout=60)
        assert reply.status_code == 200 and reply.json()["remaining"] == 5
        assert time.monotonic() - start < 15  # (one hint's work, nothing queued before it)


def test_a_full_queue_answers_503_with_retry_after(monkeypatch):
    monkeypatch.setattr(server, "hint_job", slow_hint)
    with running(blog(), time_limit=8) as (url, _):
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        waiting = server.SOLVES_WAITING + 1  # the running one and the queue
        replies: list[httpx.Response | Exception] = []

        def ask() -> None:
            try:
                replies.append(httpx.post(url + "api/hint", json=body(token), timeout=60))
            except httpx.HTTPError as e:
                replies.append(e)

        threads = [threading.Thread(target=ask, daemon=True) for _ in range(waiting)]
        for t in threads:
            t.start()
            time.sleep(0.3)
        start = time.monotonic()
        refused = httpx.post(url + "api/hint", json=body(token), timeout=30)
        assert time.monotonic() - start < 5
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
        assert "busy" in refused.json()["error"]
        assert httpx.get(url + "api/level", timeout=5).status_code == 200  # plain requests still answered
    for t in threads:  # the server's stop ended them all at once
        t.join(timeout=10)
    assert len(replies) == waiting and _children() == []


def test_sigterm_stops_at_once_with_solves_running(tmp_path):
    """`kamicp play` with hints in flight on a hard level: SIGTERM ends it in seconds, no process left."""
    hard = tmp_path / "hard.json"
    rng = random.Random(5)
    write_json(Level.from_rows(["".join(rng.choice("ABCDEF") for _ in range(24)) for _ in range(24)], "square",
                               name="hard"), hard)
    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "play", str(hard),
                             "--no-browser", "--time-limit", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        for _ in range(3):
            threading.Thread(target=_post_quietly, args=(url + "api/hint", body(token)), daemon=True).start()
        time.sleep(3)
        assert _descendants(proc.pid)  # a solve is running
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0  # (as Ctrl-C: stopping is how play ends)
        assert time.monotonic() - start < 8
        log = proc.stderr.read()
        assert "Traceback" not in log and log.strip().endswith("stopped"), log
        assert_session_ends(proc.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _post_quietly(url: str, data: dict) -> None:
    with contextlib.suppress(httpx.HTTPError):
        httpx.post(url, json=data, timeout=90)


def _upload_quietly(url: str, data: bytes) -> None:
    with contextlib.suppress(httpx.HTTPError):
        httpx.post(url, content=data, headers=UPLOAD, timeout=90)


def _descendants(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def assert_session_ends(sid: int, wait: float = 5.0) -> None:
    """Every process of session `sid` ends within `wait` seconds (nothing left behind)."""
    end = time.monotonic() + wait
    while _session_processes(sid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _session_processes(sid)


def _session_processes(sid: int) -> list[int]:
    """The living processes of session `sid` (a zombie has ended: only its parent has yet to reap it)."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,sid=,stat="], capture_output=True, text=True).stdout
    return [int(p) for p, s, stat in (line.split() for line in out.splitlines())
            if int(s) == sid and not stat.startswith("Z")]


# --- heavy work off the event loop ----------------------------------------------------------------------
def flood_level(side: int) -> tuple[Level, list[dict]]:
    """A side x side board and 1000 legal moves, each on the growing corner region (the costliest replay):
    the colours cycle from one other than the corner's, so each differs from the region's."""
    rng = random.Random(1)
    level = Level.from_rows(["".join(rng.choice("ABCD") for _ in range(side)) for _ in range(side)], "square")
    cycle = "ABCD".replace(level.colours[0], "") + level.colours[0]
    return level, [{"tap": [0, 0], "color": cycle[k % 4]} for k in range(1000)]


def test_a_heavy_replay_has_a_deadline_and_does_not_freeze_the_server(monkeypatch):
    monkeypatch.setattr(server, "WORK_SECONDS", 1.0)
    level, moves = flood_level(200)
    with running(level) as (url, _):
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        heavy: list[httpx.Response] = []
        worker = threading.Thread(target=lambda: heavy.append(
            httpx.post(url + "api/move", json=body(token, moves), timeout=60)), daemon=True)
        worker.start()
        time.sleep(0.3)
        latencies = []
        while worker.is_alive():
            start = time.monotonic()
            assert httpx.get(url + "api/levels", timeout=10).status_code == 200
            latencies.append(time.monotonic() - start)
            time.sleep(0.1)
        worker.join()
        assert heavy[0].status_code == 503 and "took over 1 s" in heavy[0].json()["error"]
        assert latencies and max(latencies) < 1.0
        # the page's own way of playing (one more move each time) replays only the new move
        for k in range(1, 40):
            reply = httpx.post(url + "api/move", json=body(token, moves[:k]), timeout=10)
            assert reply.status_code == 200 and reply.json()["moves"] == k


def test_uploads_are_read_one_at_a_time_and_queued_ones_are_bounded(monkeypatch, tmp_path):
    real = server.load_upload
    log = tmp_path / "reads"

    def watched(name: str, data: bytes) -> Level:  # (in the upload's own process: it logs to a file)
        start = time.monotonic()
        time.sleep(1.0)
        with log.open("a") as f:
            f.write(f"{start} {time.monotonic()}\n")
        return real(name, data)

    monkeypatch.setattr(server, "load_upload", watched)
    data = (PUZZLES / "squ-quilt.json").read_bytes()
    with running(blog()) as (url, _):
        replies: list[int] = []

        def send() -> None:
            replies.append(httpx.post(url + "api/open?name=q.json", content=data, headers=UPLOAD, timeout=60
                                      ).status_code)

        threads = [threading.Thread(target=send) for _ in range(server.UPLOADS_WAITING + 3)]
        for t in threads:
            t.start()
            time.sleep(0.05)
        for t in threads:
            t.join(timeout=60)
    reads = sorted(tuple(map(float, line.split())) for line in log.read_text().splitlines())
    assert len(reads) == server.UPLOADS_WAITING + 1
    assert all(end <= start for (_, end), (start, _) in zip(reads, reads[1:], strict=False))  # one at a time
    assert sorted(replies) == [200] * (server.UPLOADS_WAITING + 1) + [503] * 2


def board_graph_file(tmp_path: Path, side: int) -> Path:
    from kamicp.board.regions import region_graph

    rng = random.Random(3)
    board = Level.from_rows(["".join(rng.choice("ABCD") for _ in range(side)) for _ in range(side)], "square")
    g = region_graph(board)
    name = {v: str(i) for i, v in enumerate(g.nodes)}
    level = Level.from_graph({name[v]: "ABCD"[i % 4] for i, v in enumerate(g.nodes)},
                             [(name[a], name[b]) for a, b in g.edges], name="big-graph")
    path = tmp_path / f"g{level.size}.json"
    write_json(level, path)
    return path


def test_a_large_graph_upload_opens_without_scipy_and_the_server_keeps_answering(monkeypatch, tmp_path):
    from kamicp.render.layout import graph_layout

    monkeypatch.setitem(sys.modules, "scipy", None)
    graph_layout.cache_clear()
    path = board_graph_file(tmp_path, 60)
    c = client(blog())
    home = c.get("/api/level").json()["token"]
    view = c.post(f"/api/open?name={path.name}", content=path.read_bytes(), headers=UPLOAD)
    assert view.status_code == 200, view.text
    assert sum(s["kind"] == "node" for s in view.json()["shapes"]) >= 500
    assert c.post("/api/move", json=body(view.json()["token"])).json()["status"] == "playing"
    assert c.post("/api/move", json=body(home)).status_code == 200
    assert c.get("/api/level").json()["name"] == "blog-18"


def test_a_level_that_fails_to_open_changes_nothing(monkeypatch):
    def broken(level, token):
        raise RuntimeError("drawing failed")

    c = client(blog())
    home = c.get("/api/level").json()
    monkeypatch.setattr(server, "level_view", broken)
    reply = c.post("/api/open?name=q.json", content=(PUZZLES / "squ-quilt.json").read_bytes(), headers=UPLOAD)
    assert reply.status_code == 500 and reply.json()["error"].startswith("internal error: RuntimeError")
    assert c.get("/api/level").json() == home
    assert c.post("/api/move", json=body(home["token"])).status_code == 200


# --- connections ----------------------------------------------------------------------------------------
def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


@pytest.mark.slow  # (about 25 s: the held connections are closed after the header deadline)
def test_half_open_connections_with_few_file_descriptors():
    """200 connections that never send a request, against a server allowed 64 files: it neither spins
    nor floods its log, and a real request is answered."""
    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "play", str(BLOG),
                             "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_few_files)
    socks: list[socket.socket] = []
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        cpu_before = _cpu_seconds(proc.pid)
        for _ in range(200):
            with contextlib.suppress(OSError):
                socks.append(socket.create_connection(("127.0.0.1", port), timeout=2))
        time.sleep(3)
        assert _cpu_seconds(proc.pid) - cpu_before < 1.5  # no busy loop
        start, answered = time.monotonic(), False
        while not answered and time.monotonic() - start < 30:
            with contextlib.suppress(httpx.HTTPError):
                answered = httpx.get(url + "api/level", timeout=5).status_code == 200
        assert answered
    finally:
        for s in socks:
            s.close()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert len(proc.stderr.read().splitlines()) < 50


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_request_whose_headers_never_end_is_closed(monkeypatch):
    from kamicp.play import serving

    monkeypatch.setattr(serving, "HEADER_SECONDS", 1.0)
    with running(blog()) as (url, _):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /api/level HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # (the blank line never comes)
            start = time.monotonic()
            assert sock.recv(100) == b""  # closed by the server
            assert time.monotonic() - start < 5


def test_a_hint_on_a_hard_level_runs_the_race_in_its_process():
    """A hint the first slice cannot prove goes on to the `auto` race, whose worker processes the
    solve's own process starts (it must not be a daemon): an honest 'unknown' with bounds, not a 500."""
    rng = random.Random(5)
    hard = Level.from_rows(["".join(rng.choice("ABCDEF") for _ in range(24)) for _ in range(24)], "square")
    c = client(hard, time_limit=3)
    reply = c.post("/api/hint", json=body(c.get("/api/level").json()["token"]))
    assert reply.status_code == 200, reply.text
    answer = reply.json()
    assert answer["status"] == "unknown" and answer["lower_bound"] >= 1
    assert answer["upper_bound"] is None or answer["lower_bound"] <= answer["upper_bound"]


def test_the_header_deadline_never_cuts_a_busy_keep_alive_connection(monkeypatch):
    from kamicp.play import serving

    monkeypatch.setattr(serving, "HEADER_SECONDS", 0.3)
    ports = set()
    with running(blog()) as (url, _), httpx.Client(timeout=10) as keep_alive:
        end = time.monotonic() + 2.0
        while time.monotonic() < end:  # a request every 0.1 s, for several deadlines
            reply = keep_alive.get(url + "api/levels")
            assert reply.status_code == 200
            ports.add(reply.extensions["network_stream"].get_extra_info("client_addr")[1])
            time.sleep(0.1)
    assert len(ports) == 1  # all on one connection: the server never closed it


# --- no time limit --------------------------------------------------------------------------------------
def test_play_with_an_infinite_time_limit_serves_hints_and_stops():
    """`--time-limit inf` means no limit, as in every command: the server starts, a hint is answered, a
    refusal's Retry-After is a finite number, and SIGTERM stops it (it crashed with OverflowError)."""
    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "play", str(BLOG),
                             "--no-browser", "--time-limit", "inf"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        line = proc.stdout.readline()
        assert " at " in line, proc.stderr.read()
        url = line.split(" at ")[1].split()[0]
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        reply = httpx.post(url + "api/hint", json=body(token), timeout=60)
        assert reply.status_code == 200 and reply.json()["remaining"] == 5, reply.text
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        log = proc.stderr.read()
        assert "Traceback" not in log and log.strip() == "stopped", log
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    gate = server.Gate("hints or solves", 1, 0, float("inf"))
    assert 1 <= gate.retry_after <= 3600


# --- slow senders ---------------------------------------------------------------------------------------
def _slow_upload(port: int) -> socket.socket:
    """A raw connection that starts an upload of 1 MB and sends only its first byte."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    sock.sendall(f"POST /api/open?name=slow.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 "Content-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n{".encode())
    return sock


def test_slow_upload_bodies_hold_no_slot_and_are_timed_out(monkeypatch):
    """Three local connections trickling upload bodies: another upload is still read and opened at once
    (a body is read before the upload's gate is taken), and each slow sender gets 408 at the body's
    deadline, its connection closed."""
    monkeypatch.setattr(server, "BODY_SECONDS", 2.0, raising=False)
    data = (PUZZLES / "squ-quilt.json").read_bytes()
    with running(blog()) as (url, _):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        slow = [_slow_upload(port) for _ in range(server.UPLOADS_WAITING + 1)]
        try:
            time.sleep(0.5)
            start = time.monotonic()
            reply = httpx.post(url + "api/open?name=q.json", content=data, headers=UPLOAD, timeout=20)
            assert reply.status_code == 200, reply.text
            assert time.monotonic() - start < 1.5
            for sock in slow:
                answer = b""
                while chunk := sock.recv(4096):
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 408"), answer
                assert b"within 2 s" in answer
            assert time.monotonic() - start < 8
        finally:
            for sock in slow:
                sock.close()


# --- stopping with work in flight -----------------------------------------------------------------------
SPINNING_SERVER = """
import time
from kamicp.play import server
real = server.level_view

def spinning(level, token):  # a stand-in for a drawing that takes minutes (a level of 10,000 colours)
    while level.name == "spin":
        sum(range(10_000))
    return real(level, token)

server.level_view = spinning
from kamicp.cli import app
app()
"""


def test_sigterm_stops_at_once_with_an_upload_being_drawn_and_a_replay_running(tmp_path):
    """`kamicp play` with CPU-heavy work of its own in flight (an opened level being drawn, a long replay):
    SIGTERM ends it in seconds with the one line `stopped`, no traceback, no process left, no CPU spent
    after (it printed tracebacks and kept drawing at 100 % CPU until SIGKILL)."""
    level, moves = flood_level(200)
    home = tmp_path / "big.json"
    write_json(level, home)
    home.write_text(json.dumps({**json.loads(home.read_text()), "name": "big"}))  # (a short first line)
    spin = (PUZZLES / "squ-quilt.json").read_text().replace('"squ-quilt"', '"spin"').encode()
    proc = subprocess.Popen([sys.executable, "-c", SPINNING_SERVER, "play", str(home), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        threading.Thread(target=_post_quietly, args=(url + "api/move", body(token, moves)), daemon=True).start()
        threading.Thread(target=_upload_quietly, args=(url + "api/open?name=spin.json", spin), daemon=True).start()
        time.sleep(2)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert time.monotonic() - start < 5
        log = proc.stderr.read()
        assert "Traceback" not in log and log.strip() == "stopped", log
        assert_session_ends(proc.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
