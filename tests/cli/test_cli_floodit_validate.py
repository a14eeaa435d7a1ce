"""`validate --rules pivot` on a pack through the CLI (verdicts, the store key apart from the free rules',
--resume, bad options)."""

from __future__ import annotations

import json
import sqlite3

from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.cli.pack_table import VERDICT_TEXT
from kamicp.formats import write_json
from tests.helpers.boards import flood_square as square
from tests.helpers.oracle import bfs_pivot_optimum

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _pack(folder, pivot: int = 0):
    """Three Flood-It boards whose pars are the optimum, one more, one less (optima from the oracle)."""
    folder.mkdir()
    want = {}
    for seed, delta, verdict in ((1, 0, "correct"), (2, 1, "not-minimal"), (3, -1, "unachievable")):
        level = square(5, 3, seed)
        optimum = bfs_pivot_optimum(level, pivot, limit=14)[0]
        write_json(square(5, 3, seed, par=optimum + delta), folder / f"{level.name}.json")
        want[level.name] = verdict
    return want


def test_validate_pack_with_pivot_rules(tmp_path):
    want = _pack(tmp_path / "pack")
    store = tmp_path / "answers.sqlite"
    res = run("validate", tmp_path / "pack", "--rules", "pivot", "--engine", "search", "--json", "-j", "1",
              "--store", store)
    assert res.exit_code == 1, res.output  # a wrong par
    assert {d["level"]: d["verdict"] for d in json.loads(res.stdout)} == want
    free = run("validate", tmp_path / "pack", "--engine", "search", "--json", "-j", "1", "--store", store)
    assert free.exit_code in (0, 1, 3), free.output
    with sqlite3.connect(store) as db:
        keys = {row[0] for row in db.execute("SELECT settings FROM rows")}
    assert len(keys) == 2 and sum('"rules": "pivot"' in k for k in keys) == 1
    again = run("validate", tmp_path / "pack", "--rules", "pivot", "--engine", "search", "-j", "1",
                "--store", store, "--resume")
    assert again.exit_code == 1, again.output
    # (the progress line says a verdict in the table's words: "not minimal")
    assert sorted(again.stderr.splitlines()) == [f"[{k}/3] {name}: {VERDICT_TEXT[verdict]} (from the store)"
                                                 for k, (name, verdict) in enumerate(sorted(want.items()), 1)]


def test_validate_pack_with_a_pivot_cell(tmp_path):
    level = square(5, 3, 7)
    cell = level.index((2, 2))
    optimum = bfs_pivot_optimum(level, cell, limit=14)[0]
    path = tmp_path / "centre.json"
    write_json(square(5, 3, 7, par=optimum), path)
    res = run("validate", path, "--rules", "pivot", "--pivot", "2,2", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)[0]["verdict"] == "correct"
    bad = run("validate", path, "--rules", "pivot", "--pivot", "9,9")
    assert bad.exit_code == 2 and f"{path}: pivot (9, 9) is not a cell" in bad.stderr
    loose = run("validate", path, "--pivot", "2,2")
    assert loose.exit_code == 2 and "--pivot needs --rules pivot" in loose.stderr
