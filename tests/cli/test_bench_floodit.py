"""The two Flood-It benchmarks share their boards, options and result files through one helper module
(benchmarks/flood_boards.py), and still run: same boards, same optima, the command recorded."""

from __future__ import annotations

import json

from tests.helpers import bench_script


def test_both_benchmarks_use_the_shared_boards_and_agree(tmp_path, capsys):
    helper = bench_script("flood_boards")
    solve, count = bench_script("floodit"), bench_script("floodit_count")
    assert solve.board.__module__ == count.board.__module__ == "benchmarks.flood_boards"
    assert helper.board(5, 3).labels == solve.board(5, 3).labels  # (the module loaded twice, same boards)
    args = ["--sizes", "4,5", "--colours", "3", "--time-limit", "20"]
    solve.main([*args, "--out", str(tmp_path / "solve")])
    count.main([*args, "--out", str(tmp_path / "count")])
    solved = json.loads((tmp_path / "solve.json").read_text())
    counted = json.loads((tmp_path / "count.json").read_text())
    assert solved["command"].startswith("python benchmarks/floodit.py --sizes 4,5")
    assert counted["command"].startswith("python benchmarks/floodit_count.py --sizes 4,5")
    optima = {r["board"]: r["search"]["optimum"] for r in solved["records"]}
    assert optima == {r["board"]: r["optimum"] for r in counted["records"]}
    assert list(optima) == ["flood-4x4-3c", "flood-5x5-3c"] and None not in optima.values()
    assert (tmp_path / "solve.md").read_text().startswith("`python benchmarks/floodit.py")
    assert "| flood-5x5-3c |" in capsys.readouterr().out
