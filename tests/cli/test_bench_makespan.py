"""benchmarks/makespan.py still runs: real distributed proofs on 1 and 2 local workers, their cube costs
simulated (its numbers are not asserted: performance is measured in benchmarks/, never in tests)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import PUZZLES, bench_script


@pytest.mark.slow
def test_makespan_benchmark_simulates_the_measured_runs(tmp_path):
    out = tmp_path / "makespan"
    bench_script("makespan").main([str(PUZZLES / "tri-harbour.json"), "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    runs = data["runs"]
    assert [(r["workers"], r["status"], r["optimum"]) for r in runs] == [(1, "optimal", 6), (2, "optimal", 6)]
    assert all(len(r["costs"]) == len(runs[0]["costs"]) and r["simulated"] >= 0 for r in runs)
    assert sorted(map(int, runs[0]["plan"])) == [1, 2, 4, 16, 100, 1000] and data["overhead"] >= 0
    assert "| tri-harbour | 2 |" in out.with_suffix(".md").read_text()
