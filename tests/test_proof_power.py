"""Proof power on hard levels (issue 17): the sound bound along whole optimal plans, and the gap profiler
(benchmarks/gap.py) that measures where a proof's time goes."""

from __future__ import annotations

import importlib.util
import json
import random
import sys

import pytest

from boards import random_graph, random_grid
from conftest import PUZZLES, ROOT
from kamicp.bounds import bound_report
from kamicp.regions import regions_of
from kamicp.rules import replay
from kamicp.search import HAVE_COMPILED
from oracle import bfs_optimum


def _boards(count: int, seed: int):
    rng = random.Random(seed)
    for i in range(count):
        if i % 3 == 2:
            yield random_graph(rng, rng.randint(4, 8), rng.randint(2, 4), rng.uniform(0.3, 0.7))
        else:
            geometry = "triangle" if i % 3 == 0 else "square"
            yield random_grid(rng, geometry, rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 4))


def test_bound_along_optimal_plans_never_exceeds_the_moves_left():
    """After i moves of an optimal plan (the exhaustive oracle's, replayed by the rules engine) the board
    needs exactly optimum - i more moves, so its bound is at most that; and one move before the end the
    bound is exact (1). The gap profiler's "bound - moves left" column relies on this."""
    checked = slack = 0
    for level in _boards(120, seed=1717):
        truth = bfs_optimum(level, limit=9)
        if truth is None:
            continue
        optimum, moves = truth
        for i, board in enumerate(replay(level, moves)[:-1]):
            regions = regions_of(level, board.colors)
            bound = bound_report(regions.adj, regions.colors, len(regions.palette)).value
            assert bound <= optimum - i, (level, i)
            slack += bound < optimum - i
            checked += 1
        if optimum:
            last = replay(level, moves)[-2]
            regions = regions_of(level, last.colors)
            assert bound_report(regions.adj, regions.colors, len(regions.palette)).value == 1
    assert checked >= 150 and slack > 0  # the bound is not exact everywhere: the check can tell


def _gap_script():
    spec = importlib.util.spec_from_file_location("bench_gap", ROOT / "benchmarks" / "gap.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not HAVE_COMPILED, reason="the profiler measures the compiled search")
def test_gap_profile_refutes_up_to_the_optimum_and_reports_the_slack(tmp_path):
    out = tmp_path / "gap"
    _gap_script().main([str(PUZZLES / "tri-harbour.json"), "--horizon-seconds", "20", "--upper-seconds", "1",
                        "--out", str(out)])
    record = json.loads(out.with_suffix(".json").read_text())["records"][0]
    assert record["upper"] == 6  # tri-harbour's proven optimum, found by the beam or the rollouts
    assert [h["outcome"] for h in record["horizons"]] == ["infeasible"] * (6 - record["root_bound"])
    assert record["refuted_to"] == 5 and record["horizons"][0]["horizon"] == record["root_bound"]
    slack = record["slack"]
    assert len(slack) == 6 and slack[0] == record["root_bound"] - 6 and all(s <= 0 for s in slack)
    assert slack[-1] == 0
    assert "| tri-harbour | 21 |" in out.with_suffix(".md").read_text()


@pytest.mark.skipif(not HAVE_COMPILED, reason="the table limit is the compiled search's")
def test_a_table_cleared_at_every_entry_proves_the_same_horizons(capsys):
    """The transposition table only saves work: cleared whenever it holds one entry, the search refutes the
    same horizons and finds the optimum at the same one (benchmarks/horizons.py --table-limit)."""
    horizons = importlib.util.spec_from_file_location("bench_horizons", ROOT / "benchmarks" / "horizons.py")
    module = importlib.util.module_from_spec(horizons)
    horizons.loader.exec_module(module)
    runs = []
    for limit in ("1", "3000000"):
        module.main([str(PUZZLES / "tri-harbour.json"), "--time-limit", "20", "--table-limit", limit])
        rows = [line.split("|")[1:5] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
        runs.append([(int(h), o.strip(), int(n.replace(",", ""))) for h, o, _, n in rows[1:]])
    assert [(h, o) for h, o, _ in runs[0]] == [(h, o) for h, o, _ in runs[1]]
    assert runs[0][-1][:2] == (6, "feasible")
    assert sum(n for *_, n in runs[0]) >= sum(n for *_, n in runs[1])  # (the table can only save nodes here)
