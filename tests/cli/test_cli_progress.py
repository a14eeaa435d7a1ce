"""solve/prove --progress-json and --json's `progress` (issue 36): a line a second and at every change, each
one JSON object of the `progress_line` schema, the last agreeing with the answer; the path checked before
any work like every output."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.cli.schemas import schema
from tests.helpers import HARD, PUZZLES

runner = CliRunner()
RACE = HARD / "gen-tri-60b5c-proper-s700.json"  # not proven within 3 s: the race runs to the time limit


def lines(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        jsonschema.validate(row, schema("progress_line"), cls=jsonschema.Draft202012Validator)
    return rows


def test_solve_streams_snapshots_and_json_has_progress(tmp_path: Path) -> None:
    stream = tmp_path / "progress.jsonl"
    res = runner.invoke(app, ["solve", str(RACE), "--time-limit", "3", "--json", "--progress-json", str(stream)])
    assert res.exit_code in (0, 3), res.output
    data = json.loads(res.stdout)
    jsonschema.validate(data, schema("solve"), cls=jsonschema.Draft202012Validator)
    rows = lines(stream)
    assert len(rows) >= int(data["seconds"])  # at least one a second
    assert [r["elapsed"] for r in rows] == sorted(r["elapsed"] for r in rows)
    assert [r["lower"] for r in rows] == sorted(r["lower"] for r in rows)
    last = rows[-1]
    assert last["phase"] == "done"
    assert (last["lower"], last["upper"]) == (data["lower_bound"], data["upper_bound"])
    progress = data["progress"]
    assert (progress["lower"], progress["upper"]) == (data["lower_bound"], data["upper_bound"])
    assert progress["nodes"] == last["nodes"] and progress["elapsed"] == last["elapsed"]


def test_prove_and_one_engine_stream_too(tmp_path: Path) -> None:
    stream = tmp_path / "p.jsonl"
    level = PUZZLES / "tri-harbour.json"
    res = runner.invoke(app, ["prove", str(level), "--under", "6", "--engine", "search", "--progress-json",
                              str(stream)])
    assert res.exit_code == 0, res.output
    assert "proven" in res.stdout and "{" not in res.stdout  # (the stream goes to the file only)
    rows = lines(stream)
    assert rows[-1]["phase"] == "done" and rows[-1]["lower"] == 6
    assert any(r["engine"] == "search" and r["horizon"] is not None for r in rows)


def test_the_stream_path_is_checked_before_any_work(tmp_path: Path) -> None:
    level = str(PUZZLES / "blog-18.json")
    res = runner.invoke(app, ["solve", level, "--progress-json", str(tmp_path)])
    assert res.exit_code == 2 and "is a directory" in res.stderr and len(res.stderr.splitlines()) == 1
    assert res.stdout == ""
    taken = tmp_path / "taken.jsonl"
    taken.write_text("keep\n")
    res = runner.invoke(app, ["prove", level, "--under", "3", "--progress-json", str(taken)])
    assert res.exit_code == 2 and "--force" in res.stderr and taken.read_text() == "keep\n"
    res = runner.invoke(app, ["solve", level, "--progress-json", str(taken), "--force"])
    assert res.exit_code == 0 and json.loads(taken.read_text().splitlines()[-1])["phase"] == "done"
    res = runner.invoke(app, ["solve", level, "--progress-json", str(tmp_path / "no" / "p.jsonl")])
    assert res.exit_code == 2 and "does not exist" in res.stderr
    res = runner.invoke(app, ["solve", level, "--dask", "local", "--progress-json", str(tmp_path / "d.jsonl")])
    assert res.exit_code == 2 and "--progress-json" in res.stderr
