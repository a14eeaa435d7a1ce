"""benchmarks/floodit99.py on a folder of boards the test generates in the 99problems format: every board
in its own process, the published optima checked, the table, the totals and the command written."""

from __future__ import annotations

import json
import os

import pytest

from kamicp.floodit import solve_pivot
from kamicp.formats.flood99 import flood99_text
from tests.helpers import bench_script
from tests.helpers.boards import flood_square


def _folder(tmp_path, wrong: bool = False):
    folder = tmp_path / "boards"
    folder.mkdir()
    for i, (n, k) in enumerate([(6, 3), (7, 4), (7, 4)]):
        level = flood_square(n, k, i)
        optimum = len(solve_pivot(level, engine="search").moves) + (1 if wrong and i == 2 else 0)
        (folder / f"{n:02d}_{n:02d}_{k:02d}_{i:03d}").write_text(flood99_text(level, optimum))
    anchor = "| board | optimum | ColorFill ms |\n|---|---|---|\n| 06_06_03_000 | 4 | 7 |\n"
    (folder / "ANCHOR-TIMES.md").write_text(anchor)
    (folder / "README.md").write_text("not a board\n")
    return folder


def test_the_benchmark_proves_the_published_optima(tmp_path, capsys):
    bench = bench_script("floodit99")
    out = tmp_path / "res"
    bench.main([str(_folder(tmp_path)), "--time-limit", "30", "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["command"].startswith("python benchmarks/floodit99.py ")
    assert [r["board"] for r in data["records"]] == ["06_06_03_000", "07_07_04_001", "07_07_04_002"]
    assert all(r["status"] == "optimal" and r["optimum"] == r["published"] for r in data["records"])
    assert all(r["peak_mb"] > 0 and r["engine"] == "astar" for r in data["records"])
    text = out.with_suffix(".md").read_text()
    assert "| 07x07, 4 colours | 2/2 |" in text and "| all | 3/3 |" in text and "| 7 |" in text
    assert "load average" in text


def test_boards_side_by_side_give_the_same_optima_and_their_own_cpu(tmp_path):
    """--jobs 3: the three boards at once, each still proven with its published optimum, each record with the
    CPU of its own process, the table saying how many ran at once."""
    bench = bench_script("floodit99")
    out = tmp_path / "res"
    bench.main([str(_folder(tmp_path)), "--time-limit", "30", "--jobs", "3", "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert [r["board"] for r in data["records"]] == ["06_06_03_000", "07_07_04_001", "07_07_04_002"]
    assert all(r["status"] == "optimal" and r["optimum"] == r["published"] for r in data["records"])
    assert all(r["process_cpu"] >= r["cpu"] > 0 for r in data["records"])
    assert "3 boards at once" in out.with_suffix(".md").read_text()
    assert not out.with_suffix(".partial.json").exists()


def test_a_wrong_published_optimum_fails_the_run(tmp_path):
    bench = bench_script("floodit99")
    with pytest.raises(SystemExit, match="07_07_04_002"):
        bench.main([str(_folder(tmp_path, wrong=True)), "--time-limit", "30", "--out", str(tmp_path / "r")])


def test_via_cli_runs_the_kamicp_command_on_each_board(tmp_path):
    """--via-cli under free rules: each board by the `kamicp solve` command (its JSON answer read back), with the
    free optimum the library proves for the same board, never above the pivot game's published one, and the
    command's own CPU and peak memory, and its proof's horizons."""
    from kamicp import load_level, solve

    bench = bench_script("floodit99")
    folder = _folder(tmp_path)
    out = tmp_path / "res"
    bench.main([str(folder), "--rules", "free", "--via-cli", "--time-limit", "30", "--workers", "2",
                "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [r["board"] for r in records] == ["06_06_03_000", "07_07_04_001", "07_07_04_002"]
    for r in records:
        free = solve(load_level(folder / r["board"], "flood99"), time_limit=30)
        assert r["status"] == "optimal" and r["optimum"] == free.optimum <= r["published"]
        assert r["via"] == "cli" and r["rules"] == "free" and r["cpu"] > 0 and r["peak_mb"] > 0
        assert [h["steps"] for h in r["proof"]][-1] == r["optimum"] and r["proof"][-1]["outcome"] == "feasible"
    assert "the `kamicp solve` command" in out.with_suffix(".md").read_text()


def test_the_builds_benchmark_compares_cores_in_one_run(tmp_path):
    """benchmarks/floodit99_builds.py with the installed core twice: both prove the same optima with the
    same node counts, and the table gives the ratio to the first build."""
    from kamicp import _fastsearch

    bench = bench_script("floodit99_builds")
    out = tmp_path / "res"
    core = _fastsearch.__file__
    bench.main([str(_folder(tmp_path)), core, core, "--only", "^07_", "--cpu-limit", "30", "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [r["board"] for r in records] == ["07_07_04_001"] * 2 + ["07_07_04_002"] * 2
    assert all(r["status"] == "optimal" for r in records)
    for a, b in zip(records[::2], records[1::2], strict=True):
        assert (a["moves"], a["expanded"], a["stored"]) == (b["moves"], b["expanded"], b["stored"])
    assert "in CPU time, " in (text := out.with_suffix(".md").read_text())
    assert "in wall time (geometric means over 2 boards)" in text


def test_the_builds_benchmark_compares_thread_counts(tmp_path):
    """BUILD@N runs the A* on N threads: the same optima as one thread, the thread count in the table's
    build column, and the wall-time ratio beside the CPU one."""
    from kamicp import _fastsearch

    bench = bench_script("floodit99_builds")
    out = tmp_path / "res"
    core = _fastsearch.__file__
    bench.main([str(_folder(tmp_path)), f"{core}@1", f"{core}@3", "--only", "^07_", "--cpu-limit", "30",
                "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert all(r["status"] == "optimal" for r in records)
    for one, three in zip(records[::2], records[1::2], strict=True):
        assert one["moves"] == three["moves"] and three["build"].endswith("@3")
    text = out.with_suffix(".md").read_text()
    assert "| x first (wall) |" in text and ".so@3 |" in text


def test_the_builds_benchmark_takes_boards_of_a_pack(tmp_path):
    """A pack file of one board a line (the field's sets) with --boards A-B: those boards only, each proven
    with the optimum of the same board as a 99problems file; pack_line() writes a 99problems board as the
    pack's line (what ColorFill's -benchmark reads)."""
    from kamicp import _fastsearch

    bench = bench_script("floodit99_builds")
    folder = _folder(tmp_path)
    files = sorted(p for p in folder.iterdir() if p.name[0].isdigit())
    pack = tmp_path / "pack.txt"
    pack.write_text("".join(bench.pack_line(str(p)) + "\n" for p in files))
    out = tmp_path / "res"
    bench.main([str(pack), _fastsearch.__file__, "--boards", "2-3", "--cpu-limit", "30", "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [r["board"] for r in records] == ["pack.txt#2", "pack.txt#3"]
    assert all(r["status"] == "optimal" for r in records)
    published = [int(p.read_text().split()[-1]) for p in files[1:]]
    assert [r["moves"] for r in records] == published


def test_colorfill_beside_kamicp_is_read_and_totalled():
    """The ColorFill side of floodit99.py without a JVM: its per-board lines read, the sample (every ninth
    board by name) and the whole set totalled from the same records, a disagreement counted."""
    bench = bench_script("floodit99")
    log = ("running benchmark of solver strategy AStarPuchertStrategy\n"
           "1      5241742646514626724172835____________25         milliSeconds=1374\n"
           "2      171215847645175867214358____________24          milliSeconds=77\n"
           "3      56a762a3769739128a372653817932468a____________34milliSeconds=89823\n")  # (no space: a long one)
    assert bench.read_colorfill_log(log) == {1: (25, 1374), 2: (24, 77), 3: (34, 89823)}
    assert bench.boards_of(log) == {"moves": [25, 24, 34], "ms": [1374, 77, 89823]}
    names = [f"12_12_06_{k:03d}" for k in range(1, 12)]
    assert bench.sample(names) == ["12_12_06_001", "12_12_06_010"]
    records = [{"board": n, "optimum": 20, "status": "optimal", "cpu": 0.5, "process_cpu": 1.0} for n in names]
    cf = {"cpu": 13.0, "wall": 20.0, "startup_cpu": 1.0, "exit": 0, "ms": [1000] * 11, "moves": [20] * 10 + [21]}
    text = "\n".join(bench.colorfill_tables(records, names, cf))
    assert "| sample of 2 (every 9th) | 2/2 | 1.0 | 2.0 | 2.0 | - | 0.50 | - |" in text
    assert "| all 11 | 10/11 | 5.5 | 11.0 | 11.0 | 13.0 | 0.50 | 0.92 |" in text
    assert "| 12_12_06_011 | 20 | 21 | 0.50 | 1.00 | 1.00 | 0.50 |" in text
    stopped = {**cf, "moves": [20] * 9, "ms": [1000] * 9}  # (a JVM stopped after nine boards)
    text = "\n".join(bench.colorfill_tables(records, names, stopped))
    assert "ended (exit 0) after 9 of 11 boards" in text and "| 12_12_06_010 | 20 | not reached |" in text
    assert "| the 9 ColorFill solved | 9/9 | 4.5 | 9.0 | 9.0 | - | 0.50 | - |" in text
    assert "| sample of 2 (every 9th) | 1/2 | 1.0 | 2.0 | >= 1.0 | - | <= 1.00 | - |" in text
    assert "| all 11 | 9/11 | 5.5 | 11.0 | >= 9.0 | >= 13.0 | <= 0.61 | <= 0.92 |" in text


def test_tally_makes_the_tables_again_from_a_run_and_colorfills_output(tmp_path):
    """--tally: no board is run; the tables come from a run's JSON and ColorFill's saved output (a JVM that
    died or was stopped), in the order of the published times, a board it did not reach said so."""
    bench = bench_script("floodit99")
    folder = _folder(tmp_path)
    records = [{"board": n, "rules": "pivot", "status": "optimal", "optimum": o, "published": o, "regions": 9,
                "seconds": 0.2, "cpu": 0.1, "process_cpu": 0.5, "peak_mb": 40}
               for n, o in (("06_06_03_000", 4), ("07_07_04_001", 6), ("07_07_04_002", 7))]
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"command": "python benchmarks/floodit99.py ...", "records": records,
                               "conditions": "2 cores; load average (1, 5, 15 min) before 1, after 1",
                               "colorfill": {"cpu": 3.0, "wall": 4.0, "startup_cpu": 0.5, "exit": 1}}))
    log = tmp_path / "colorfill.log"
    oom = 'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n'
    # (the published order: the boards with no published time first, 06_06_03_000 last)
    log.write_text("1      121212____________6    milliSeconds=100\n"
                   "2      1212121____________7  milliSeconds=300\n" + oom)
    out = tmp_path / "tally"
    bench.main([str(folder), "--tally", str(run), str(log), "--out", str(out)])
    text = out.with_suffix(".md").read_text()
    assert "ended (exit 1) after 2 of 3 boards" in text and "| all 3 | 2/3 |" in text
    assert "| 06_06_03_000 | 4 | not reached |" in text and "load average (1, 5, 15 min) before 1" in text
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["colorfill"]["moves"] == [6, 7]
    bench.main([str(folder), "--tally", str(out.with_suffix(".json")), "-", "--out", str(tmp_path / "again")])
    assert "ended (exit 1) after 2 of 3 boards" in (tmp_path / "again.md").read_text()  # '-': the JSON's own
    log.write_text("1      121212____________6    milliSeconds=100\n2      12121212____________8 milliSeconds=300\n")
    with pytest.raises(SystemExit, match="07_07_04_002"):
        bench.main([str(folder), "--tally", str(run), str(log), "--out", str(out)])


def test_colorfill_alone_runs_one_jvm_per_board_and_says_which_ran_out_of_heap(tmp_path, monkeypatch):
    """--colorfill-alone with a stand-in `java` on PATH (a script: a solution line for one board, the JVM's
    out-of-memory message for the others): one run per board, its heap passed on, each board's outcome
    and CPU in the table, the unfinished boards' CPU totalled apart."""
    bench = bench_script("floodit99")
    folder = _folder(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    java = bin_dir / "java"
    java.write_text('#!/bin/sh\necho "$1" >> "$(dirname "$0")/heaps"\n'
                    'if cmp -s "$7" "$(dirname "$0")/solvable"; then\n'
                    '  echo "1      121212____________6    milliSeconds=100"\nelse\n'
                    '  echo \'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\'; exit 1\nfi\n')
    java.chmod(0o755)
    (bin_dir / "solvable").write_text(bench.pack_line(str(folder / "07_07_04_001")) + "\n")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    out = tmp_path / "alone"
    bench.main([str(folder), "--colorfill", str(tmp_path), "--colorfill-alone", "--colorfill-heap", "3",
                "--out", str(out)])
    rows = json.loads(out.with_suffix(".json").read_text())["colorfill_alone"]
    assert [r["board"] for r in rows] == ["07_07_04_001", "07_07_04_002", "06_06_03_000"]  # published order
    assert [r["moves"] for r in rows] == [6, None, None]
    assert [r["exit"] for r in rows] == ["0", "out of heap", "out of heap"]
    assert (bin_dir / "heaps").read_text().split() == ["-Xms3G"] * 3
    text = out.with_suffix(".md").read_text()
    assert "1/3 solved" in text and "| 07_07_04_002 | not solved | - |" in text
