"""Every --json output validates against its shipped, versioned JSON Schema (kamicp/schemas, issue 24
defect 9): real outputs of every command, through typer's CliRunner, checked with the `jsonschema`
library; and one vocabulary: no American `color` key anywhere in them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.cli.schemas import OUTPUTS, schema
from tests.helpers import GAMES, PUZZLES

runner = CliRunner()


def run_json(*args: object) -> Any:
    res = runner.invoke(app, [str(a) for a in args])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)


def check(name: str, data: Any) -> None:
    jsonschema.validate(data, schema(name), cls=jsonschema.Draft202012Validator)
    assert not american(data), american(data)


def american(data: Any, where: str = "") -> list[str]:
    """Every key spelt `color...` in a JSON value (the vocabulary is British)."""
    if isinstance(data, dict):
        return [f"{where}.{k}" for k in data if "color" in k] + [
            hit for k, v in data.items() for hit in american(v, f"{where}.{k}")]
    if isinstance(data, list):
        return [hit for k, v in enumerate(data) for hit in american(v, f"{where}[{k}]")]
    return []


def test_the_schemas_are_valid_and_cover_every_output() -> None:
    for name in OUTPUTS:
        jsonschema.Draft202012Validator.check_schema(schema(name))


@pytest.mark.parametrize("level", ["blog-18.json", "tri-harbour.json"])
def test_solve_and_prove(level: str) -> None:
    check("solve", run_json("solve", PUZZLES / level, "--json", "--engine", "search"))
    check("solve", run_json("solve", PUZZLES / level, "--json"))  # (auto: implied rows, the race's engines)
    check("prove", run_json("prove", PUZZLES / level, "--under", "4", "--json", "--engine", "search"))


def test_solve_and_count_under_pivot_rules() -> None:
    check("solve", run_json("solve", PUZZLES / "squ-tiles.json", "--rules", "pivot", "--json"))
    check("count", run_json("count", PUZZLES / "squ-tiles.json", "--rules", "pivot", "--json"))


def test_hint_count_info() -> None:
    blog = PUZZLES / "blog-18.json"
    check("hint", run_json("hint", blog, "--json", "--engine", "search"))
    check("hint", run_json("hint", blog, "--moves", "1:Red", "--json", "--engine", "search"))
    check("count", run_json("count", blog, "--json", "--engine", "search"))
    check("info", run_json("info", blog, "--json"))
    for game in sorted(GAMES.glob("*"))[:4]:
        check("info", run_json("info", game, "--json"))


def test_generate_and_its_files(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    summary = run_json("generate", "--geometry", "square", "--rows", "5", "--cols", "5", "--colours", "3",
                       "--par", "3", "--count", "2", "--unique", "--engine", "search", "-o", out, "--json")
    check("generate", summary)
    for row in summary:
        check("generated_proof", json.loads(Path(row["file"]).read_text())["proof"])


def test_validate_and_report(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    levels = [PUZZLES / "blog-18.json", PUZZLES / "tri-dawn.json"]
    rows = run_json("validate", *levels, "--json", "--engine", "search", "--store", store)
    check("validate", rows)
    check("report", run_json("report", store, "--json"))
    for row in rows:  # one proof-row shape: each horizon's row is one of the full result's rows
        assert row["proof"] and all(p in row["result"]["proof"] for p in row["proof"]), row


def test_katamino() -> None:
    check("katamino", run_json("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--json"))
    check("katamino", run_json("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--count", "--json"))
    check("katamino", run_json("katamino", "--board", "5x4", "--pieces", "LPUI", "--json"))  # the I across


def test_katamino_book() -> None:
    check("katamino_book", run_json("katamino", PUZZLES / "katamino" / "book.json", "--json", "--no-draw"))


def test_the_schemas_enums_are_the_codes() -> None:
    from kamicp.prover.outcome import Outcome, Status

    defs = schema("solve")["$defs"]
    assert set(defs["status"]["enum"]) == {s.value for s in Status}
    assert set(defs["outcome"]["enum"]) == {o.value for o in Outcome}


@pytest.mark.slow
def test_solve_on_a_local_dask_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setenv("KAMICP_DASK_LOCAL_FIRST", "0")  # the cubes, not the single-machine race's answer
    data = run_json("solve", PUZZLES / "tri-harbour.json", "--dask", "local", "--json")
    check("solve", data)
    assert data["cubes"] and data["cubes"][0]["answers"]


def test_solve_on_the_local_pool_with_a_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KAMICP_LOCAL_FIRST", "0")  # the cubes at once, on the local pool (no Dask)
    store = tmp_path / "p.db"
    for _ in range(2):  # (the second run reads the first's cubes)
        data = run_json("solve", PUZZLES / "tri-harbour.json", "--store", store, "--workers", "2", "--json")
        check("solve", data)
    assert data["pool"] == "local" and data["cubes"] and data["store"]["reused"] > 0


def test_every_output_on_levels_without_a_palette(tmp_path: Path) -> None:
    """Issue 37 defect 2: a text grid and a flood99 board have no palette: colour_name is still a string."""
    from tests.helpers import ROOT

    grid = ROOT / "examples" / "flood.txt"
    square = ("--geometry", "square")
    check("solve", run_json("solve", grid, *square, "--json"))
    check("prove", run_json("prove", grid, *square, "--under", "3", "--json"))
    check("hint", run_json("hint", grid, *square, "--json"))
    check("count", run_json("count", grid, *square, "--json"))
    check("info", run_json("info", grid, *square, "--json"))
    board = tmp_path / "03_03_03_001"
    board.write_text("3 3 3\n1 2 3\n2 3 1\n3 1 2\n4\n")
    for command in ("solve", "count"):
        for rules in ("free", "pivot"):
            check(command, run_json(command, board, "--rules", rules, "--json"))
    check("prove", run_json("prove", board, "--rules", "pivot", "--under", "3", "--json"))
    store = tmp_path / "s.sqlite"
    check("validate", run_json("validate", board, "--json", "--store", store))
    check("validate", run_json("validate", board, "--rules", "pivot", "--json", "--store", store))
    check("report", run_json("report", store, "--json"))
