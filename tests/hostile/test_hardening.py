"""Hostile input: every case ends in an answer or one `error:` line with a documented exit code, in
bounded time and memory; user text never reaches the terminal or a picture as markup or control codes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import xml.dom.minidom
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from PIL import Image
from rich.text import Text
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.cli import app
from kamicp.cli.console import shown
from kamicp.cli.exits import EXIT_INTERNAL
from kamicp.cli.options import SEED_MAX
from kamicp.errors import FormatError, UsageError
from kamicp.formats.common import parse_int, read_bytes
from kamicp.limits import MAX_DIGITS, Limits
from kamicp.render.png import fit_scale
from kamicp.render.safe import printable
from tests.helpers import LEVELS, PUZZLES
from tests.helpers.gamefiles import puz

runner = CliRunner()
HUGE = "9" * 5000  # past Python's 4300-digit int() limit
TINY_XML = ('<PuzzleData name="tiny" width="3" height="2" numColours="3" colours="123111" gold="2" silver="3" '
            'bronze="4"><Solution length="2"><Turn x="0" y="0" colour="2"/><Turn x="0" y="0" colour="3"/>'
            "</Solution></PuzzleData>")
SQUARE = {"name": "sq", "geometry": "square", "rows": ["AB", "BA"], "par": 2}


def run(*args: object, env: dict[str, str] | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env)


def assert_one_line_error(res, code: int = 2, *words: str) -> str:
    """Exit `code`, exactly one non-empty line on stderr, `error: ...`, no traceback."""
    assert res.exit_code == code, (res.exit_code, res.output)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def geometry_for(path: Path) -> list[str]:
    return ["--geometry", "square"] if path.suffix == ".txt" else []


# --- 1. integers past Python's digit limit -------------------------------------------------------
def _json(**fields: object) -> str:
    return json.dumps({**SQUARE, **fields})


HUGE_NUMBERS = [
    ("par.json", _json(par=0).replace('"par": 0', f'"par": {HUGE}'), "field 'par'"),
    ("neg.json", _json(par=0).replace('"par": 0', f'"par": -{HUGE}'), "field 'par'"),
    ("medals.json", _json().replace("}", f', "medals": {{"gold": {HUGE}}}}}'), "field 'medals'"),
    ("tap.json", _json().replace("}", f', "official": [{{"tap": [{HUGE}, 0], "color": "A"}}]}}'), "field 'official'"),
    ("edge.json", json.dumps({"geometry": "graph", "nodes": {"1": "a", "2": "b"}, "edges": [[1, 2]]})
     .replace("[1, 2]", f"[1, {HUGE}]"), "field 'edges'"),
    ("par.puz", puz(par=HUGE), "field 'par'"),
    ("w.puz", puz(W=HUGE), "field 'W'"),
    ("l.puz", puz(L=HUGE), "field 'L'"),
    ("low.puz", puz(lowX="-" + HUGE), "field 'lowX'"),
    ("sol.puz", puz(solution=HUGE + "B"), "field 'solution'"),
    ("width.xml", TINY_XML.replace('width="3"', f'width="{HUGE}"'), "attribute 'width'"),
    ("gold.xml", TINY_XML.replace('gold="2"', f'gold="{HUGE}"'), "attribute 'gold'"),
    ("turn.xml", TINY_XML.replace('x="0" y="0" colour="2"', f'x="{HUGE}" y="0" colour="2"'), "turn 1"),
]


@pytest.mark.parametrize(("name", "text", "where"), HUGE_NUMBERS, ids=[c[0] for c in HUGE_NUMBERS])
def test_huge_integers_are_a_field_error(tmp_path, name, text, where):
    path = write(tmp_path / name, text)
    with pytest.raises(FormatError) as e:
        load_level(path)
    assert where in str(e.value)
    assert_one_line_error(run("info", path), 2, str(path), where)


@given(st.text(max_size=40), st.integers(-10, 10), st.integers(-10, 10))
def test_parse_int_range_checks_or_refuses_any_text(text, low, span):
    try:
        value = parse_int(text, source="f", where="field 'x'", minimum=low, maximum=low + span)
    except FormatError as e:
        assert str(e).startswith("f: field 'x': ")
    else:
        assert low <= value <= low + span and int(text.strip()) == value


def test_parse_int_refuses_more_digits_than_the_limit():
    assert parse_int("9" * MAX_DIGITS, source="f", where="w", maximum=None) == int("9" * MAX_DIGITS)
    with pytest.raises(FormatError, match=f"{MAX_DIGITS + 1}-digit"):
        parse_int("9" * (MAX_DIGITS + 1), source="f", where="w", maximum=None)


# --- 2. nesting -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"geometry": "graph", "nodes": {"1": "a"}, "edges": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"a":' * 50_000 + "1" + "}" * 50_000,
], ids=["list", "field", "object"])
def test_deep_json_nesting_is_one_line(tmp_path, text):
    path = write(tmp_path / "deep.json", text)
    assert_one_line_error(run("info", path), 2, "nested too deeply")


def test_deep_xml_nesting_is_refused_or_read(tmp_path):
    path = write(tmp_path / "deep.xml", "<a>" * 50_000 + TINY_XML + "</a>" * 50_000)
    res = run("info", path)
    assert res.exit_code in (0, 2) and "Traceback" not in res.output


# --- 4. non-regular files ----------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("suffix", [".json", ".puz", ".xml", ".txt"])
def test_a_fifo_is_refused_without_waiting(tmp_path, suffix):
    fifo = tmp_path / f"level{suffix}"
    os.mkfifo(fifo)
    start = time.monotonic()
    line = assert_one_line_error(run("info", fifo, *geometry_for(fifo)), 2, "FIFO")
    assert time.monotonic() - start < 10
    assert str(fifo) in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_devices_and_links_to_them_are_refused(tmp_path):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    for path in (Path("/dev/zero"), link, Path("/dev/null")):
        assert_one_line_error(run("info", path, "--format", "json"), 2, "device")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_image_is_refused(tmp_path):
    from kamicp.formats.screenshot import open_image

    fifo = tmp_path / "shot.png"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match="FIFO"):
        open_image(fifo)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_convert_and_show_never_write_into_a_fifo(tmp_path):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    assert_one_line_error(run("convert", PUZZLES / "blog-18.json", "-o", fifo, "--force"), 2, "regular file")
    picture = tmp_path / "out.svg"
    os.mkfifo(picture)
    assert_one_line_error(run("show", PUZZLES / "blog-18.json", "--svg", picture, "--force"), 2, "regular file")


# --- 5. size limits ------------------------------------------------------------------------------
def test_a_file_over_the_byte_limit_is_refused_after_reading_only_the_limit(tmp_path):
    rows = ["AB" * 3500] * 7000  # the 7000 x 7000 board: 49 MB
    path = tmp_path / "big.json"
    with path.open("w") as f:
        f.write('{"geometry": "square", "rows": [')
        f.write(",".join(f'"{r}"' for r in rows))
        f.write("]}")
    start = time.monotonic()
    assert_one_line_error(run("info", path), 2, "limit", "KAMICP_MAX_BYTES")
    assert time.monotonic() - start < 20
    assert read_bytes(path, max_bytes=path.stat().st_size) == path.read_bytes()


def test_cell_limit_in_every_reader(tmp_path):
    side = 317  # 100,489 cells: over the default 100,000
    cases = [
        write(tmp_path / "grid.json", json.dumps({"geometry": "square", "rows": ["A" * side] * side})),
        write(tmp_path / "graph.json", json.dumps({"geometry": "graph", "nodes": {str(i): "a" for i in
                                                                                   range(side * side)}})),
        write(tmp_path / "grid.txt", ("A" * side + "\n") * side),
        write(tmp_path / "grid.xml", f'<PuzzleData width="{side}" height="{side}" colours="1"/>'),
        write(tmp_path / "grid.puz", puz(W="1", L=str(2 * side * side))),
    ]
    for path in cases:
        assert_one_line_error(run("info", path, *geometry_for(path)), 2, "over the limit", "KAMICP_MAX_CELLS")


def test_the_puz_shear_bomb_is_refused_before_the_grid_is_built(tmp_path):
    # 4 KB: 50000 rows of one square; laid out as the game does (rows are columns, each one step lower
    # than the last) they span a 50001 x 50000 lattice (2.5 G cells)
    path = write(tmp_path / "bomb.puz", puz(W="1", L="100000", tiles="1X99" * 1010 + "1" * 10, solution=""))
    start = time.monotonic()
    assert_one_line_error(run("info", path), 2, "50001 rows x 50000 columns", "over the limit")
    assert time.monotonic() - start < 20


def test_rle_expansion_stops_at_the_tile_count(tmp_path):
    path = write(tmp_path / "rle.puz", puz(W="1", L="2", tiles="1X99" * 100_000))
    assert_one_line_error(run("info", path), 2, "field 'tiles'", "more than 2 tiles")


def test_limits_can_be_raised_and_lowered_by_environment(tmp_path, monkeypatch):
    blog = PUZZLES / "blog-18.json"
    assert_one_line_error(run("info", blog, env={"KAMICP_MAX_CELLS": "10"}), 2, "18 nodes", "limit of 10")
    assert_one_line_error(run("info", blog, env={"KAMICP_MAX_BYTES": "100"}), 2, "limit of 100 bytes")
    assert run("info", blog, env={"KAMICP_MAX_CELLS": "18"}).exit_code == 0
    wide = write(tmp_path / "wide.txt", "AB" + "." * 59_998 + "\n" + "." * 59_999 + "A\n")  # 120,000 cells, 3 not holes
    assert_one_line_error(run("info", wide, "--geometry", "square"), 2, "120000 cells", "KAMICP_MAX_CELLS")
    assert run("info", wide, "--geometry", "square", env={"KAMICP_MAX_CELLS": "200000"}).exit_code == 0
    for bad in ("abc", "0", "-5", "1e6", "9" * 40):
        assert_one_line_error(run("info", blog, env={"KAMICP_MAX_CELLS": bad}), 2, "KAMICP_MAX_CELLS")
    monkeypatch.setenv("KAMICP_MAX_EDGES", "1_000")
    assert Limits.current().max_edges == 1000
    monkeypatch.setenv("KAMICP_MAX_EDGES", "x")
    with pytest.raises(UsageError, match="KAMICP_MAX_EDGES"):
        Limits.current()


@given(st.floats(1, 5000), st.floats(1, 5000), st.floats(0.1, 4), st.integers(1, 4), st.integers(1000, 10**7))
def test_png_scale_fits_the_pixel_limit(width, height, scale, supersample, max_pixels):
    s, k = fit_scale(width, height, scale, supersample, max_pixels)
    assert s <= scale and 1 <= k <= supersample
    assert width * height * s * s <= max_pixels * 1.000001 or s == scale and width * height * s * s <= max_pixels
    assert k == 1 or width * height * (s * k) ** 2 <= 3 * max_pixels * 1.000001


def test_show_png_of_a_large_board_is_drawn_within_the_pixel_limit(tmp_path):
    level = write(tmp_path / "b.json", json.dumps({"geometry": "square", "rows": ["AB" * 60] * 120}))
    png = tmp_path / "b.png"
    res = run("show", level, "--png", png, env={"KAMICP_MAX_PIXELS": "250000"})
    assert res.exit_code == 0, res.output
    w, h = Image.open(png).size
    assert w * h <= 250_000 and w > 100 and abs(w - h) <= 0.03 * w  # (a square board under its title band)


# --- 3. markup and control characters --------------------------------------------------------------
NASTY = "[/x] \x1b[31mRED\x1b]0;title\x07 \u202e [bold]b\x9b2J <&>"
SAFE_PARTS = ("[/x]", "\\x1b[31mRED", "[bold]b")


def nasty_level(tmp_path: Path) -> Path:
    data = {"name": NASTY, "geometry": "graph", "nodes": {"[/a]\x1b[2J": "[red]x\x1b", "b": "y"},
            "edges": [["[/a]\x1b[2J", "b"]], "medals": {"[/m]\x1b": 1},
            "official": [{"tap": "b", "color": "[red]x\x1b"}]}
    return write(tmp_path / "nasty.json", json.dumps(data))


def assert_no_control_characters(text: str) -> None:
    bad = [ch for ch in text if not ch.isprintable() and ch not in "\n"]
    assert not bad, [hex(ord(ch)) for ch in bad]


@pytest.mark.parametrize("args", [
    ["info"], ["info", "--json"], ["solve"], ["solve", "--json"], ["show"], ["show", "--solution"],
    ["prove", "--under", "1"], ["prove", "--under", "1", "--json"], ["convert", "-o", "{tmp}/out.json"]])
def test_markup_and_escapes_in_names_print_as_written(tmp_path, args):
    path = nasty_level(tmp_path)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    res = run(args[0], path, *args[1:])
    assert res.exit_code in (0, 1), res.output
    assert "Traceback" not in res.output
    assert_no_control_characters(res.output)
    if "--json" in args:
        data = json.loads(res.stdout)
        assert NASTY in json.dumps(data, ensure_ascii=False) or data.get("name", NASTY) == NASTY
    elif args[0] in ("info", "solve", "show", "prove"):
        for part in SAFE_PARTS:
            assert part in res.output, res.output


def test_markup_and_escapes_in_file_names(tmp_path):
    path = tmp_path / "[bold]\x1b[31m.json"
    path.write_text(json.dumps(SQUARE))
    res = run("info", path)
    assert res.exit_code == 0 and "[bold]\\x1b[31m.json" in res.output
    assert_no_control_characters(res.output)
    missing = tmp_path / "[bold]\x1b[2J.json"
    line = assert_one_line_error(run("solve", missing), 2, "[bold]\\x1b[2J.json")
    assert_no_control_characters(line)


def test_svg_of_a_nasty_level_is_well_formed_xml_and_the_png_is_drawn(tmp_path):
    path = nasty_level(tmp_path)
    svg, png = tmp_path / "n.svg", tmp_path / "n.png"
    res = run("show", path, "--solution", "--svg", svg, "--png", png)
    assert res.exit_code == 0, res.output
    doc = xml.dom.minidom.parse(str(svg))
    title = doc.getElementsByTagName("title")[0].firstChild.data
    assert "[/x] \\x1b[31mRED" in title
    Image.open(png).verify()


def test_control_characters_are_not_colour_keys(tmp_path):
    grid = write(tmp_path / "g.json", json.dumps({"geometry": "square", "rows": ["A\x1bB"]}))
    assert_one_line_error(run("info", grid), 2, "U+001B")
    text = write(tmp_path / "g.txt", "A\x1bB\n")
    assert_one_line_error(run("info", text, "--geometry", "square"), 2, "U+001B")


@given(st.text())
@example("\\[")  # a backslash before a '[' that starts no tag (rich's escape() left it, markup ate it)
@example("\\\\")  # backslashes before the closing tag
@example("a\\[b] \\\\[x")
def test_printable_and_shown_escape_everything(text):
    safe = printable(text)
    assert safe.isprintable()
    if text.isprintable():
        assert safe == text
    # as every caller uses it: inside markup (rich doubles a trailing backslash so it cannot escape the
    # tag that follows; alone, that doubling would show)
    assert Text.from_markup(f"[bold]{shown(text)}[/bold]").plain == safe


# --- 9. option errors, internal errors, exit codes ----------------------------------------------------
BAD_OPTIONS = [
    ["solve", "{blog}", "--seed", "abc"], ["solve", "{blog}", "--seed", str(SEED_MAX + 1)],
    ["solve", "{blog}", "--seed", "-1"], ["solve", "{blog}", "--engine", "cpsat", "--seed", "2147483648"],
    ["solve", "{blog}", "--engine", "search", "--seed", "2147483648"],
    ["prove", "{blog}", "--under", "3", "--seed", "99999999999999999999"],
    ["solve"], ["nope"], ["solve", "{blog}", "--bogus"], ["solve", "{blog}", "--engine", "magic\x1b[2J"],
    ["show", "{blog}", "--time-limit", "-1"], ["info"], ["solve", "{blog}", "--workers", "99999999999"],
    ["solve", "{blog}", "--time-limit", "nan"],
]


@pytest.mark.parametrize("args", BAD_OPTIONS, ids=[" ".join(a[:1] + a[2:]) for a in BAD_OPTIONS])
def test_option_errors_are_one_line_and_exit_2(args):
    res = run(*[a.replace("{blog}", str(PUZZLES / "blog-18.json")) for a in args])
    line = assert_one_line_error(res, 2)
    assert "╭" not in res.output and "Usage:" not in res.output
    assert_no_control_characters(line)


@pytest.mark.slow
def test_time_limit_holds_on_a_long_row(tmp_path):
    """Found by the slow CLI fuzz profile: a mutated text grid, one row of 801 cells in 4 colours."""
    path = write(tmp_path / "row.txt", "1X99" * 200 + "A\n")
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", "from kamicp.cli import main; main()", "solve", str(path),
                           "--geometry", "square", "--engine", "search", "--time-limit", "3"],
                          capture_output=True, text=True, timeout=40)
    assert proc.returncode in (0, 3), proc.stderr
    assert time.monotonic() - start < 3 + 15  # start-up on a loaded machine included


def test_seed_at_the_range_limit_is_accepted():
    res = run("solve", PUZZLES / "blog-18.json", "--engine", "cpsat", "--seed", str(SEED_MAX), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["status"] == "optimal"


def test_an_unexpected_exception_is_an_internal_error_exit_4(monkeypatch):
    import kamicp.cli.levels as levels

    def broken(level):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(levels, "summarize", broken)
    res = run("info", PUZZLES / "blog-18.json", env={"KAMICP_DEBUG": ""})
    line = assert_one_line_error(res, EXIT_INTERNAL, "internal error", "RuntimeError: boom second line",
                                 "KAMICP_DEBUG")
    assert res.exception is None or isinstance(res.exception, SystemExit)
    debug = run("info", PUZZLES / "blog-18.json", env={"KAMICP_DEBUG": "1"})
    assert debug.exit_code == EXIT_INTERNAL and "Traceback" in debug.stderr and line in debug.stderr


def test_help_still_works():
    res = run("--help")
    assert res.exit_code == 0 and "solve" in res.stdout
    assert run("solve", "--help").exit_code == 0


def _script() -> str | None:
    local = Path(sys.executable).with_name("kamicp")
    return str(local) if local.exists() else shutil.which("kamicp")


@pytest.mark.skipif(_script() is None, reason="the kamicp script is not installed")
def test_the_installed_script_gives_the_same_one_line_errors(tmp_path):
    script = _script()
    assert script is not None
    blog = str(PUZZLES / "blog-18.json")
    for args in (["solve", blog, "--seed", "2147483648"], ["solve"], ["info", str(tmp_path / "none.json")]):
        proc = subprocess.run([script, *args], capture_output=True, text=True, timeout=120)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    # an internal error through the script's own entry (Typer.__call__), not only through CliRunner
    code = ("import sys, kamicp.cli.levels as l; from kamicp.cli import app\n"
            "l.summarize = lambda level: 1 / 0\n"
            f"sys.argv = ['kamicp', 'info', {blog!r}]\napp()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != "KAMICP_DEBUG"})
    assert proc.returncode == EXIT_INTERNAL, proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "ZeroDivisionError" in proc.stderr


def test_a_huge_screenshot_is_read_reduced_in_bounded_memory(tmp_path):
    """A 6300 x 6300 PNG (just under the pixel limit) is decoded once and read at a bounded size: the
    import's peak memory stays far below what the full-size colour arrays took (2.8 GB)."""
    from tests.helpers.pictures import render

    board = render(load_level(LEVELS / "squ-32b5c-s304.json"))
    big = Image.new("RGB", (6300, 6300), (245, 245, 240))
    height = round(6000 * board.height / board.width)
    big.paste(board.resize((6000, height), Image.Resampling.NEAREST), (150, (6300 - height) // 2))
    path = tmp_path / "huge.png"
    big.save(path, compress_level=1)
    del big
    # VmHWM, not ru_maxrss: the child may be started by vfork, and Linux carries the parent's
    # high-water mark (the whole test session's) into the child's ru_maxrss at exec.
    code = ("import sys\nfrom kamicp.cli import app\n"
            f"sys.argv = ['kamicp', 'import', {str(path)!r}, '-o', {str(tmp_path / 'out.json')!r}]\n"
            "try:\n    app()\nfinally:\n"
            "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
            "    print(hwm[0].split()[1], file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "square, 10 x 16" in proc.stdout
    peak_mb = int(proc.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 700, f"peak {peak_mb:.0f} MB"


def test_a_node_id_with_a_newline_stays_on_the_error_line(tmp_path):
    """The slow fuzzer's find: a graph node named "\\n" without a colour broke the error message in two."""
    from kamicp.errors import FormatError
    from kamicp.formats import load_level

    path = tmp_path / "g.json"
    path.write_text(json.dumps({"geometry": "graph", "nodes": {"\n": None}, "edges": []}))
    with pytest.raises(FormatError) as info:
        load_level(path)
    assert "\n" not in str(info.value) and 'node "\\n": colour must be a non-empty string' in str(info.value)


def test_a_name_that_looks_like_an_emoji_code_prints_as_written(tmp_path):
    from typer.testing import CliRunner

    from kamicp.cli import app

    path = tmp_path / "emoji.json"
    path.write_text(json.dumps({"name": ":a:", "geometry": "square", "rows": ["AB", "BA"], "par": 2}))
    res = CliRunner().invoke(app, ["solve", str(path)])
    assert res.exit_code == 0 and res.stdout.startswith(":a:: "), res.stdout
