"""Pack files of many Flood-It boards through the CLI: `validate FILE --format floodpack --pars PARS` (pars
as numbers or as solutions, in the pack's order), and `FILE#K` naming one board in the level commands.
Boards and optima come from the tests (the exhaustive oracle), never from the field's files."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kamicp.cli import app
from tests.helpers.boards import flood_square
from tests.helpers.oracle import bfs_pivot_optimum

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _pack(tmp_path, count: int = 4, centre: bool = False):
    """A pack file of `count` 5 x 5 boards in 3 colours (one a line, or blocks: the Code Golf layout with
    the centre pivot), and each board's (optimum, one optimal solution as colour keys)."""
    levels = [flood_square(5, 3, seed) for seed in range(1, count + 1)]
    pivot = 12 if centre else 0
    answers = []
    for level in levels:
        optimum, moves = bfs_pivot_optimum(level, pivot, limit=14)
        answers.append((optimum, "".join(m.colour for m in moves)))
    rows = [[level.colours[level.index((r, c))] for r in range(5) for c in range(5)] for level in levels]
    digits = [["123"["ABC".index(ch)] for ch in row] for row in rows]
    if centre:
        text = "\n\n".join("\n".join("".join(row[r * 5:(r + 1) * 5]) for r in range(5)) for row in digits)
    else:
        text = "\n".join("".join(row) for row in digits)
    path = tmp_path / ("golf.txt" if centre else "pack.txt")
    path.write_text(text + "\n")
    return path, answers


def test_validate_a_pack_file_with_pars_and_with_solutions(tmp_path):
    path, answers = _pack(tmp_path)
    pars = tmp_path / "pars.txt"
    pars.write_text("".join(f"{optimum}\n" for optimum, _ in answers))
    res = run("validate", path, "--format", "floodpack", "--pars", pars, "--rules", "pivot", "-j", "2", "--json")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [r["path"] for r in rows] == [f"{path}#{k}" for k in range(1, 5)]
    assert [r["verdict"] for r in rows] == ["correct"] * 4
    assert [r["optimum"] for r in rows] == [optimum for optimum, _ in answers]
    # the field's optimal-solution files: one solution a line, its length the par (one made too short)
    solutions = [moves for _, moves in answers]
    solutions[2] = solutions[2][:-1]
    pars.write_text("\n".join(solutions) + "\n")
    res = run("validate", path, "--format", "floodpack", "--pars", pars, "--rules", "pivot", "-j", "1", "--json")
    assert res.exit_code == 1, res.output
    assert [r["verdict"] for r in json.loads(res.stdout)] == ["correct"] * 2 + ["unachievable", "correct"]


def test_the_code_golf_layout_with_its_centre_pivot(tmp_path):
    path, answers = _pack(tmp_path, count=3, centre=True)
    pars = tmp_path / "pars.txt"
    pars.write_text("".join(f"{optimum}\n" for optimum, _ in answers))
    res = run("validate", path, "--format", "floodpack", "--pars", pars, "--rules", "pivot", "--pivot", "2,2",
              "-j", "1", "--json")
    assert res.exit_code == 0, res.output
    assert [r["optimum"] for r in json.loads(res.stdout)] == [optimum for optimum, _ in answers]


def test_pars_that_do_not_match_the_pack_are_refused_before_any_work(tmp_path):
    path, answers = _pack(tmp_path, count=3)
    pars = tmp_path / "pars.txt"
    pars.write_text("7\n8\n")
    res = run("validate", path, "--format", "floodpack", "--pars", pars, "--rules", "pivot")
    assert res.exit_code == 2 and "2 pars for 3 levels" in res.output
    res = run("validate", path, "--format", "floodpack", "--pars", pars, "--par", "7")
    assert res.exit_code == 2 and "not both" in res.output


def test_file_hash_k_is_one_board_for_solve_and_show(tmp_path):
    path, answers = _pack(tmp_path)
    res = run("solve", f"{path}#3", "--rules", "pivot", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "optimal" and len(data["moves"]) == answers[2][0]
    res = run("show", f"{path}#4")
    assert res.exit_code == 0 and "pack.txt#4" in res.output
    res = run("solve", f"{path}#9")
    assert res.exit_code == 2 and "no board 9" in res.output
    res = run("solve", path, "--format", "floodpack")
    assert res.exit_code == 2 and f"name one as {path}#K" in res.output
