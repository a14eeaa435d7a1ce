"""Hostile input to the commands that came after the hardening (count, generate, hint, katamino,
--rules pivot, validate/report): every case ends in an answer or one `error:` line with a documented
exit code, quickly; names never reach the terminal as markup or control codes."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from rich.text import Text
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.cli.console import SafeConsole
from kamicp.cli.exits import EXIT_BAD_INPUT
from tests.helpers import PUZZLES

runner = CliRunner()
HUGE = "9" * 5000  # past Python's 4300-digit int() limit
DEEP = "[" * 100_000 + "]" * 100_000  # past the JSON decoder's recursion limit
NAME = "[/x]\x1b[31m[bold]N\u202e"  # markup, an ESC sequence and a bidirectional override
HARBOUR = PUZZLES / "tri-harbour.json"


def run(*args: object) -> object:
    start = time.monotonic()
    res = runner.invoke(app, [str(a) for a in args])
    assert time.monotonic() - start < 60
    assert "Traceback" not in res.output
    return res


def one_error_line(res: object, needle: str) -> None:
    assert res.exit_code == EXIT_BAD_INPUT, (res.exit_code, res.output)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], res.stderr
    assert len(lines[0]) < 400  # a 5000-character value is cut, not echoed


def clean(text: str) -> None:
    assert "\x1b" not in text and "\u202e" not in text, repr(text)


# --- JSON read by katamino, hint and the store: huge integers and deep nesting ----------------------------
@pytest.mark.parametrize(("text", "needle"), [
    ('{"rows": HUGE, "cols": 6, "pieces": "LPUVYN"}'.replace("HUGE", HUGE), "field 'rows'"),
    ('{"rows": 5, "cols": 6, "pieces": "LPUVYN", "blocked": [[0, HUGE]]}'.replace("HUGE", HUGE), "field 'blocked'"),
    (DEEP, "nested too deeply"),
])
def test_katamino_file_with_huge_numbers_or_deep_nesting(tmp_path, text, needle):
    path = tmp_path / "k.json"
    path.write_text(text)
    one_error_line(run("katamino", path), needle)


@pytest.mark.parametrize(("moves", "needle"), [
    (f"{HUGE},1:A", "a tap is 'row,col'"),
    (f'[{{"tap": [0, {HUGE}], "color": "A"}}]', "5000-digit"),
    ("[" * 100_000, "nested too deeply"),
    ('[{"tap": [true, 0], "color": "A"}]', "a tap is [row, col]"),
    (f'[{{"tap": [0, 0], "color": "{"x" * 5000}"}}]', "known-colour"),
])
def test_hint_moves_with_huge_numbers_deep_nesting_and_bools(moves, needle):
    one_error_line(run("hint", HARBOUR, "--moves", moves), needle)


@pytest.mark.parametrize("pivot", [f"{HUGE},1", "\u00b2,1"])
def test_pivot_with_huge_or_non_ascii_digits(pivot):
    one_error_line(run("solve", HARBOUR, "--rules", "pivot", "--pivot", pivot), "--pivot")


def test_katamino_board_with_huge_digits():
    one_error_line(run("katamino", "--board", f"{HUGE}x5", "--pieces", "L"), "--board")


def test_store_row_nested_too_deeply(tmp_path):
    store = tmp_path / "pack.sqlite"
    assert run("validate", PUZZLES / "blog-18.json", "--store", store, "--engine", "search").exit_code == 0
    with sqlite3.connect(store) as db:
        db.execute("UPDATE rows SET data = ?", (DEEP,))
    one_error_line(run("report", store), "nested too deeply")


# --- options that would allocate without bound --------------------------------------------------------
@pytest.mark.parametrize(("args", "needle"), [
    (["--count", str(10**20)], "--count"),
    (["--rows", "100000", "--cols", "100000"], "KAMICP_MAX_CELLS"),
])
def test_generate_refuses_sizes_over_the_limits(tmp_path, args, needle):
    res = run("generate", "--geometry", "square", "--colours", "3", "--par", "3", "-o", tmp_path / "out",
              *args)
    one_error_line(res, needle)
    assert not list(tmp_path.iterdir()) or not list((tmp_path / "out").iterdir())


# --- names with markup and control characters ---------------------------------------------------------
@pytest.fixture
def hostile_levels(tmp_path) -> list[Path]:
    grid = {"name": NAME, "geometry": "square", "rows": ["AB", "BA"], "palette": {"A": "red", "B": "#00f"},
            "par": 2}
    graph = {"name": NAME, "geometry": "graph", "nodes": {"[/a]\x1b[2J": "[/red]\x1b[31m", "b": "Blue",
                                                            "c": "[/red]\x1b[31m", "d": "Blue"},
             "edges": [["[/a]\x1b[2J", "b"], ["b", "c"], ["c", "d"]], "par": 2}
    paths = [tmp_path / "grid.json", tmp_path / "graph.json", tmp_path / "[x]\x1b[31m.json"]
    paths[0].write_text(json.dumps(grid))
    paths[1].write_text(json.dumps(graph))
    shutil.copy(paths[0], paths[2])
    return paths


@pytest.mark.parametrize("command", [
    ["count"], ["hint"], ["solve", "--rules", "pivot"], ["prove", "--rules", "pivot", "--under", "2"],
    ["validate", "--engine", "search"]])
def test_new_commands_print_hostile_names_as_written(hostile_levels, command):
    for path in hostile_levels:
        res = run(command[0], path, *command[1:])
        assert res.exit_code == 0, (path, res.output)
        clean(res.output)
        assert "[/x]" in res.output and "\\x1b" in res.output  # the name, its ESC shown as an escape
        if path.name.startswith("grid") and command[0] != "validate":  # (validate's table cuts names)
            assert "[/x]" in res.output and "[bold]N" in res.output  # markup printed, not interpreted


def test_graph_pivot_named_with_markup(hostile_levels):
    res = run("solve", hostile_levels[1], "--rules", "pivot", "--pivot", "[/a]\x1b[2J")
    assert res.exit_code == 0, res.output
    clean(res.output)
    assert "[/a]\\x1b[2J" in res.output


def test_katamino_name_with_markup_and_escapes(tmp_path):
    path = tmp_path / "k.json"
    path.write_text(json.dumps({"rows": 5, "cols": 6, "pieces": "LPUVYN", "name": NAME}))
    res = run("katamino", path)
    assert res.exit_code == 0, res.output
    clean(res.output)
    assert res.output.startswith("[/x]\\x1b[31m[bold]N\\u202e: 5 x 6")


def test_katamino_book_names_with_markup_and_escapes(tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"name": NAME, "challenges": [{"name": NAME, "pieces": "NPU", "start": 3}]}))
    res = run("katamino", path, "--pictures", tmp_path / "pics")
    assert res.exit_code == 0, res.output
    clean(res.output)
    assert "[/x]\\x1b[31m[bold]N\\u202e" in res.output
    assert sorted(p.name for p in (tmp_path / "pics").iterdir()) == ["01-x---31m-bold-N.png", "01-x---31m-bold-N.svg"]


def test_safe_console_escapes_every_text_it_writes():
    """The consoles escape control characters however the text arrives (markup off, a Text, a table
    cell), keep newlines, and still write their own styles."""
    buffer = io.StringIO()
    console = SafeConsole(file=buffer, force_terminal=True, color_system="standard", width=200)
    console.print("a\x1bb\tc\nd", markup=False)
    console.print(Text("e\x1bf\u202eg", style="red"))
    written = buffer.getvalue()
    assert "a\\x1bb" in written and "\nd" in written and "e\\x1bf\\u202eg" in written
    assert "\x1b[31m" in written  # the console's own colour codes pass
    assert "\x1bb" not in written and "\x1bf" not in written and "\u202e" not in written
