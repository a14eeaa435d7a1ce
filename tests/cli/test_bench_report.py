"""benchmarks/report.py, the one way a benchmark records its results: OUT.md with the command line, the commit
and the machine above the tables, OUT.json with the same facts beside the script's own keys; and every
benchmark script writes through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import ROOT, bench_script

# scripts that write no results table (each with its reason)
NOT_WRITERS = {
    "report.py": "the helper itself",
    "flood_boards.py": "the Flood-It benchmarks' shared boards and options",
    "generate.py": "writes level files, not results",
}


def test_write_puts_command_commit_and_machine_above_the_table_and_in_the_json(tmp_path, capsys):
    report = bench_script("report")
    command = report.command_line("demo.py", ["--levels", "a b.json", "--out", "x"])
    assert command == "python benchmarks/demo.py --levels 'a b.json' --out x"  # quoted: runs as written
    report.write(tmp_path / "sub" / "demo", command, "| a |\n|---|\n| 1 |\n", {"rows": [{"a": 1}]})
    md = (tmp_path / "sub" / "demo.md").read_text()
    lines = md.splitlines()
    assert lines[0] == f"`{command}`"
    assert lines[2].startswith("Commit ") and "cores" in lines[2] and "load average" in lines[2]
    assert lines[4:] == ["| a |", "|---|", "| 1 |"]
    data = json.loads((tmp_path / "sub" / "demo.json").read_text())
    assert data["command"] == command and data["rows"] == [{"a": 1}]
    assert data["commit"] in lines[2] and data["machine"] in lines[2]
    assert capsys.readouterr().out == md  # printed as written


def test_without_out_only_printed_and_out_may_name_either_file(tmp_path, capsys):
    report = bench_script("report")
    report.write(None, "python benchmarks/demo.py", "table", {})
    assert "table" in capsys.readouterr().out and not list(tmp_path.iterdir())
    assert report.paths(tmp_path / "r.md") == report.paths(tmp_path / "r.json") == (tmp_path / "r.md",
                                                                                     tmp_path / "r.json")
    assert report.paths("results/v1.5") == (Path("results/v1.5.md"), Path("results/v1.5.json"))


def test_options_add_out_with_the_script_default():
    report = bench_script("report")
    assert report.options("Doc line.\n\nMore.", out="benchmarks/results/x").parse_args([]).out == "benchmarks/results/x"
    assert report.options("Doc line.").parse_args(["--out", "y"]).out == "y"
    assert report.options("Doc line.").parse_args([]).out is None


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")
                                           if p.name not in NOT_WRITERS))
def test_every_benchmark_writes_through_the_helper(script):
    text = (ROOT / "benchmarks" / script).read_text()
    assert "from benchmarks.report import" in text or "from benchmarks import report" in text, script
    assert 'with_suffix(".md")' not in text and 'with_suffix(".json")' not in text, f"{script} writes OUT itself"
