"""Fuzzing every reader and the CLI: random bytes, mutated valid files, huge numbers, deep nesting,
random JSON in every field. The only allowed outcomes: a level (or a command's answer), or a KamiError /
one `error:` line with exit 2, within a time bound.

Each property runs twice: a small derandomized profile in the default suite and a large random one
marked slow (`pytest -m slow tests/hostile/test_fuzz.py`).
"""

from __future__ import annotations

import json
import time
import xml.dom.minidom
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.board.level import Level
from kamicp.cli import app
from kamicp.designer.official import summarize
from kamicp.errors import KamiError
from kamicp.render.files import encode, picture_scene
from tests.helpers import PUZZLES

FAST = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=1000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SECONDS = 10.0  # per example, generous for a loaded 2-core machine; typical examples take milliseconds
SOLVE_CELLS = 300  # `solve` runs on mutated levels up to this size (larger ones get `info`): the time
# limit on large region graphs is tested in test_hardening (test_time_limit_holds_on_a_long_row)

TINY_PUZ = "01|Default|0|0|2|8|12201122|2||0|1B1C"
TINY_XML = ('<PuzzleData name="tiny" width="3" height="2" numColours="3" colours="123111" gold="2" silver="3" '
            'bronze="4">\n<Solution length="2"><Turn x="0" y="0" colour="2"/><Turn x="0" y="0" colour="3"/>'
            "</Solution></PuzzleData>\n")
SEEDS: list[tuple[str, bytes]] = [  # (suffix, a valid file)
    (".puz", TINY_PUZ.encode()),
    (".xml", TINY_XML.encode()),
    (".txt", b"AAB\nB.A\nCCA\n"),
    (".json", (PUZZLES / "blog-18.json").read_bytes()),
    (".json", (PUZZLES / "tri-dawn.json").read_bytes()),
]
TOKENS = [b"9" * 5000, b"-1", b"0", b"99999999999999999999", b"1e999", b"NaN", b"[" * 3000, b"{" * 3000,
          b"\x00", b"\x1b[31m", b"[/x]", b"\xff\xfe", b'"', b"<", b"&amp;", b"<!DOCTYPE x>", b"X99", b"z",
          b"|", b"\n", b"1X99" * 200, b"\xe2\x80\xae", b"]", b"}", b"true", b"null", b"{}", b"[]"]

runner = CliRunner()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def geometry_for(suffix: str) -> str | None:
    return "square" if suffix == ".txt" else None


def read_or_refuse(path: Path) -> Level | None:
    """load_level must return a level or raise a KamiError, quickly; a level must also survive what
    `info` and `show --svg` do with it."""
    start = time.monotonic()
    try:
        level = load_level(path, geometry=geometry_for(path.suffix))
    except KamiError as e:
        assert str(e) and "\n" not in str(e).strip(), repr(e)
        level = None
    else:
        summarize(level)
        if level.size <= 2000:
            xml.dom.minidom.parseString(encode(picture_scene(level), "svg"))
    assert time.monotonic() - start < SECONDS
    return level


# --- mutations -----------------------------------------------------------------------------------------
@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """A valid seed file with a few random edits: bytes replaced, inserted, deleted, duplicated, or an
    'interesting' token (huge number, nesting, control characters, markup) spliced in."""
    suffix, seed = draw(st.sampled_from(SEEDS))
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["token", "token", "byte", "insert", "delete", "duplicate"]))
        if op == "token":
            data[pos:pos] = draw(st.sampled_from(TOKENS))
        elif op == "byte" and pos < len(data):
            data[pos] = draw(st.integers(0, 255))
        elif op == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del data[pos:pos + draw(st.integers(1, 16))]
        elif op == "duplicate":
            end = min(len(data), pos + draw(st.integers(1, 64)))
            data[pos:pos] = data[pos:end] * draw(st.integers(1, 50))
    return suffix, bytes(data)


def _mutated_files(workdir: Path, case: tuple[str, bytes]) -> None:
    suffix, data = case
    path = workdir / f"mutated{suffix}"
    path.write_bytes(data)
    read_or_refuse(path)


def _random_bytes(workdir: Path, suffix: str, data: bytes) -> None:
    path = workdir / f"random{suffix}"
    path.write_bytes(data)
    read_or_refuse(path)


# --- random JSON in every field of a level -------------------------------------------------------------
HUGE = "<huge number>"  # replaced by a 5000-digit literal in the file (json.dumps cannot write one)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from([HUGE, -(10**30), "", "[/x]", "\x1b[2J", "AB", "#fff", "triangle", "graph"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=20,
)
GRID = {"name": "g", "geometry": "square", "rows": ["AB", "BA"], "par": 2, "palette": {"A": "#fff"},
        "medals": {"gold": 2}, "official": [{"tap": [0, 0], "color": "B"}]}
GRAPH = {"name": "n", "geometry": "graph", "nodes": {"1": "a", "2": "b"}, "edges": [[1, 2]], "par": 1,
         "official": [{"tap": "1", "color": "b"}]}


def mutated_json(data: Any, value: Any, nest: int) -> str:
    """`data` (holding `value`) as JSON, with the value wrapped `nest` deep (past the parser's recursion
    limit for the large ones) and HUGE written as a 5000-digit number."""
    text = json.dumps(data)
    if nest:
        text = text.replace(json.dumps(value), "[" * nest + json.dumps(value) + "]" * nest, 1)
    return text.replace(json.dumps(HUGE), "9" * 5000)


def _json_fields(workdir: Path, base: dict[str, Any], field: str, value: Any, nest: int) -> None:
    data = dict(base)
    data[field] = value
    path = workdir / "fields.json"
    path.write_text(mutated_json(data, value, nest))
    read_or_refuse(path)


# --- the CLI -----------------------------------------------------------------------------------------
def _cli_on_mutated_files(workdir: Path, case: tuple[str, bytes], command: str) -> None:
    suffix, data = case
    path = workdir / f"cli{suffix}"
    path.write_bytes(data)
    args = {"info": ["info"], "json": ["info", "--json"], "solve": ["solve", "--engine", "search",
                                                                     "--time-limit", "3"]}[command]
    if geometry_for(suffix):
        args += ["--geometry", "square"]
    if command == "solve" and _cells(path) > SOLVE_CELLS:
        args = ["info", *args[5:]]  # the geometry option kept
    start = time.monotonic()
    res = runner.invoke(app, [args[0], str(path), *args[1:]])
    assert time.monotonic() - start < SECONDS + 5
    assert res.exit_code in (0, 1, 2, 3), (res.exit_code, res.output)
    assert "Traceback" not in res.output
    if res.exit_code == 2:
        lines = [line for line in res.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert all(ch.isprintable() or ch == "\n" for ch in res.output), repr(res.output)


def _cells(path: Path) -> int:
    try:
        return load_level(path, geometry=geometry_for(path.suffix)).size
    except KamiError:
        return 0


def profiles(body: Callable[..., None], *strategies: st.SearchStrategy) -> tuple[Callable, Callable]:
    """The same property as a fast default test and a large `slow` one."""
    return FAST(given(*strategies)(body)), pytest.mark.slow(SLOW(given(*strategies)(body)))


SUFFIXES = st.sampled_from([".json", ".puz", ".xml", ".txt"])
test_random_bytes, test_random_bytes_slow = profiles(_random_bytes, SUFFIXES, st.binary(max_size=3000))
test_mutated_files, test_mutated_files_slow = profiles(_mutated_files, mutated())
test_json_fields, test_json_fields_slow = profiles(
    _json_fields, st.sampled_from([GRID, GRAPH]),
    st.sampled_from(["name", "geometry", "rows", "nodes", "edges", "par", "palette", "medals", "official"]),
    JSON_VALUES, st.sampled_from([0, 0, 0, 50, 100_000]))
test_cli_on_mutated_files, test_cli_on_mutated_files_slow = profiles(
    _cli_on_mutated_files, mutated(), st.sampled_from(["info", "json", "solve"]))


# --- the readers that came later: Katamino puzzles, play uploads, hint's moves ---------------------------
KATAMINO = {"name": "k", "rows": 5, "cols": 6, "pieces": "LPUVYN", "blocked": [[0, 0]]}


def one_line_or_result(call: Callable[[], Any]) -> Any:
    """call() must return, or raise a KamiError of one line, within the time bound."""
    start = time.monotonic()
    try:
        value = call()
    except KamiError as e:
        assert str(e) and "\n" not in str(e).strip() and len(str(e)) < 2000, repr(e)
        value = None
    assert time.monotonic() - start < SECONDS
    return value


def _katamino_fields(workdir: Path, field: str, value: Any, nest: int) -> None:
    from kamicp.katamino.files import read_katamino

    data = dict(KATAMINO)
    data[field] = value
    path = workdir / "katamino.json"
    path.write_text(mutated_json(data, value, nest))
    puzzle = one_line_or_result(lambda: read_katamino(path))
    if puzzle is not None:
        assert 1 <= puzzle.rows <= 64 and 1 <= puzzle.cols <= 64
        assert all(0 <= r < puzzle.rows and 0 <= c < puzzle.cols for r, c in puzzle.blocked)


BOOK = {"name": "b", "rule": "katamino", "challenges": [{"name": "c", "pieces": "LNVUP", "start": 3}]}


def _katamino_book_fields(workdir: Path, field: str, value: Any, nest: int) -> None:
    from kamicp.katamino.files import read_katamino_file

    data = json.loads(json.dumps(BOOK))
    target = data if field in ("name", "rule", "challenges") else data["challenges"][0]
    target[field] = value
    path = workdir / "book.json"
    path.write_text(mutated_json(data, value, nest))
    book = one_line_or_result(lambda: read_katamino_file(path))
    if book is not None and hasattr(book, "challenges"):
        for c in book.challenges:
            assert 1 <= c.start <= len(c.pieces) <= 12


UPLOAD_NAMES = st.text(max_size=40) | st.sampled_from(
    ["a\x00.json", "x" * 300 + ".json", "\ud800.puz", "../../x.xml", "[/x]\x1b[31m.txt", "..", ".json", "a.png"])


def _upload(case: tuple[str, bytes], name: str, keep_suffix: bool) -> None:
    from kamicp.formats.upload import load_upload

    suffix, data = case
    name = name + suffix if keep_suffix else name
    one_line_or_result(lambda: load_upload(name, data))


MOVE_TEXT = st.lists(st.sampled_from(["0,0:A", "1,2:B", "(3, 4):C", ";", ":", ",", "9" * 5000, "[", "{", "]",
                                      "}", '"tap"', '"color"', "true", "-1", "\x1b[31m", "[/x]", "\u00b2",
                                      '{"tap": [0, 0], "color": "A"}', "[" * 3000]), max_size=8).map("".join)


def _hint_moves(text: str, as_json: Any) -> None:
    from kamicp.designer.hint import parse_moves

    level = load_level(PUZZLES / "tri-harbour.json")
    for moves in (text, json.dumps(as_json).replace(json.dumps(HUGE), "9" * 5000)):
        one_line_or_result(lambda m=moves: parse_moves(level, m))


test_katamino_fields, test_katamino_fields_slow = profiles(
    _katamino_fields, st.sampled_from(["name", "rows", "cols", "pieces", "blocked"]), JSON_VALUES,
    st.sampled_from([0, 0, 0, 50, 100_000]))
test_katamino_book_fields, test_katamino_book_fields_slow = profiles(
    _katamino_book_fields, st.sampled_from(["name", "rule", "challenges", "pieces", "start"]), JSON_VALUES,
    st.sampled_from([0, 0, 0, 50, 100_000]))
test_upload, test_upload_slow = profiles(_upload, mutated(), UPLOAD_NAMES, st.booleans())
test_hint_moves, test_hint_moves_slow = profiles(
    _hint_moves, MOVE_TEXT, st.lists(st.dictionaries(st.sampled_from(["tap", "color"]), JSON_VALUES), max_size=3)
    | JSON_VALUES)
