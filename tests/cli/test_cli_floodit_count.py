"""`kamicp count --rules pivot` through typer's CliRunner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kamicp.board.level import Level
from kamicp.cli import app
from tests.helpers.count_oracle import brute_pivot_count
from tests.helpers.oracle import bfs_pivot_optimum


def test_cli_count_pivot(tmp_path):
    def run(*args: object):
        return CliRunner().invoke(app, [str(a) for a in args])

    path = tmp_path / "flood.txt"
    path.write_text("ABCAB\nBBCAA\nCACBB\nAABCC\nBCABA\n")
    level = Level.from_rows(path.read_text().split(), "square")
    cell = level.index((2, 2))
    res = run("count", path, "--geometry", "square", "--rules", "pivot", "--pivot", "2,2", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    optimum = bfs_pivot_optimum(level, cell, limit=14)[0]
    assert data["optimum"] == optimum and data["complete"]
    assert data["solutions"] == data["classes"] == brute_pivot_count(level, cell, optimum) > 1
    table = run("count", path, "--geometry", "square", "--rules", "pivot")
    assert table.exit_code == 0 and "optimum" in table.stdout and "class 1: colours " in table.stdout
    limited = run("count", path, "--geometry", "square", "--rules", "pivot", "--limit", "2")
    assert limited.exit_code == 2 and "--limit is for the free rules" in limited.stderr
    blocked = tmp_path / "islands.txt"
    blocked.write_text("AB.A\nBA.B\n")
    none = run("count", blocked, "--geometry", "square", "--rules", "pivot")
    assert none.exit_code == 1 and "no solution (proven)" in none.stdout
