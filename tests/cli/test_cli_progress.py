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


def test_the_live_line_says_what_is_proven_and_what_is_worked_on() -> None:
    from kamicp.cli.progress import snapshot_line
    from kamicp.prover.estimate import Estimate
    from kamicp.prover.watch import Snapshot

    snap = Snapshot(12.34, "race", 11, 13, 12, "search", 5_000_000, 1_234_567.0)
    assert snapshot_line(snap) == "12.3 s · bounds 11..13 · refuting 12 (search, 1.2M nodes/s) · best plan 13"
    cubes = Snapshot(3.0, "race", 9, None, 9, "cubes", cubes_done=1, cubes_total=4,
                     estimate=Estimate(9, 1e9, 7200.0, 1e5, "test"))
    assert snapshot_line(cubes) == ("3.0 s · lower bound 9 · refuting 9 (cubes 1/4) · "
                                    "estimate 2 h for 9 (not a bound) · no plan yet")
    # the long proof before its first horizon (its bound and plan); the race's search on CP-SAT's parts
    preparing = Snapshot(21.0, "cubes", 11, 13)
    assert snapshot_line(preparing) == "21.0 s · bounds 11..13 · preparing the cubes · best plan 13"
    beside = Snapshot(5.0, "race", 9, 10, 9, "search", 10_000, 2_000_000.0, cubes_done=2, cubes_total=4)
    assert snapshot_line(beside) == ("5.0 s · bounds 9..10 · refuting 9 (search, 2.0M nodes/s, cubes 2/4) · "
                                     "best plan 10")


def test_the_stream_writes_a_line_a_second_and_every_change(tmp_path: Path) -> None:
    """Off a terminal there is no live line; the stream skips a sample only when nothing changed within the
    same second of the run."""
    from kamicp.cli.progress import following
    from kamicp.prover.watch import Snapshot

    path = tmp_path / "s.jsonl"
    with following(True, path) as follow:  # (typer's runner is no terminal: no live line)
        assert follow.status is None
        for t, lower in ((0.1, 3), (0.6, 3), (1.1, 3), (1.2, 4), (1.7, 4), (2.2, 4), (2.4, 4)):
            follow.watch(Snapshot(t, "search", lower, 9))
    # (2.4 is skipped as it comes, then written as the last snapshot when the solve ends, e.g. interrupted)
    assert [row["elapsed"] for row in lines(path)] == [0.1, 1.1, 1.2, 2.2, 2.4]
    assert follow.facts() == {"elapsed": 2.4, "lower": 4, "upper": 9, "horizon": None, "engine": None,
                              "nodes": 0, "rate": None}


def test_a_stream_that_fails_stops_without_stopping_the_solve() -> None:
    import errno

    from kamicp.cli.progress import Follow
    from kamicp.prover.watch import Snapshot

    class Full:
        def write(self, _text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    follow = Follow(None, Full())  # type: ignore[arg-type]
    follow.watch(Snapshot(0.1, "search", 3))
    follow.watch(Snapshot(1.1, "search", 4))  # (no second attempt, no exception)
    assert follow.failed == "No space left on device" and follow.stream is None and follow.last.lower == 4
