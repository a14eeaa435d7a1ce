"""The play page end to end in headless Chromium (Debian's `chromium`, driven by Playwright for Python):
the real server on a free port, clicks on the stable hooks, answers checked against the library."""

from __future__ import annotations

import multiprocessing
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from typer.testing import CliRunner  # noqa: E402

from kamicp import load_level, solve  # noqa: E402
from kamicp.cli import app as cli  # noqa: E402
from kamicp.hint import hint, move_from_data  # noqa: E402
from kamicp.level import Level  # noqa: E402
from kamicp.play.server import bundled_levels, create_app  # noqa: E402
from kamicp.play.serving import bind, port_of, server_for, url_of  # noqa: E402
from tests.helpers import PUZZLES  # noqa: E402

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 30_000  # ms: generous, the machine may be loaded


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


def _serve(level: Level, time_limit: float = 20) -> Iterator[str]:
    """The real server (uvicorn, with the limits `kamicp play` uses) for `level` in a thread on a free port;
    stopped afterwards."""
    sock = bind(0)
    srv = server_for(create_app(level, time_limit=time_limit, library=bundled_levels(), port=port_of(sock)))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield url_of(sock)
    finally:
        srv.handle_exit(15, None)  # (as SIGTERM would: running solves end at once)
        thread.join(timeout=10)
        sock.close()


@pytest.fixture
def page_for(browser):
    """page_for(level file name) -> (page, level) on a fresh server and a fresh page."""
    servers, pages = [], []

    def open_level(name: str):
        level = load_level(PUZZLES / name)
        gen = _serve(level)
        url = next(gen)
        servers.append(gen)
        page = browser.new_page(viewport={"width": 800, "height": 900})
        pages.append(page)
        page.goto(url)
        page.wait_for_selector("#board [data-index]", timeout=WAIT)
        return page, level

    yield open_level
    for page in pages:
        page.close()
    for gen in servers:
        next(gen, None)


def cell_selector(level: Level, cell: int) -> str:
    label = level.labels[cell]
    if isinstance(label, tuple):
        return f'#board [data-cell="{label[0]},{label[1]}"]'
    return f'#board [data-node="{label}"]'


def click_move(page, level: Level, cell: int, color: str, moves_after: int) -> None:
    page.click(f'#palette [data-colour="{color}"]')
    page.click(cell_selector(level, cell))
    page.wait_for_function(f"document.querySelector('[data-testid=moves]').textContent === '{moves_after}'",
                           timeout=WAIT)


def status(page) -> str:
    return page.text_content('[data-testid="status"]')


def test_blog_level_optimal_solution_by_clicking(page_for):
    page, level = page_for("blog-18.json")
    assert page.text_content('[data-testid="par"]') == "5"
    assert page.locator("#board [data-node]").count() == level.size
    for name in level.color_keys:
        assert page.get_attribute(f'#palette [data-colour="{name}"]', "aria-label")
    best = solve(level, engine="search").moves
    for k, move in enumerate(best, start=1):
        assert status(page) == "playing"
        click_move(page, level, move.cell, move.color, k)
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'solved'", timeout=WAIT)
    page.wait_for_selector('[data-testid="message"]:not([data-checking])', timeout=WAIT)  # the optimum proven
    message = page.text_content('[data-testid="message"]')
    assert "Within par" in message and "Optimal" in message


def test_undo_and_restart(page_for):
    page, level = page_for("blog-18.json")
    first = cell_selector(level, 0)
    start_colour = page.get_attribute(first, "data-fill")
    other = next(k for k in level.color_keys if k != start_colour)
    click_move(page, level, 0, other, 1)
    assert page.get_attribute(first, "data-fill") == other
    page.click('[data-testid="undo"]')
    page.wait_for_function("document.querySelector('[data-testid=moves]').textContent === '0'", timeout=WAIT)
    assert page.get_attribute(first, "data-fill") == start_colour
    click_move(page, level, 0, other, 1)
    third = next(k for k in level.color_keys if k not in (start_colour, other))
    click_move(page, level, 0, third, 2)
    page.click('[data-testid="restart"]')
    page.wait_for_function("document.querySelector('[data-testid=moves]').textContent === '0'", timeout=WAIT)
    assert page.get_attribute(first, "data-fill") == start_colour
    assert status(page) == "playing"


def test_hint_after_a_wrong_move_keeps_the_optimum(page_for):
    page, level = page_for("blog-18.json")
    wrong = move_from_data(level, {"tap": "1", "color": "Red"})
    click_move(page, level, wrong.cell, wrong.color, 1)
    before = hint(level, [wrong], engine="search").remaining
    page.click('[data-testid="hint"]')
    page.wait_for_selector("#board .hinted", timeout=WAIT)
    assert "Hint" in page.text_content('[data-testid="message"]')
    node = page.get_attribute("#board .hinted", "data-node")
    colour = page.get_attribute('#palette [aria-pressed="true"]', "data-colour")  # the hint picks the colour
    page.click(f'#board [data-node="{node}"]')
    page.wait_for_function("document.querySelector('[data-testid=moves]').textContent === '2'", timeout=WAIT)
    hinted = move_from_data(level, {"tap": node, "color": colour})
    assert hint(level, [wrong, hinted], engine="search").remaining == before - 1


def test_solve_button_plays_to_solved_from_a_wrong_move(page_for):
    page, level = page_for("blog-18.json")
    click_move(page, level, level.index("1"), "Red", 1)
    page.click('[data-testid="solve"]')
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'solved'",
                           timeout=WAIT)
    assert page.text_content('[data-testid="moves"]') == str(1 + hint(level, [
        move_from_data(level, {"tap": "1", "color": "Red"})], engine="search").remaining)


def test_malformed_file_shows_the_cli_error(page_for, tmp_path):
    page, _ = page_for("blog-18.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"geometry": "triangle", "rows": ["AB", "B"]}')
    line = CliRunner().invoke(cli, ["info", str(bad)]).output.strip().replace(str(bad), "bad.json")
    page.set_input_files('[data-testid="open"]', str(bad))
    page.wait_for_selector('[data-testid="error"]:not([hidden])', timeout=WAIT)
    assert page.text_content('[data-testid="error"]') == line


@pytest.mark.parametrize(("name", "sides"), [("squ-quilt.json", 4), ("tri-harbour.json", 3)])
def test_grid_levels_render_and_accept_a_move(page_for, name, sides):
    page, level = page_for(name)
    assert page.locator("#board [data-cell]").count() == level.size
    points = page.get_attribute(cell_selector(level, 0), "points")
    assert len(points.split()) == sides
    other = next(k for k in level.color_keys if k != level.colors[0])
    click_move(page, level, 0, other, 1)
    assert page.get_attribute(cell_selector(level, 0), "data-fill") == other


def test_open_another_level(page_for):
    page, _ = page_for("blog-18.json")
    page.set_input_files('[data-testid="open"]', str(PUZZLES / "squ-quilt.json"))
    page.wait_for_selector('#board [data-cell="0,0"]', timeout=WAIT)
    assert page.text_content('[data-testid="par"]') == str(load_level(PUZZLES / "squ-quilt.json").par)


def test_a_first_win_says_it_is_checking_then_whether_it_was_optimal(page_for, monkeypatch):
    """On a level's first win the server proves the optimum; meanwhile the page says it is checking."""
    import kamicp.play.server as server

    page, level = page_for("blog-18.json")
    best = solve(level, engine="search").moves
    gate, real = multiprocessing.get_context("fork").Event(), server.solve  # (the solve runs in a forked process)

    def held(*args, **kwargs):  # the proof waits until the page has been seen checking
        assert gate.wait(WAIT / 1000)
        return real(*args, **kwargs)

    monkeypatch.setattr(server, "solve", held)
    for k, move in enumerate(best, start=1):
        click_move(page, level, move.cell, move.color, k)
    page.wait_for_selector('[data-testid="message"][data-checking]', timeout=WAIT)
    assert status(page) == "solved"
    message = page.text_content('[data-testid="message"]')
    assert f"Checking whether {len(best)} moves is optimal" in message and "Within par" in message
    assert page.is_disabled('[data-testid="hint"]')
    gate.set()
    page.wait_for_selector('[data-testid="message"]:not([data-checking])', timeout=WAIT)
    message = page.text_content('[data-testid="message"]')
    assert f"Optimal: {len(best)} moves is the proven minimum" in message and "Checking" not in message
