"""--rules pivot / --pivot on solve and prove, through typer's CliRunner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kamicp import load_level, verify
from kamicp.board.level import Move
from kamicp.cli import app
from tests.helpers.oracle import bfs_pivot_optimum

runner = CliRunner()
BOARD = "ABCAB\nBBCAA\nCACBB\nAABCC\nBCABA\n"


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _board(tmp_path):
    path = tmp_path / "flood.txt"
    path.write_text(BOARD)
    return path


def test_solve_pivot_json_replays_under_the_pivot_rule(tmp_path):
    path = _board(tmp_path)
    level = load_level(path, geometry="square")
    for pivot, cell in ((None, 0), ("2,2", level.index((2, 2)))):
        extra = ["--pivot", pivot] if pivot else []
        res = run("solve", path, "--geometry", "square", "--rules", "pivot", "--json", *extra)
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout)
        assert data["rules"] == "pivot" and data["status"] == "optimal"
        moves = [Move(level.index(tuple(m["tap"])), m["colour"]) for m in data["moves"]]
        verify(level, moves, pivot=cell)
        assert data["optimum"] == bfs_pivot_optimum(level, cell, limit=14)[0]


def test_solve_pivot_table_and_free_rules_differ(tmp_path):
    path = _board(tmp_path)
    res = run("solve", path, "--geometry", "square", "--rules", "pivot", "--engine", "cpsat")
    assert res.exit_code == 0, res.output
    assert "Flood-It rules, pivot (0, 0)" in res.output and "optimal: 6 moves" in res.output
    assert "pivot bound" in res.output
    free = run("solve", path, "--geometry", "square")
    assert free.exit_code == 0 and "Flood-It" not in free.output


def test_prove_pivot_under(tmp_path):
    path = _board(tmp_path)
    proven = run("prove", path, "--geometry", "square", "--rules", "pivot", "--under", "6")
    assert proven.exit_code == 0, proven.output
    assert "proven: no solution with fewer than 6 moves" in proven.output
    shorter = run("prove", path, "--geometry", "square", "--rules", "pivot", "--under", "7", "--json")
    assert shorter.exit_code == 1 and json.loads(shorter.stdout)["optimum"] == 6


def test_pivot_bad_input_is_one_line_exit_2(tmp_path):
    path = _board(tmp_path)
    for extra in (["--pivot", "2,2"], ["--rules", "pivot", "--pivot", "9,9"], ["--rules", "pivot", "--pivot", "x"],
                  ["--rules", "sideways"]):
        res = run("solve", path, "--geometry", "square", *extra)
        assert res.exit_code == 2, (extra, res.output)
    one = run("solve", path, "--geometry", "square", "--rules", "pivot", "--pivot", "9,9")
    assert one.output.strip().splitlines() == ["error: pivot (9, 9) is not a cell of the level"]


def test_no_solution_when_the_other_islands_differ(tmp_path):
    path = tmp_path / "islands.txt"
    path.write_text("AB.C\nBA.A\n")
    res = run("solve", path, "--geometry", "square", "--rules", "pivot")
    assert res.exit_code == 1, res.output
    assert "no solution (proven)" in res.output and "cannot reach" in res.output


def test_solve_a_99problems_board_by_its_name(tmp_path):
    """`kamicp solve 12_12_06_001 --rules pivot` on the file itself: a board generated in that format."""
    from kamicp.formats.flood99 import flood99_text
    from tests.helpers.boards import flood_square

    level = flood_square(9, 5, 4)
    path = tmp_path / "09_09_05_004"
    path.write_text(flood99_text(level))
    res = run("solve", path, "--rules", "pivot", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "optimal" and data["engine"] == "astar"
    assert data["optimum"] == len(solve_pivot_search(level).moves)
    bad = tmp_path / "09_09_05_005"
    bad.write_text("9 9 5\n1 2 3\n0\n")
    res = run("solve", bad, "--rules", "pivot")
    assert res.exit_code == 2 and "09_09_05_005" in res.output and "cells" in res.output


def solve_pivot_search(level):
    from kamicp.floodit import solve_pivot

    return solve_pivot(level, engine="search")


def _big_flood(tmp_path):
    """A 22 x 22 board in 10 colours: the A* runs for many minutes."""
    import random as _random

    from kamicp.board.level import Level
    from kamicp.formats.flood99 import flood99_text

    rng = _random.Random(3)
    rows = ["".join(rng.choice("ABCDEFGHIJ") for _ in range(22)) for _ in range(22)]
    path = tmp_path / "22_22_10_001"
    path.write_text(flood99_text(Level.from_rows(rows, "square", name="big")))
    return path


def test_a_time_limit_gives_unknown_with_bounds(tmp_path):
    res = run("solve", _big_flood(tmp_path), "--rules", "pivot", "--time-limit", "1", "--json")
    assert res.exit_code == 3, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "unknown" and data["engine"] == "astar" and data["lower_bound"] >= 10


def test_a_signal_stops_the_astar_with_one_line(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers import ROOT, wait_for_cpu
    from tests.helpers.processes import command

    with command([sys.executable, "-c", "from kamicp.cli import app; app()", "solve",
                  str(_big_flood(tmp_path)), "--rules", "pivot"],
                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert wait_for_cpu(proc.pid, 3.0)  # past its imports, inside the A* (a fixed sleep lost to a loaded machine)
        assert proc.poll() is None
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and time.monotonic() - t0 < 10
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
