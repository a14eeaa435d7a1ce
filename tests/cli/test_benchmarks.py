"""The benchmark scripts still run and report what the solver proves (their numbers are not asserted:
performance is measured in benchmarks/, never in tests)."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from tests.helpers import PUZZLES, ROOT


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # ablation's worker processes find run_one by module name
    spec.loader.exec_module(module)
    return module


def test_horizons_table_refutes_up_to_the_optimum(capsys):
    _script("horizons").main([str(PUZZLES / "tri-harbour.json"), "--time-limit", "20"])
    rows = [line.split("|")[1:3] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    outcomes = [(int(h), o.strip()) for h, o in rows[1:]]  # rows[0] is the header
    assert outcomes[-1] == (6, "feasible")  # tri-harbour's proven optimum
    assert all(o == "infeasible" for _, o in outcomes[:-1]) and outcomes[0][0] == 4  # from the lower bound


def test_ablation_writes_records_and_table(tmp_path, capsys):
    out = tmp_path / "abl"
    _script("ablation").main([str(PUZZLES / "tri-harbour.json"), "--set", "search,search-no-gather",
                              "--time-limit", "20", "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert [(r["variant"], r["status"], r["optimum"]) for r in data["records"]] == [
        ("search", "optimal", 6), ("search-no-gather", "optimal", 6)]
    table = out.with_suffix(".md").read_text()
    assert "| **proven** | | 1/1 | 1/1 |" in table


def test_packs_benchmark_same_verdicts_in_every_mode_and_resume_skips(tmp_path):
    out = tmp_path / "packs"
    _script("packs").main(["--levels", "3", "--no-dask", "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [r["mode"] for r in records] == ["sequential (--jobs 1)", "--jobs 2", "--jobs 2 --resume (finished store)"]
    assert all(r["same_verdicts"] for r in records) and len(records[0]["verdicts"]) == 3
    assert [r["skipped"] for r in records] == [0, 0, 3]
    assert "| --jobs 2 |" in out.with_suffix(".md").read_text()


def test_compare_commits_flags_every_contradiction():
    compare = _script("compare_commits")
    opt = {"status": "optimal", "optimum": 8, "lower_bound": 8, "upper_bound": 8, "seconds": 1.0, "regions": 54,
           "wall": 2.0}
    open_ = {**opt, "status": "unknown", "optimum": None, "lower_bound": 7, "upper_bound": 9, "seconds": 60.0}
    assert compare.disagreements(opt, open_) == []  # 7..9 holds the optimum 8
    assert compare.disagreements(opt, {**opt, "optimum": 9, "lower_bound": 9, "upper_bound": 9})  # two optima
    assert compare.disagreements({**open_, "lower_bound": 9}, opt)  # proves >= 9 against a replayed 8
    assert compare.disagreements(opt, {"status": "error", "exit": 4, "wall": 1.0, "error": "boom"})
    rows = [{"level": "x", "old": opt, "new": open_, "disagree": compare.disagreements(opt, open_)}]
    table = compare.markdown(rows, {"old": "a", "new": "b", "engine": "auto", "time_limit": 60.0, "load_start": "-"})
    assert "| x | 54 | 1.000 | 8 opt | 60.000 | 7..9 unknown | 60.00 | 2.00 / 2.00 | yes |" in table


@pytest.mark.slow
def test_distributed_benchmark_proves_the_same_optimum(tmp_path):
    out = tmp_path / "dist"
    _script("cube_proofs").main([str(PUZZLES / "tri-harbour.json"), "--workers", "1,2", "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [(r["mode"], r["optimum"]) for r in records] == [
        ("single auto", 6), ("dask 1 worker", 6), ("dask 2 workers", 6)]
    assert "| tri-harbour | dask 2 workers | optimal | 6 |" in out.with_suffix(".md").read_text()


def test_cluster_speed_compares_two_builds_node_for_node(tmp_path, capsys):
    """This tree against itself: the same nodes and plans, so it reports no difference and exits 0."""
    out = tmp_path / "speed"
    with pytest.raises(SystemExit) as done:
        _script("cluster_speed").main(["--old", str(ROOT), "--repeat", "1", "--seconds", "20", "--out", str(out),
                                       f"{PUZZLES / 'tri-harbour.json'}:5"])
    assert done.value.code == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert [(r["finished"], r["old"][2] == r["new"][2] > 0) for r in data["rows"]] == [(True, True)]
    assert "No differences in nodes and plans" in capsys.readouterr().out
