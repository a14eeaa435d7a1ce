"""Pack reports name each row's rules (free, or pivot with the pivot cell used) in the terminal table, the
Markdown and the CSV of `validate` and `report`, not only in the JSON settings."""

from __future__ import annotations

import csv
import io
import json

from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.formats import write_json
from tests.helpers.boards import flood_square

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_rows_name_their_rules_in_every_table(tmp_path):
    path = tmp_path / "one.json"
    write_json(flood_square(4, 3, 5, par=6), path)
    store = tmp_path / "answers.sqlite"
    free = run("validate", path, "--engine", "search", "-j", "1", "--store", store)
    pivot = run("validate", path, "--rules", "pivot", "--pivot", "1,2", "--engine", "search", "-j", "1",
                "--store", store)
    default = run("validate", path, "--rules", "pivot", "--engine", "search", "-j", "1", "--store", store)
    for res in (free, pivot, default):
        assert res.exit_code in (0, 1), res.output
    # the terminal table has the column when a row is not under the Kami rules (an all-Kami table stays narrow)
    assert " rules " not in free.stdout.splitlines()[0]
    assert " rules " in pivot.stdout.splitlines()[0] and "pivot (1, 2)" in pivot.stdout
    assert " rules " in default.stdout.splitlines()[0] and "pivot (0, 0)" in default.stdout

    table = list(csv.DictReader(io.StringIO(run("report", store, "--csv").stdout)))
    assert sorted(r["rules"] for r in table) == ["free", "pivot (0, 0)", "pivot (1, 2)"]
    md = run("report", store, "--markdown").stdout.splitlines()
    head = [c.strip() for c in md[0].strip("|").split("|")]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in md[2:5]]
    assert sorted(row[head.index("rules")] for row in cells) == ["free", "pivot (0, 0)", "pivot (1, 2)"]
    terminal = run("report", store).stdout  # mixed rules: every row names its own
    assert all(word in terminal for word in (" free ", "pivot (0, 0)", "pivot (1, 2)"))
    pivots = [d["result"]["pivot"] for d in json.loads(run("report", store, "--json").stdout) if "pivot" in d["result"]]
    assert sorted(pivots) == [[0, 0], [1, 2]]


def test_a_bad_input_row_names_the_pivot_as_given(tmp_path):
    path = tmp_path / "one.json"
    write_json(flood_square(3, 3, 1, par=4), path)
    store = tmp_path / "answers.sqlite"
    res = run("validate", path, "--rules", "pivot", "--pivot", "7,7", "-j", "1", "--store", store)
    assert res.exit_code == 2
    table = list(csv.DictReader(io.StringIO(run("report", store, "--csv").stdout)))
    assert [r["rules"] for r in table] == ["pivot 7,7"]
