"""The CLI through typer's CliRunner: answers, JSON, exit codes, and every kind of bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kamicp import load_level, verify
from kamicp.board.level import Move
from kamicp.cli import app
from tests.helpers import HARD, PUZZLES

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def test_solve_prints_taps_and_proof(blog_path):
    res = run("solve", blog_path)
    assert res.exit_code == 0, res.output
    assert "optimal: 5 moves" in res.output
    assert "impossible: lower bound 5" in res.output  # the bound alone proves it here
    assert "radius 3 + 1 by the ring" in res.output  # no centre of blog-18 has a one-colour outermost ring
    for tap in ("10", "8", "5"):
        assert tap in res.output
    searched = run("solve", PUZZLES / "tri-harbour.json")  # lower bound 5, optimum 6: a horizon searched
    assert searched.exit_code == 0, searched.output
    assert "optimal: 6 moves" in searched.output and "impossible (proven)" in searched.output


def test_solve_json_moves_replay(blog_path):
    for path, optimum in ((blog_path, 5), (PUZZLES / "tri-harbour.json", 6)):
        res = run("solve", path, "--json", "--engine", "search")
        assert res.exit_code == 0
        data = json.loads(res.stdout)
        assert data["status"] == "optimal" and data["optimum"] == optimum
        level = load_level(path)
        taps = [tuple(m["tap"]) if isinstance(m["tap"], list) else m["tap"] for m in data["moves"]]
        moves = [Move(level.index(t), m["colour"]) for t, m in zip(taps, data["moves"], strict=True)]
        verify(level, moves, max_moves=optimum)
        assert data["proof"][-1]["outcome"] == "feasible"
        assert {h["outcome"] for h in data["proof"][:-1]} <= {"bound", "infeasible"}
        assert [h["steps"] for h in data["proof"]][-1] == optimum


def test_solve_max_steps_below_optimum_is_negative(blog_path):
    res = run("solve", blog_path, "--max-steps", "4")
    assert res.exit_code == 1
    assert "no solution within 4 moves" in res.output


def test_solve_time_limit_gives_unknown_with_bounds():
    level = HARD / "gen-tri-100b5c-proper-s704.json"  # open: 11..13 after minutes (benchmarks/RESULTS.md)
    res = run("solve", level, "--time-limit", "1", "--json")
    assert res.exit_code == 3
    data = json.loads(res.stdout)
    assert data["status"] == "unknown"
    assert data["optimum"] is None
    assert data["lower_bound"] >= 1
    # no upper bound is honest when the limit left no time for the greedy (a heavily loaded machine)
    assert data["upper_bound"] is None or data["upper_bound"] >= data["lower_bound"]


def test_prove_under(blog_path):
    proven = run("prove", blog_path, "--under", "5")
    assert proven.exit_code == 0, proven.output
    assert "no solution with fewer than 5 moves" in proven.output
    refuted = run("prove", blog_path, "--under", "6")
    assert refuted.exit_code == 1
    assert "5 moves, fewer than 6" in refuted.output


def test_validate_single_and_table(blog_path, tmp_path):
    assert run("validate", blog_path).exit_code == 0
    assert run("validate", blog_path, "--par", "4").exit_code == 1
    assert run("validate", blog_path, "--par", "6").exit_code == 1
    other = tmp_path / "two.json"
    other.write_text(json.dumps({"geometry": "square", "rows": ["AB", "BA"], "par": 2}))
    res = run("validate", blog_path, other, "--json")
    assert res.exit_code == 0, res.output
    verdicts = {row["level"]: row["verdict"] for row in json.loads(res.stdout)}
    assert verdicts == {"blog-18": "correct", "two": "correct"}
    res = run("validate", blog_path, other, "--par", "5")
    assert res.exit_code == 1
    assert "not minimal" in res.output


def test_validate_needs_a_par(tmp_path):
    f = tmp_path / "nopar.json"
    f.write_text(json.dumps({"geometry": "square", "rows": ["AB"]}))
    res = run("validate", f)
    assert res.exit_code == 2
    assert "no par" in res.output


def test_a_katamino_file_given_as_a_level_says_what_it_is():
    """Our own puzzles/ folder holds a Katamino book: solving it, or validating the folder, names it as
    such and the command that reads it, not a missing Kami field."""
    res = run("solve", PUZZLES / "katamino" / "book.json")
    assert res.exit_code == 2
    assert "a Katamino puzzle or book, not a Kami level (run `kamicp katamino FILE`)" in res.output
    assert "geometry" not in res.output
    row = run("validate", PUZZLES, "--json")  # (the folder: skipped with a note, issue 37)
    assert "book.json" in row.stderr and "`kamicp katamino`" in row.stderr and "book.json" not in row.stdout


def test_show_board_and_solution(blog_path):
    res = run("show", blog_path)
    assert res.exit_code == 0 and "blog-18" in res.output
    res = run("show", blog_path, "--solution")
    assert res.exit_code == 0
    assert res.output.count("move ") == 5


def test_text_grid_needs_geometry(tmp_path):
    f = tmp_path / "board.txt"
    f.write_text("AAB\nABB\n")
    assert run("solve", f).exit_code == 2
    res = run("solve", f, "--geometry", "square")
    assert res.exit_code == 0 and "optimal: 1 move (" in res.output


BAD_JSON = {
    "not-json": ("{geometry: square", "not valid JSON"),
    "ragged": (json.dumps({"geometry": "square", "rows": ["AB", "A"]}), "ragged"),
    "unknown-geometry": (json.dumps({"geometry": "hexagon", "rows": ["AB"]}), "unknown geometry"),
    "no-cells": (json.dumps({"geometry": "square", "rows": ["..", ".."]}), "no cells"),
    "empty-rows": (json.dumps({"geometry": "triangle", "rows": []}), "no cells"),
    "no-nodes": (json.dumps({"geometry": "graph", "nodes": {}, "edges": []}), "no cells"),
    "unknown-node": (json.dumps({"geometry": "graph", "nodes": {"1": "A"}, "edges": [[1, 2]]}), "unknown node"),
    "self-loop": (json.dumps({"geometry": "graph", "nodes": {"1": "A", "2": "B"}, "edges": [[1, 1]]}), "self-loop"),
    "negative-par": (json.dumps({"geometry": "square", "rows": ["AB"], "par": -1}), "field 'par'"),
    "float-par": (json.dumps({"geometry": "square", "rows": ["AB"], "par": 2.5}), "field 'par'"),
    "string-par": (json.dumps({"geometry": "square", "rows": ["AB"], "par": "3"}), "field 'par'"),
    "not-object": ("[1, 2]", "JSON object"),
    "bad-edge": (json.dumps({"geometry": "graph", "nodes": {"1": "A"}, "edges": [[1]]}), "field 'edges'"),
}


@pytest.mark.parametrize("case", sorted(BAD_JSON))
@pytest.mark.parametrize("command", ["solve", "show", "validate", "prove"])
def test_bad_level_file_is_one_clear_line_and_exit_2(tmp_path, case, command):
    text, needle = BAD_JSON[case]
    f = tmp_path / f"{case}.json"
    f.write_text(text)
    extra = ["--under", "3"] if command == "prove" else (["--par", "2"] if command == "validate" else [])
    res = run(command, f, *extra)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ") and str(f) in lines[0] and needle in lines[0]
    assert res.stdout == ""


def test_unreadable_files(tmp_path):
    missing = run("solve", tmp_path / "missing.json")
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    directory = run("solve", tmp_path, "--format", "json")
    assert directory.exit_code == 2 and "directory" in directory.stderr
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    res = run("solve", binary)
    assert res.exit_code == 2 and "UTF-8" in res.stderr
    unknown = tmp_path / "level.dat"
    unknown.write_text("{}")
    res = run("solve", unknown)
    assert res.exit_code == 2 and "--format" in res.stderr


@pytest.mark.parametrize("args", [
    ["--max-steps", "-1"], ["--max-steps", "two"], ["--max-steps", "2.5"],
    ["--time-limit", "0"], ["--workers", "0"], ["--engine", "magic"],
])
def test_bad_options_exit_2(blog_path, args):
    res = run("solve", blog_path, *args)
    assert res.exit_code == 2
    assert "Traceback" not in res.output


@pytest.mark.parametrize("args", [["--under", "0"], ["--under", "-3"], ["--under", "x"]])
def test_bad_under_exit_2(blog_path, args):
    assert run("prove", blog_path, *args).exit_code == 2


def test_bad_par_option_exit_2(blog_path):
    assert run("validate", blog_path, "--par", "-1").exit_code == 2
    assert run("validate", blog_path, "--par", "1.5").exit_code == 2


def test_show_without_colours_prints_the_colour_keys():
    path = PUZZLES / "squ-quilt.json"
    rows = json.loads(path.read_text())["rows"]
    res = run("show", path)
    assert res.exit_code == 0
    for row in rows:
        assert " ".join(row) in res.output


def test_every_technique_can_be_switched_off():
    """`--no NAME` for each switchable technique (the ablation's switches) keeps the proven optimum; an
    unknown name is a usage error (exit 2) that names the valid ones."""
    from kamicp.prover.solver import TECHNIQUES

    for name in TECHNIQUES:
        res = run("solve", PUZZLES / "tri-harbour.json", "--no", name, "--json")
        assert res.exit_code == 0, (name, res.output)
        assert json.loads(res.stdout)["optimum"] == 6, name
    bad = run("solve", PUZZLES / "tri-harbour.json", "--no", "search-rings")
    assert bad.exit_code == 2 and "unknown technique 'search-rings'" in bad.output and "search-ring" in bad.output
    assert "Traceback" not in bad.output
