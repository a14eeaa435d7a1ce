"""count and generate through the CLI (typer's CliRunner): JSON keys, limits, exit codes, generated
packs proven by `kamicp validate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp import load_level, verify
from kamicp.board.level import Move
from kamicp.cli import app
from kamicp.designer.generate import GenerateSpec
from kamicp.errors import UsageError
from tests.helpers import PUZZLES
from tests.helpers.count_oracle import optimal_plans, swap_classes

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_count_json_keys_and_exit_code(blog_path: Path) -> None:
    res = run("count", blog_path, "--json", "--engine", "search")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {"optimum", "solutions", "classes", "complete"} <= data.keys()
    assert data["optimum"] == 5 and data["complete"] is True
    level = load_level(blog_path)
    for plan in data["examples"]:
        verify(level, [Move(level.index(str(m["tap"])), m["colour"]) for m in plan], max_moves=5)


def test_count_text_and_limit() -> None:
    path = PUZZLES / "squ-tiles.json"
    full = json.loads(run("count", path, "--json", "--engine", "search").stdout)
    assert full["classes"] > 2
    res = run("count", path, "--limit", "2", "--engine", "search")
    assert res.exit_code == 0, res.output
    assert "at least 2" in res.output and "stopped by the limit" in res.output
    cut = json.loads(run("count", path, "--limit", "2", "--json", "--engine", "search").stdout)
    assert (cut["classes"], cut["complete"], cut["solutions"]) == (2, False, full["solutions"])


def test_count_time_limit_is_unknown_not_a_guess() -> None:
    res = run("count", PUZZLES / "tri-ember.json", "--time-limit", "0.3", "--json", "--engine", "search")
    assert res.exit_code == 3, res.output
    data = json.loads(res.stdout)
    assert data["complete"] is False


def test_count_on_a_graph_level(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"geometry": "graph", "nodes": {"1": "R", "2": "G", "3": "R", "4": "B"},
                                "edges": [[1, 2], [2, 3], [3, 4]]}))
    data = json.loads(run("count", path, "--json", "--engine", "search").stdout)
    optimum, plans = optimal_plans(load_level(path))
    assert (data["optimum"], data["solutions"], data["classes"]) == (optimum, len(plans),
                                                                     swap_classes(load_level(path), plans))


def test_count_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"geometry": "square", "rows": 3}')
    res = run("count", bad)
    assert res.exit_code == 2 and "field 'rows'" in res.output
    assert run("count", PUZZLES / "tri-dawn.json", "--limit", "0").exit_code == 2


def test_generate_checks_its_parameters() -> None:
    with pytest.raises(UsageError, match="no mirror symmetry"):
        GenerateSpec("triangle", 3, 4, 6, 5, "mirror").check()
    res = run("generate", "--geometry", "square", "--colours", "3", "--par", "0", "-o", "x.json")
    assert res.exit_code == 2


def test_generate_pack_validates_and_never_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    args = ("generate", "--geometry", "square", "--colours", "3", "--par", "4", "--rows", "6", "--cols", "6",
            "--count", "3", "--seed", "1", "--engine", "search", "-o", out)
    res = run(*args, "--json")
    assert res.exit_code == 0, res.output
    files = sorted(out.glob("*.json"))
    assert [Path(d["file"]) for d in json.loads(res.stdout)] == files and len(files) == 3
    for f in files:
        data = json.loads(f.read_text())
        assert data["par"] == data["proof"]["optimum"] == 4
        last = data["proof"]["horizons"][-1]
        assert (last["steps"], last["outcome"]) == (4, "feasible")
    check = run("validate", *files, "--engine", "search")
    assert check.exit_code == 0, check.output
    before = files[0].read_text()
    again = run(*args)
    assert again.exit_code == 2 and "exists already" in again.output
    assert files[0].read_text() == before
    assert run(*args, "--force").exit_code == 0


def test_generate_one_file_and_a_bad_proof_field(tmp_path: Path) -> None:
    target = tmp_path / "one.json"
    res = run("generate", "--geometry", "triangle", "--colours", "3", "--par", "3", "--rows", "6", "--cols", "6",
              "--engine", "search", "-o", target)
    assert res.exit_code == 0, res.output
    data = json.loads(target.read_text())
    assert load_level(target).par == 3
    data["proof"] = [1]
    target.write_text(json.dumps(data))
    bad = run("info", target)
    assert bad.exit_code == 2 and "field 'proof'" in bad.output


@pytest.mark.slow
def test_pack_of_20_levels_par_6_to_10_validates(tmp_path: Path) -> None:
    files = []
    for par in range(6, 11):
        out = tmp_path / f"par{par}"
        colours = min(par - 2, 7)  # more colours make a high par provable sooner (the colour bound)
        res = run("generate", "--geometry", "triangle", "--colours", colours, "--par", par, "--count", "4",
                  "--seed", "3", "-o", out)
        assert res.exit_code == 0, res.output
        files += sorted(out.glob("*.json"))
    assert len(files) == 20
    check = run("validate", *files, "--json")
    assert check.exit_code == 0, check.output
    assert [d["verdict"] for d in json.loads(check.stdout)] == ["correct"] * 20


def test_generate_time_limit_is_unknown(tmp_path: Path) -> None:
    res = run("generate", "--geometry", "square", "--colours", "3", "--par", "4", "--count", "2",
              "--time-limit", "0.001", "-o", tmp_path / "pack")
    assert res.exit_code == 3 and "wrote 0 of 2 levels" in res.output
    assert not list((tmp_path / "pack").glob("*.json"))
