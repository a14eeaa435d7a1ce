"""The `hint` command through the runner (text, JSON, bad moves, time limit) and its benchmark script."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.board.level import Move
from kamicp.cli import app
from kamicp.designer.hint import hint, parse_moves
from tests.helpers import HARD, PUZZLES, bench_script

runner = CliRunner()


def test_hint_cli_json_and_text(blog_path):
    res = runner.invoke(app, ["hint", str(blog_path), "--moves", "1:Red", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {"move", "remaining", "par_still_possible"} <= data.keys()
    assert data["remaining"] == 5 and data["par_still_possible"] is False
    level = load_level(blog_path)
    moves = [*parse_moves(level, "1:Red"), Move(level.index(data["move"]["tap"]), data["move"]["colour"])]
    assert hint(level, moves).remaining == 4  # the hinted move keeps the optimum
    text = runner.invoke(app, ["hint", str(blog_path), "--moves", "1:Red"])
    assert text.exit_code == 0 and "no longer possible" in text.output and "optimal: 5 more moves" in text.output


def test_hint_cli_bad_moves_exit_2(blog_path):
    res = runner.invoke(app, ["hint", str(blog_path), "--moves", "1:Purple"])
    assert res.exit_code == 2
    assert "colour-changes" in res.output and "Traceback" not in res.output


@pytest.mark.slow
def test_hint_time_limit_gives_unknown_with_bounds():
    path = HARD / "gen-tri-150b5c-mirror-proper-s708.json"  # open for minutes: 0.5 s cannot prove it
    res = runner.invoke(app, ["hint", str(path), "--time-limit", "0.5", "--json", "--engine", "cpsat"])
    assert res.exit_code == 3, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "unknown" and data["remaining"] is None
    assert data["lower_bound"] <= (data["upper_bound"] or 99)


def test_hint_benchmark_script_writes_table_and_json(tmp_path):
    module = bench_script("hint")
    out = tmp_path / "hint"
    runner.invoke(module.app, [str(PUZZLES), "--glob", "tri-harbour.json", "--moves", "2", "--out", str(out)],
                  catch_exceptions=False)
    rows = json.loads(out.with_suffix(".json").read_text())["rows"]
    assert [(r["level"], r["start_optimum"], r["status"]) for r in rows] == [("tri-harbour", 6, "optimal")]
    level = load_level(PUZZLES / "tri-harbour.json")
    moves = module.random_moves(random.Random("0:tri-harbour:2"), level, 2)
    assert rows[0]["remaining"] == hint(level, moves, engine="search").remaining
    assert "| tri-harbour |" in out.with_suffix(".md").read_text()
