"""The play server's API through Starlette's TestClient (no browser): the level's hooks, moves checked by
the rules engine, hints and solutions that replay, opening files with the CLI's error lines."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette warns that httpx will give way to httpx2 one day
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from kamicp import load_level, verify  # noqa: E402
from kamicp.cli import app as cli  # noqa: E402
from kamicp.designer.hint import move_from_data  # noqa: E402
from kamicp.play import server  # noqa: E402
from tests.helpers import GAMES, PUZZLES  # noqa: E402


def client(name: str = "blog-18.json", **kwargs) -> TestClient:
    return TestClient(server.create_app(load_level(PUZZLES / name), **kwargs), base_url="http://127.0.0.1")


def token_of(c: TestClient) -> str:
    return c.get("/api/level").json()["token"]


def post(c: TestClient, path: str, moves: list, token: str | None = None):
    return c.post(path, json={"token": token_of(c) if token is None else token, "moves": moves})


def upload(c: TestClient, name: str, data: bytes):
    return c.post("/api/open", params={"name": name}, content=data,
                  headers={"Content-Type": "application/octet-stream"})


def test_page_and_level_view():
    c = client("tri-harbour.json")
    page = c.get("/")
    assert page.status_code == 200 and 'data-testid="status"' in page.text and "play.js" in page.text
    assert c.get("/play.js").status_code == 200 and c.get("/play.css").status_code == 200
    view = c.get("/api/level").json()
    level = load_level(PUZZLES / "tri-harbour.json")
    assert view["cells"] == [f"{r},{col}" for r, col in level.labels]
    assert view["colors"] == list(level.colours) and view["par"] == level.par
    assert [p["key"] for p in view["palette"]] == list(level.display_keys)  # (the file's palette order, issue 37)
    assert all(p["hex"].startswith("#") and p["name"] for p in view["palette"])
    cells = [s for s in view["shapes"] if s["kind"] == "cell"]
    assert sorted(s["cell"] for s in cells) == list(range(level.size))
    assert all(len(s["points"]) == 3 for s in cells)  # triangles, as Kami 2 draws them


def test_graph_level_view_has_nodes_and_edges():
    view = client().get("/api/level").json()
    kinds = [s["kind"] for s in view["shapes"]]
    assert kinds.count("node") == 18 and kinds.count("edge") == 32 and view["cells"][0] == "1"


def test_moves_are_checked_by_the_rules_engine():
    c = client()
    ok = post(c, "/api/move", [{"tap": "1", "color": "Red"}]).json()
    assert ok["moves"] == 1 and ok["status"] == "playing" and ok["colors"][0] == "Red"
    bad = post(c, "/api/move", [{"tap": "1", "color": "Purple"}])
    assert bad.status_code == 400 and "colour-changes" in bad.json()["error"]
    missing = post(c, "/api/move", [{"tap": "99", "color": "Red"}])
    assert missing.status_code == 400 and "cell-exists" in missing.json()["error"]
    stale = post(c, "/api/move", [], token="7")
    assert stale.status_code == 409
    assert c.post("/api/move", content=b"not json", headers={"Content-Type": "application/json"}).status_code == 400


def test_solution_wins_optimally_and_over_par_fails():
    c = client()
    level = load_level(PUZZLES / "blog-18.json")
    sol = post(c, "/api/solve", []).json()
    assert sol["status"] == "optimal" and sol["remaining"] == 5
    moves = [{"tap": m["tap"], "colour": m["colour"]} for m in sol["moves"]]
    verify(level, [move_from_data(level, m) for m in moves], max_moves=5)
    win = post(c, "/api/move", moves).json()
    assert win["status"] == "solved" and win["optimal"] is True and win["optimum"] == 5
    wasted = [{"tap": "1", "color": "Red"}, {"tap": "1", "color": "Purple"}] * 3
    assert post(c, "/api/move", wasted[:5]).json()["status"] == "failed"  # par used up, not solved


def test_hint_after_a_wrong_move_keeps_the_optimum():
    c = client()
    level = load_level(PUZZLES / "blog-18.json")
    played = [{"tap": "1", "color": "Red"}]
    h = post(c, "/api/hint", played).json()
    assert h["remaining"] == 5 and h["par_still_possible"] is False and h["region"]
    after = [*played, {"tap": h["move"]["tap"], "colour": h["move"]["colour"]}]
    assert post(c, "/api/hint", after).json()["remaining"] == 4
    rest = post(c, "/api/solve", after).json()
    moves = [move_from_data(level, m) for m in after + rest["moves"]]
    verify(level, moves, max_moves=6)


def test_open_a_bad_file_gives_the_cli_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"geometry": "triangle", "rows": ["AB", "B"]}')
    line = CliRunner().invoke(cli, ["info", str(bad)]).output.strip()
    assert line.startswith("error: ")
    c = client()
    reply = upload(c, "bad.json", bad.read_bytes())
    assert reply.status_code == 400
    assert "error: " + reply.json()["error"] == line.replace(str(bad), "bad.json")
    assert c.get("/api/level").json()["name"] == "blog-18"  # the old level stays
    assert upload(c, "x.doc", b"x").status_code == 400


def test_open_gives_this_page_a_level_and_bounds_the_upload(monkeypatch):
    """An opened level gets a token of its own: the server's level (and every other page's) stays."""
    c = client()
    home = token_of(c)
    data = (PUZZLES / "squ-quilt.json").read_bytes()
    view = upload(c, "../../squ-quilt.json", data).json()
    assert view["geometry"] == "square" and view["token"] != home
    assert post(c, "/api/move", [{"tap": "1", "color": "Red"}], token=home).json()["moves"] == 1  # still blog-18
    assert post(c, "/api/move", [], token=view["token"]).json()["status"] == "playing"
    assert c.get("/api/level").json()["name"] == "blog-18"  # a reload: the server's level
    monkeypatch.setattr(server, "MAX_UPLOAD", 100)
    big = upload(c, "big.json", b" " * 1000)
    assert big.status_code == 413 and "larger than" in big.json()["error"]


def test_play_cli_refuses_a_bad_level(tmp_path):
    res = CliRunner().invoke(cli, ["play", str(tmp_path / "missing.json"), "--no-browser"])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_request_body_is_bounded(monkeypatch):
    c = client()
    monkeypatch.setattr(server, "MAX_BODY", 64)
    reply = c.post("/api/move", json={"token": token_of(c), "moves": [{"tap": "1", "color": "Red"}] * 10})
    assert reply.status_code == 413


def test_play_command_serves_and_stops_on_ctrl_c():
    """The real command in a subprocess: it prints the URL, answers, and Ctrl-C ends it with exit code 0."""
    import signal
    import subprocess
    import sys

    import httpx

    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "play",
                             str(PUZZLES / "blog-18.json"), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = line.split(" at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        assert httpx.get(url + "api/level", timeout=30).json()["name"] == "blog-18"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        tail = proc.stderr.read()
        assert "stopped" in tail and "Traceback" not in tail
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_open_a_screenshot():
    """A picture of a Kami 2 board (drawn by our renderer) opens as that board, read by the screenshot
    reader as `kamicp import` reads it: the same cells, colours equal up to renaming."""
    from kamicp.board.rules import Board
    from kamicp.render.png import board_png

    level = load_level(PUZZLES / "tri-harbour.json")
    c = client()
    view = upload(c, "harbour.png", board_png(Board.start(level))).json()
    assert view["geometry"] == "triangle" and view["shape"] == [29, 10] and view["name"] == "harbour"
    assert view["cells"] == [f"{r},{col}" for r, col in level.labels]
    rename = dict(zip(level.colours, view["colors"], strict=True))
    assert [rename[k] for k in level.colours] == view["colors"] and len(set(rename.values())) == len(rename)


@pytest.mark.parametrize("name", ["a%00.json", "x" * 300 + ".json", "%ED%A0%80.json", "%1B%5B31m%5B%2Fx%5D.json"])
def test_open_with_a_hostile_file_name_is_a_400_not_a_crash(name):
    """A name with NUL, over the file system's 255 bytes, a lone surrogate or an ESC sequence: the
    level opens (under a cleaned name) or the answer is a one-line 400, never a 500."""
    c = TestClient(server.create_app(load_level(PUZZLES / "blog-18.json")), raise_server_exceptions=False,
                   base_url="http://localhost")
    reply = c.post(f"/api/open?name={name}", content=(PUZZLES / "squ-quilt.json").read_bytes(),
                   headers={"Content-Type": "application/octet-stream"})
    assert reply.status_code in (200, 400), reply.text
    if reply.status_code == 400:
        assert "\n" not in reply.json()["error"] and "\x1b" not in reply.json()["error"]


def test_open_a_kami1_xml_file():
    """The page has no --geometry: a Kami 1 .xml (squares) opens as `kamicp info` reads it."""
    path = GAMES / "squ-14b4c-s301.xml"
    reply = upload(client(), path.name, path.read_bytes())
    assert reply.status_code == 200, reply.text
    level = load_level(path)
    view = reply.json()
    assert view["geometry"] == "square" and view["shape"] == list(level.shape) and view["par"] == level.par
    assert view["colors"] == list(level.colours)


def test_a_text_grid_upload_is_read_as_triangles():
    view = upload(client(), "grid.txt", b"AB\nBA\nAA\n").json()
    assert view["geometry"] == "triangle" and view["shape"] == [3, 2]


def test_bundled_levels_are_listed_and_picked():
    library = tuple(sorted(PUZZLES.glob("*.json")))
    c = client(library=library)
    assert c.get("/api/levels").json()["levels"] == [p.name for p in library]
    home = token_of(c)
    view = c.post("/api/pick", json={"file": "squ-quilt.json"}).json()
    assert view["name"] == "squ-quilt" and view["token"] != home
    assert post(c, "/api/move", [], token=view["token"]).json()["status"] == "playing"
    for wanted in ("../pyproject.toml", "/etc/passwd", "nothing.json", None, ["squ-quilt.json"]):
        reply = c.post("/api/pick", json={"file": wanted})
        assert reply.status_code == 404 and reply.json()["error"]
    assert c.get("/api/level").json()["name"] == "blog-18"


def test_play_without_a_level_starts_on_a_bundled_one():
    """`kamicp play` alone: the first bundled level, and the page offers the others."""
    import subprocess
    import sys

    import httpx

    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "play", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("playing tri-dawn at http://127.0.0.1:"), line
        url = line.split(" at ")[1].split()[0]
        assert httpx.get(url + "api/levels", timeout=30).json()["levels"] == sorted(p.name for p in
                                                                                     PUZZLES.glob("*.json"))
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_built_package_carries_the_bundled_levels(tmp_path):
    """Outside a checkout `kamicp play` alone needs the levels in the package: setup.py's build_py copies
    puzzles/*.json into kamicp/play/levels, and bundled_levels() finds them there, not in a puzzles/
    folder (there is none beside the built package). Built from a copy, so the checkout is not written."""
    import os
    import shutil
    import subprocess
    import sys

    root, source, build = PUZZLES.parent, tmp_path / "source", tmp_path / "lib"
    shutil.copytree(root / "kamicp", source / "kamicp", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(PUZZLES, source / "puzzles")
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(root / name, source / name)
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
                          cwd=source, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    code = "from kamicp.play.server import bundled_levels; print('\\n'.join(map(str, bundled_levels())))"
    found = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                           timeout=60, env={**os.environ, "PYTHONPATH": str(build)})
    assert found.returncode == 0, found.stderr
    paths = found.stdout.split()
    assert [p.rsplit("/", 1)[1] for p in paths] == sorted(p.name for p in PUZZLES.glob("*.json"))
    assert all(p.startswith(str(build / "kamicp" / "play" / "levels")) for p in paths)
