"""The katamino command through typer's CliRunner: answers, counts, JSON, pictures, exit codes, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.katamino import check_solution, shorthand

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_solves_the_shorthand_and_prints_a_checked_grid():
    res = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "solved"
    check_solution(shorthand("5x6", "LPUVYN"), data["solutions"][0])
    text = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--engine", "dlx")
    assert text.exit_code == 0 and "solved" in text.output
    assert sum(len(line.split()) == 6 for line in text.output.splitlines()) >= 5  # the letter grid


def test_count_and_all():
    res = run("katamino", "--board", "3x20", "--pieces", "FILNPTUVWXYZ", "--count", "--engine", "dlx")
    assert res.exit_code == 0, res.output
    assert "8 solutions, 2 up to the board's 4 symmetries" in res.output
    listed = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--all", "--json")
    data = json.loads(listed.stdout)
    assert data["count"] == len(data["solutions"]) == 4 * data["distinct"] and data["complete"]


def test_impossible_gives_the_reason_and_exit_1(tmp_path):
    res = run("katamino", "--board", "5x5", "--pieces", "LPUV")
    assert res.exit_code == 1
    assert "impossible: area 25 != 5 x 4 pieces = 20" in res.output
    searched = run("katamino", "--board", "5x6", "--pieces", "LPUVYX", "--json")
    assert searched.exit_code == 1 and json.loads(searched.stdout)["status"] == "impossible"


def test_puzzle_file_with_blocked_cells(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"rows": 4, "cols": 4, "pieces": "LPV", "blocked": [[0, 0]]}))
    res = run("katamino", path, "--count", "--json")
    data = json.loads(res.stdout)
    assert res.exit_code == 0, res.output
    assert data["puzzle"]["name"] == "p" and data["symmetries"] == 2 and (data["count"], data["distinct"]) == (4, 2)


def test_time_limit_gives_unknown_exit_3():
    res = run("katamino", "--board", "6x10", "--pieces", "FILNPTUVWXYZ", "--count", "--engine", "dlx",
              "--time-limit", "0.2")
    assert res.exit_code == 3, res.output
    assert "unknown" in res.output and "at least" in res.output


def test_pictures_are_written_and_never_overwritten(tmp_path):
    svg, png = tmp_path / "k.svg", tmp_path / "k.png"
    res = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", svg, "--png", png)
    assert res.exit_code == 0, res.output
    assert svg.read_text().count('class="cell"') == 30 and png.read_bytes()[:4] == b"\x89PNG"
    before = svg.read_text()
    again = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", svg)
    assert again.exit_code == 2 and "--force" in again.output and svg.read_text() == before
    forced = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", svg, "--force")
    assert forced.exit_code == 0


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": 5, "cols": 6, "pieces": "LPQ"}')
    cases = [
        ["katamino"],
        ["katamino", "--board", "5x6"],
        ["katamino", "--board", "5by6", "--pieces", "LPU"],
        ["katamino", "--board", "5x6", "--pieces", "LLP"],
        ["katamino", bad],
        ["katamino", bad, "--board", "5x6", "--pieces", "LPU"],
        ["katamino", tmp_path / "missing.json"],
        ["katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", tmp_path / "x.png"],
    ]
    for args in cases:
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, res.output)
    assert "field 'pieces'" in run("katamino", bad).output
