"""The play page end to end in headless Chromium (Debian's `chromium`, driven by Playwright for Python):
the real server on a free port, clicks on the stable hooks, answers checked against the library."""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from typer.testing import CliRunner  # noqa: E402

from kamicp import load_level, solve  # noqa: E402
from kamicp.board.level import Level  # noqa: E402
from kamicp.cli import app as cli  # noqa: E402
from kamicp.designer.hint import hint, move_from_data  # noqa: E402
from kamicp.play.server import bundled_levels  # noqa: E402
from tests.helpers import GAMES, PUZZLES  # noqa: E402
from tests.helpers.play import running  # noqa: E402

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


@pytest.fixture
def page_for(browser):
    """page_for(level file name or Level, viewport=(w, h), time_limit=s) -> (page, level) on a fresh server
    and a fresh page; the page's `.url` is the server's and `new_page()` opens another tab on it."""
    servers, pages = contextlib.ExitStack(), []

    def open_level(name: str | Level, viewport: tuple[int, int] = (800, 900), time_limit: float = 20):
        level = name if isinstance(name, Level) else load_level(PUZZLES / name)
        url, _ = servers.enter_context(running(level, time_limit=time_limit, library=bundled_levels()))

        def new_page():
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            pages.append(page)
            page.goto(url)
            page.wait_for_selector("#board [data-index]", timeout=WAIT)
            return page

        page = new_page()
        page.new_tab = new_page
        return page, level

    yield open_level
    for page in pages:
        page.close()
    servers.close()


def cell_selector(level: Level, cell: int) -> str:
    label = level.labels[cell]
    if isinstance(label, tuple):
        return f'#board [data-cell="{label[0]},{label[1]}"]'
    return f'#board [data-node="{label}"]'


def click_move(page, level: Level, cell: int, colour: str, moves_after: int) -> None:
    page.click(f'#palette [data-colour="{colour}"]')
    page.click(cell_selector(level, cell))
    page.wait_for_function(f"document.querySelector('[data-testid=moves]').textContent === '{moves_after}'",
                           timeout=WAIT)


def status(page) -> str:
    return page.text_content('[data-testid="status"]')


def test_blog_level_optimal_solution_by_clicking(page_for):
    page, level = page_for("blog-18.json")
    assert page.text_content('[data-testid="par"]') == "5"
    assert page.locator("#board [data-node]").count() == level.size
    for name in level.colour_keys:
        assert page.get_attribute(f'#palette [data-colour="{name}"]', "aria-label")
    best = solve(level, engine="search").moves
    for k, move in enumerate(best, start=1):
        assert status(page) == "playing"
        click_move(page, level, move.cell, move.colour, k)
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'solved'", timeout=WAIT)
    page.wait_for_selector('[data-testid="message"]:not([data-checking])', timeout=WAIT)  # the optimum proven
    message = page.text_content('[data-testid="message"]')
    assert "Within par" in message and "Optimal" in message


def test_undo_and_restart(page_for):
    page, level = page_for("blog-18.json")
    first = cell_selector(level, 0)
    start_colour = page.get_attribute(first, "data-fill")
    other = next(k for k in level.colour_keys if k != start_colour)
    click_move(page, level, 0, other, 1)
    assert page.get_attribute(first, "data-fill") == other
    page.click('[data-testid="undo"]')
    page.wait_for_function("document.querySelector('[data-testid=moves]').textContent === '0'", timeout=WAIT)
    assert page.get_attribute(first, "data-fill") == start_colour
    click_move(page, level, 0, other, 1)
    third = next(k for k in level.colour_keys if k not in (start_colour, other))
    click_move(page, level, 0, third, 2)
    page.click('[data-testid="restart"]')
    page.wait_for_function("document.querySelector('[data-testid=moves]').textContent === '0'", timeout=WAIT)
    assert page.get_attribute(first, "data-fill") == start_colour
    assert status(page) == "playing"


def test_hint_after_a_wrong_move_keeps_the_optimum(page_for):
    page, level = page_for("blog-18.json")
    wrong = move_from_data(level, {"tap": "1", "color": "Red"})
    click_move(page, level, wrong.cell, wrong.colour, 1)
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
    other = next(k for k in level.colour_keys if k != level.colours[0])
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
        click_move(page, level, move.cell, move.colour, k)
    page.wait_for_selector('[data-testid="message"][data-checking]', timeout=WAIT)
    assert status(page) == "solved"
    message = page.text_content('[data-testid="message"]')
    assert f"Checking whether {len(best)} moves is optimal" in message and "Within par" in message
    assert page.is_disabled('[data-testid="hint"]')
    gate.set()
    page.wait_for_selector('[data-testid="message"]:not([data-checking])', timeout=WAIT)
    message = page.text_content('[data-testid="message"]')
    assert f"Optimal: {len(best)} moves is the proven minimum" in message and "Checking" not in message


# --- what a new player meets (issue 24) -----------------------------------------------------------------
def wait_moves(page, n: int) -> None:
    page.wait_for_function(f"document.querySelector('[data-testid=moves]').textContent === '{n}'", timeout=WAIT)


def test_a_kami1_xml_file_opens_from_the_page(page_for):
    page, _ = page_for("blog-18.json")
    xml = GAMES / "squ-14b4c-s301.xml"
    page.set_input_files('[data-testid="open"]', str(xml))
    page.wait_for_selector('#board [data-cell="0,0"]', timeout=WAIT)
    level = load_level(xml)
    assert page.locator("#board [data-cell]").count() == level.size
    assert page.is_hidden('[data-testid="error"]')
    assert page.text_content('[data-testid="par"]') == str(level.par)


def test_the_busy_text_does_not_outlive_a_failed_request(page_for):
    page, _ = page_for("blog-18.json")
    page.route("**/api/hint", lambda route: route.fulfill(
        status=503, headers={"Retry-After": "3"}, content_type="application/json",
        body='{"error": "busy: 3 hints or solves already waiting; try again shortly"}'))
    page.click('[data-testid="hint"]')
    page.wait_for_function("!document.querySelector('[data-testid=hint]').disabled", timeout=WAIT)
    message = page.text_content('[data-testid="message"]')
    assert "Thinking" not in message and "try again in 3 s" in message
    assert page.is_hidden('[data-testid="error"]')  # (one message, not the busy text and an error line)


def test_a_cell_colour_is_not_the_swatch_hook(page_for):
    page, level = page_for("squ-quilt.json")
    hooks = page.locator("[data-colour]")
    assert hooks.count() == len(level.colour_keys)
    assert all(hooks.nth(k).evaluate("e => e.matches('#palette .swatch')") for k in range(hooks.count()))
    for key in level.colour_keys:  # the documented hook finds the swatch, first and only
        assert page.get_attribute(f'[data-colour="{key}"]', "class") == "swatch"
    fills = page.eval_on_selector_all("#board [data-index]", "els => els.map(e => e.dataset.fill)")
    assert fills == [level.colours[i] for i in range(level.size)]


LONG_HINT = ("Hint: paint the highlighted region (12,3) Light sea green: at least 7 more moves (time ran out "
             "before a proof). Par is no longer possible. And one more sentence for a third line.")


@pytest.mark.parametrize("name", ["tri-dawn.json", "squ-quilt.json", "blog-18.json"])
def test_on_a_phone_the_buttons_are_on_screen_even_with_a_long_hint(page_for, name):
    page, _ = page_for(name, viewport=(390, 844))
    page.evaluate("text => { document.querySelector('[data-testid=message]').textContent = text; }", LONG_HINT)
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#message')).lineHeight)")
    assert page.locator('[data-testid="message"]').bounding_box()["height"] >= 3 * line - 1
    for hook in ("undo", "restart", "hint", "solve"):
        box = page.locator(f'[data-testid="{hook}"]').bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (hook, box)
    assert page.locator("#board").bounding_box()["height"] >= 300
    assert page.evaluate("document.documentElement.scrollHeight") <= 844


def cell_sizes(page) -> list[float]:
    return page.eval_on_selector_all("#board [data-index]", "els => els.map(e => { const b = "
                                     "e.getBoundingClientRect(); return Math.min(b.width, b.height); })")


@pytest.mark.parametrize("name", ["squ-quilt.json", "squ-14b4c-s301.xml"])
def test_a_kami1_board_fills_a_phone(page_for, name):
    """A 16 x 10 board on a portrait phone is drawn turned, so its cells are large; taps still work."""
    level = load_level(GAMES / name if name.endswith(".xml") else PUZZLES / name)
    page, _ = page_for(level, viewport=(390, 844))
    assert page.get_attribute("#board", "data-rotated") == "true"
    assert min(cell_sizes(page)) >= 30
    assert page.locator("#board").bounding_box()["width"] >= 340
    other = next(k for k in level.colour_keys if k != level.colours[0])
    click_move(page, level, 0, other, 1)
    assert page.get_attribute(cell_selector(level, 0), "data-fill") == other
    page.set_viewport_size({"width": 900, "height": 700})  # a landscape window: drawn as it is
    page.wait_for_selector('#board[data-rotated="false"]', timeout=WAIT)
    assert page.get_attribute(cell_selector(level, 0), "data-fill") == other


def test_the_page_says_how_to_play_and_has_keys(page_for):
    page, level = page_for("squ-quilt.json")
    assert "pick a colour below, then tap a region" in page.text_content('[data-testid="message"]')
    keys = page.text_content('[data-testid="keys"]')
    assert all(word in keys for word in ("1–9", "U undo", "R restart", "H hint", "S solve"))
    page.keyboard.press("2")
    assert page.get_attribute('#palette [aria-pressed="true"]', "data-colour") == level.display_keys[1]
    first = cell_selector(level, 0)
    target = next(k for k in range(len(level.display_keys)) if level.display_keys[k] != level.colours[0])
    page.keyboard.press(str(target + 1))
    page.click(first)
    wait_moves(page, 1)
    page.keyboard.press("u")
    wait_moves(page, 0)
    assert page.get_attribute(first, "data-fill") == level.colours[0]
    page.keyboard.press("h")
    page.wait_for_selector("#board .hinted", timeout=WAIT)


def test_opening_a_level_changes_only_this_tab_and_a_reload_returns(page_for):
    first, level = page_for("blog-18.json")
    second = first.new_tab()
    first.set_input_files('[data-testid="open"]', str(PUZZLES / "squ-quilt.json"))
    first.wait_for_selector('#board [data-cell="0,0"]', timeout=WAIT)
    assert second.text_content("#title") == "blog-18"
    click_move(second, level, level.index("1"), "Red", 1)  # the other tab plays on
    second.click('[data-testid="hint"]')
    second.wait_for_selector("#board .hinted", timeout=WAIT)
    assert second.is_hidden('[data-testid="error"]')
    first.reload()
    first.wait_for_selector("#board [data-node]", timeout=WAIT)
    assert first.text_content("#title") == "blog-18"


def test_solve_says_when_it_ends_over_par(page_for):
    page, level = page_for("blog-18.json")
    click_move(page, level, level.index("1"), "Red", 1)  # (the optimum from here is 5 more: 6 > par 5)
    page.click('[data-testid="solve"]')
    page.wait_for_function("document.querySelector('[data-testid=message]').textContent.includes('Playing')",
                           timeout=WAIT)
    assert "over par (5)" in page.text_content('[data-testid="message"]')
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'solved'", timeout=WAIT)
    page.wait_for_selector('[data-testid="message"]:not([data-checking])', timeout=WAIT)
    page.wait_for_function("document.querySelector('[data-testid=message]').textContent.includes('in all')",
                           timeout=WAIT)  # (the moves are the player's and the solver's, not a win of the player's)
    message = page.text_content('[data-testid="message"]')
    assert "Your 1 move and the solver's 5 moves are shown: 6 moves in all. Over par (5)." in message


@pytest.mark.parametrize("viewport", [(390, 844), (600, 700), (1280, 900)])
def test_no_seams_between_cells_of_one_colour(page_for, viewport):
    """A triangle board of one colour but a corner cell: inside it no line of pixels differs from that
    colour (a seam is a whole column or row of slightly lighter or darker pixels, where the anti-aliased
    edges of neighbouring cells meet)."""
    from PIL import Image

    level = Level.from_rows(["B" + "A" * 9] + ["A" * 10] * 28, "triangle", name="plain")
    page, _ = page_for(level, viewport=viewport)
    image = Image.open(io.BytesIO(page.locator("#board").screenshot())).convert("RGB")
    fill = page.get_attribute(cell_selector(level, level.size - 1), "fill")
    want = tuple(int(fill[k:k + 2], 16) for k in (1, 3, 5))
    board = page.locator("#board").bounding_box()
    left, top, right, bottom = page.eval_on_selector_all("#board [data-index]", """els => {
        const b = els.map((e) => e.getBoundingClientRect());
        return [Math.min(...b.map((r) => r.left)), Math.min(...b.map((r) => r.top)),
                Math.max(...b.map((r) => r.right)), Math.max(...b.map((r) => r.bottom))]; }""")
    width, height = right - left, bottom - top
    inside = image.crop((int(left - board["x"] + 0.25 * width), int(top - board["y"] + 0.2 * height),
                         int(right - board["x"] - 0.1 * width), int(bottom - board["y"] - 0.1 * height)))
    off = [[max(abs(a - b) for a, b in zip(inside.getpixel((x, y)), want, strict=True)) > 1
            for x in range(inside.width)] for y in range(inside.height)]
    assert max(sum(row) for row in off) <= 3  # no seam along a row
    assert max(sum(column) for column in zip(*off, strict=True)) <= 3  # nor along a column


def test_a_bundled_level_can_be_picked(page_for):
    page, _ = page_for("blog-18.json")
    options = page.eval_on_selector_all('[data-testid="picker"] option', "os => os.map(o => o.value)")
    assert options[0] == "" and sorted(options[1:]) == sorted(p.name for p in PUZZLES.glob("*.json"))
    page.select_option('[data-testid="picker"]', "squ-quilt.json")
    page.wait_for_selector('#board [data-cell="0,0"]', timeout=WAIT)
    assert page.text_content("#title") == "squ-quilt"
    assert page.text_content('[data-testid="par"]') == str(load_level(PUZZLES / "squ-quilt.json").par)


# --- one message, readable labels, the menu, the solver's moves, the icon, a phone held sideways (issue 37)
def _refused(page, action: str, status: int, error: str) -> None:
    """Press the `action` button (hint, solve) while the server answers it with `status` and `error`
    (Retry-After 20 s), and wait until the page shows the error and lets the button be pressed again."""
    page.route(f"**/api/{action}", lambda route: route.fulfill(
        status=status, headers={"Retry-After": "20"}, content_type="application/json",
        body=json.dumps({"error": error})))
    page.click(f'[data-testid="{action}"]')
    page.wait_for_selector('[data-testid="error"]:not([hidden])', timeout=WAIT)
    page.wait_for_function(f"!document.querySelector('[data-testid={action}]').disabled", timeout=WAIT)


def test_a_server_stopping_mid_hint_shows_one_message(page_for):
    """It showed "The server is busy: try again in 20 s." beside "error: the server is stopping"."""
    page, _ = page_for("blog-18.json")
    _refused(page, "hint", 503, "the server is stopping")
    assert page.text_content('[data-testid="message"]') == ""
    assert "the server is stopping" in page.text_content('[data-testid="error"]')


def test_an_answer_too_late_is_an_error_not_a_busy_server(page_for):
    page, _ = page_for("blog-18.json")
    _refused(page, "solve", 504, "no answer within 20 s")
    assert "busy" not in page.text_content('[data-testid="message"]')


def _rgb(css: str) -> tuple[int, ...]:
    if css.startswith("#"):
        return tuple(int(css[k:k + 2], 16) for k in (1, 3, 5))
    return tuple(int(float(v)) for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two colours."""
    def lum(c):
        v = [x / 255 for x in c]
        v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def label_contrasts(page) -> list[float]:
    pairs = page.eval_on_selector_all("#board .node-label", """els => els.map(e => [getComputedStyle(e).fill,
        document.querySelector(`#board .node[data-index="${e.dataset.labelFor}"]`).getAttribute("fill")])""")
    return [_contrast(_rgb(text), _rgb(node)) for text, node in pairs]


def test_graph_node_labels_are_readable_on_every_colour(page_for):
    """White labels on the white nodes of blog-18 were hard to read; a repainted node's label follows."""
    page, level = page_for("blog-18.json")
    assert len(label_contrasts(page)) == level.size
    assert min(label_contrasts(page)) >= 3.0
    white = next(i for i in range(level.size) if level.colours[i] == "White")
    click_move(page, level, white, "Purple", 1)
    wait_moves(page, 1)
    assert min(label_contrasts(page)) >= 3.0


def test_the_levels_menu_shows_the_current_level(page_for):
    page, _ = page_for("blog-18.json")
    page.wait_for_function("document.querySelector('[data-testid=picker]').value === 'blog-18.json'", timeout=WAIT)
    page.select_option('[data-testid="picker"]', "squ-quilt.json")
    page.wait_for_selector('#board [data-cell="0,0"]', timeout=WAIT)
    assert page.eval_on_selector('[data-testid="picker"]', "e => e.value") == "squ-quilt.json"
    page.set_input_files('[data-testid="open"]', str(GAMES / "squ-14b4c-s301.xml"))  # not a bundled level
    page.wait_for_function("document.querySelector('#title').textContent !== 'squ-quilt'", timeout=WAIT)
    assert page.eval_on_selector('[data-testid="picker"]', "e => e.value") == ""


def test_after_solve_the_message_says_the_solution_is_the_solvers(page_for):
    page, _ = page_for("blog-18.json")
    page.click('[data-testid="solve"]')
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'solved'", timeout=WAIT)
    page.wait_for_selector('[data-testid="message"]:not([data-checking])', timeout=WAIT)
    page.wait_for_function("!document.querySelector('[data-testid=message]').textContent.includes('Playing')",
                           timeout=WAIT)
    message = page.text_content('[data-testid="message"]')
    assert message.startswith("The solver's solution is shown: 5 moves.") and "Solved in" not in message


def test_the_page_has_an_icon_and_no_request_fails(page_for, browser):
    page, _ = page_for("blog-18.json")
    failed = []
    tab = browser.new_page()
    tab.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    tab.goto(page.url)
    tab.wait_for_selector("#board [data-index]", timeout=WAIT)
    tab.wait_for_timeout(300)
    tab.close()
    assert failed == []  # (the favicon was a 404)
    assert page.get_attribute('link[rel="icon"]', "href").startswith("data:image/svg+xml")


@pytest.mark.parametrize("name", ["tri-dawn.json", "squ-quilt.json", "blog-18.json"])
def test_a_phone_held_sideways_gives_the_board_the_space(page_for, name, tmp_path):
    """At 844 x 390 the Kami 2 board was about 90 px wide between the header and the controls."""
    page, level = page_for(name, viewport=(844, 390))
    page.screenshot(path=str(tmp_path / "landscape.png"))
    left, top, right, bottom = page.eval_on_selector_all("#board [data-index]", """els => {
        const b = els.map((e) => e.getBoundingClientRect());
        return [Math.min(...b.map((r) => r.left)), Math.min(...b.map((r) => r.top)),
                Math.max(...b.map((r) => r.right)), Math.max(...b.map((r) => r.bottom))]; }""")
    assert right - left >= 300 and bottom - top >= 250
    page.evaluate("text => { document.querySelector('[data-testid=message]').textContent = text; }", LONG_HINT)
    for hook in ("undo", "restart", "hint", "solve", "picker"):
        box = page.locator(f'[data-testid="{hook}"]').bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 390 and box["x"] + box["width"] <= 844, (hook, box)
    assert page.evaluate("document.documentElement.scrollHeight") <= 390
    other = next(k for k in level.colour_keys if k != level.colours[0])
    click_move(page, level, 0, other, 1)  # taps still land on the (turned) board
    wait_moves(page, 1)
