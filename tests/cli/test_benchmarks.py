"""The benchmark scripts still run and report what the solver proves (their numbers are not asserted:
performance is measured in benchmarks/, never in tests)."""

from __future__ import annotations

import itertools
import json
import shutil

import networkx as nx
import pytest

from kamicp.prover.search import HAVE_COMPILED
from tests.helpers import PUZZLES, ROOT, bench_script


def test_horizons_table_refutes_up_to_the_optimum(capsys):
    bench_script("horizons").main([str(PUZZLES / "tri-harbour.json"), "--time-limit", "20"])
    rows = [line.split("|")[1:3] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    outcomes = [(int(h), o.strip()) for h, o in rows[1:]]  # rows[0] is the header
    assert outcomes[-1] == (6, "feasible")  # tri-harbour's proven optimum
    assert all(o == "infeasible" for _, o in outcomes[:-1]) and outcomes[0][0] == 4  # from the lower bound


def test_ablation_writes_records_and_table(tmp_path, capsys):
    out = tmp_path / "abl"
    bench_script("ablation").main([str(PUZZLES / "tri-harbour.json"), "--set", "search,search-no-gather",
                                   "--time-limit", "20", "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert [(r["variant"], r["status"], r["optimum"]) for r in data["records"]] == [
        ("search", "optimal", 6), ("search-no-gather", "optimal", 6)]
    table = out.with_suffix(".md").read_text()
    assert "| **proven** | | 1/1 | 1/1 |" in table


def test_packs_benchmark_same_verdicts_in_every_mode_and_resume_skips(tmp_path):
    out = tmp_path / "packs"
    bench_script("packs").main(["--levels", "3", "--no-dask", "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [r["mode"] for r in records] == ["sequential (--jobs 1)", "--jobs 2", "--jobs 2 --resume (finished store)"]
    assert all(r["same_verdicts"] for r in records) and len(records[0]["verdicts"]) == 3
    assert [r["skipped"] for r in records] == [0, 0, 3]
    assert "| --jobs 2 |" in out.with_suffix(".md").read_text()


def test_compare_commits_flags_every_contradiction():
    compare = bench_script("compare_commits")
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
    bench_script("cube_proofs").main([str(PUZZLES / "tri-harbour.json"), "--workers", "1,2", "--out", str(out)])
    records = json.loads(out.with_suffix(".json").read_text())["records"]
    assert [(r["mode"], r["optimum"]) for r in records] == [
        ("single auto", 6), ("dask 1 worker", 6), ("dask 2 workers", 6)]
    assert "| tri-harbour | dask 2 workers | optimal | 6 |" in out.with_suffix(".md").read_text()


@pytest.mark.slow  # the old tree extracted, 8 fresh interpreters: 10-20 s on a loaded machine
def test_startup_benchmark_times_both_trees_and_lists_their_packages(tmp_path):
    out = tmp_path / "startup"
    bench_script("startup").app(["--old", "HEAD", "--runs", "1", "--out", str(out)], standalone_mode=False)
    data = json.loads(out.with_suffix(".json").read_text())
    assert set(data["medians"]) == {"--help", "info blog-18", "solve blog-18"}
    assert all(len(times) == 1 for per_tree in data["runs"].values() for times in per_tree.values())
    assert "ortools" not in data["packages"]["new"].split()  # this tree's CLI starts without OR-Tools
    assert "| `kamicp solve blog-18` |" in out.with_suffix(".md").read_text()


def test_cube_order_table_counts_every_cube(tmp_path):
    """tri-harbour (optimum 6) at horizon 5: every depth-1 cube refuted, the ordered ones in no more nodes."""
    out = tmp_path / "order"
    bench_script("cube_order").main([f"{PUZZLES / 'tri-harbour.json'}:5", "--out", str(out)])
    [row] = json.loads(out.with_suffix(".json").read_text())["rows"]
    assert not row["single_found"] and row["free_found"] == row["order_found"] == 0
    assert row["cubes"] > 0 and 0 < row["order_nodes"] <= row["free_nodes"]
    assert "| tri-harbour |" in out.with_suffix(".md").read_text()


def test_cluster_speed_compares_two_builds_node_for_node(tmp_path, capsys):
    """This tree against itself: the same nodes and plans, so it reports no difference and exits 0."""
    out = tmp_path / "speed"
    with pytest.raises(SystemExit) as done:
        bench_script("cluster_speed").main(["--old", str(ROOT), "--repeat", "1", "--seconds", "20", "--out", str(out),
                                       f"{PUZZLES / 'tri-harbour.json'}:5"])
    assert done.value.code == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert [(r["finished"], r["old"][2] == r["new"][2] > 0) for r in data["rows"]] == [(True, True)]
    assert "No differences in nodes and plans" in capsys.readouterr().out


@pytest.mark.slow  # (about 30 s: two servers started, a few seconds of load)
def test_play_server_benchmark_writes_its_tables(tmp_path):
    pytest.importorskip("starlette")
    out = tmp_path / "play"
    bench_script("play_server").app(["--seconds", "2", "--time-limit", "2", "--hints", "2", "--png-side", "600",
                                     "--out", str(out)], standalone_mode=False)
    data = json.loads(out.with_suffix(".json").read_text())
    assert [r["scenario"] for r in data["latency"]] == ["idle", "heavy requests in flight"]
    assert all(r["failed"] == 0 for r in data["latency"])
    assert [r["uploads at once"] for r in data["memory"]] == [1, 4]
    assert "Latency of GET /api/level" in out.with_suffix(".md").read_text()


@pytest.mark.skipif(not HAVE_COMPILED, reason="the table limit is the compiled search's")
def test_table_size_variants_refute_the_same_horizons(tmp_path):
    out = tmp_path / "table"
    bench_script("table_size").main([str(PUZZLES / "tri-harbour.json"), "--limits", "3000000,1", "--time-limit",
                                     "20", "--out", str(out)])
    rows = json.loads(out.with_suffix(".json").read_text())["rows"]
    by_limit = {n: [(r["horizon"], r["outcome"]) for r in rows if r["table_limit"] == n] for n in (3000000, 1)}
    assert by_limit[1] == by_limit[3000000] and by_limit[1][-1] == (6, "feasible")  # tri-harbour's optimum
    assert "| tri-harbour | 21 | 6 |" in out.with_suffix(".md").read_text()


def test_vanishing_benchmark_samples_positions_and_runs_both_searches(tmp_path):
    out = tmp_path / "vanishing"
    bench_script("vanishing").main([str(PUZZLES / "tri-harbour.json"), "--positions", "4", "--search",
                                    str(PUZZLES / "blog-18.json"), "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    (level,) = data["positions"]
    assert level["random_positions"] == 5 and level["plan_positions"] >= 6  # tri-harbour's optimum is 6
    assert all(0 <= n <= 5 for n in level["order_raises"][:1] + level["joint_raises"][:1])
    outcomes = [(r["horizon"], r["outcome"]) for r in data["search"]]
    assert outcomes[-1] == (5, "feasible") and all(o == "infeasible" for _, o in outcomes[:-1])  # blog-18's par


@pytest.mark.skipif(not HAVE_COMPILED, reason="compiled core not built")
def test_estimate_benchmark_predicts_each_horizon_from_the_earlier_ones(tmp_path):
    out = tmp_path / "est"
    level = ROOT / "tests" / "data" / "levels" / "tri-32b5c-s106.json"  # horizons 6 and 7 refuted, 8 solved
    bench_script("estimate").main([str(level), "--probe-seconds", "0.05", "--out", str(out)])
    rows = json.loads(out.with_suffix(".json").read_text())["records"][0]["horizons"]
    assert [(h["horizon"], h["outcome"]) for h in rows] == [(6, "infeasible"), (7, "infeasible"), (8, "feasible")]
    assert rows[0]["estimate"] is None  # nothing measured before the first horizon
    assert rows[2]["growth"] == pytest.approx(rows[1]["nodes"] ** 2 / rows[0]["nodes"])
    assert rows[2]["knuth"] > 0  # (the estimate itself needs 0.05 s of measured horizons for a rate: maybe None)
    merged = tmp_path / "merged"
    bench_script("estimate").main(["--merge", str(out.with_suffix(".json")), "--out", str(merged)])
    assert "| tri-32b5c-s106 | 37 | 8 |" in merged.with_suffix(".md").read_text()


def test_flood_packs_benchmark_validates_a_set_with_this_tree_and_another(tmp_path):
    """benchmarks/flood_packs.py on a set the test writes (boards and optimal solutions from the exhaustive
    oracle, never the field's files): every verdict correct, for this tree and for `--before` (here the same
    tree again), both in the table. No ColorFill: its columns stay empty."""
    from tests.helpers.boards import flood_square
    from tests.helpers.oracle import bfs_pivot_optimum

    levels = [flood_square(5, 3, seed) for seed in range(1, 4)]
    lines, solutions = [], []
    for level in levels:
        _, moves = bfs_pivot_optimum(level, 0, limit=14)
        cells = (level.colours[level.index((r, c))] for r in range(5) for c in range(5))
        lines.append("".join("123"["ABC".index(ch)] for ch in cells))
        solutions.append("".join("123"["ABC".index(m.colour)] for m in moves))
    (tmp_path / "tiny.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "tiny.colorfill-optimal.txt").write_text("\n".join(solutions) + "\n")
    bench = bench_script("flood_packs")
    out = tmp_path / "res"
    code = bench.main([str(tmp_path), "--sets", "tiny", "--jobs", "1", "--before", str(bench.ROOT), "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert code == 0
    record = data["records"][0]
    assert record["kamicp"]["correct"] == record["kamicp"]["boards"] == 3
    assert record["before"]["correct"] == 3
    assert "| tiny | 3 | 3/3 |" in out.with_suffix(".md").read_text()


def test_flood_unsolved_reads_board_lists():
    numbers = bench_script("flood_unsolved").board_numbers
    assert numbers("78,80,116-120") == [78, 80, 116, 117, 118, 119, 120]
    assert numbers("5") == [5] and numbers("3-3") == [3]


@pytest.mark.skipif(not HAVE_COMPILED, reason="the pivot A* is the compiled core's")
def test_pivot_colours_recomputes_the_root_bound_and_stays_below_the_optimum(tmp_path):
    out = tmp_path / "pc"
    bench_script("pivot_colours").main([str(PUZZLES / "tri-harbour.json"), "--out", str(out)])
    (r,) = json.loads(out.with_suffix(".json").read_text())["records"]
    assert r["recomputed"] == r["bound"]  # the product's bound, recomputed from its parts
    assert r["half"] <= r["bound"] <= r["per_colour"] <= 6  # tri-harbour's proven optimum


@pytest.mark.skipif(not HAVE_COMPILED, reason="the pivot test is the compiled search's")
def test_pivot_search_measures_both_variants_to_the_same_optimum(tmp_path):
    out = tmp_path / "ps"
    bench_script("pivot_search").main([str(PUZZLES / "tri-harbour.json"), "--horizon-seconds", "20", "--out", str(out)])
    (r,) = json.loads(out.with_suffix(".json").read_text())["records"]
    last = r["horizons"][-1]
    assert last["off"]["outcome"] == last["on"]["outcome"] == "feasible" and last["horizon"] == 6  # its optimum
    assert all(h["off"]["outcome"] == "infeasible" for h in r["horizons"][:-1])
    assert "| tri-harbour.json |" in out.with_suffix(".md").read_text()


def test_cpsat_params_refutes_the_same_horizon_under_each_parameter_set(tmp_path):
    out = tmp_path / "params"
    script = bench_script("cpsat_params")
    level = str(PUZZLES / "tri-harbour.json")  # optimum 6
    script.main(["--at", f"{level}=5", "--variants", "default,lin0,pseudo-cost", "--seeds", "0",
                 "--time-limit", "30", "--out", str(out)])
    [record] = json.loads(out.with_suffix(".json").read_text())["records"]
    assert {name: [r["outcome"] for r in runs] for name, runs in record["variants"].items()} == {
        "default": ["infeasible"], "lin0": ["infeasible"], "pseudo-cost": ["infeasible"]}
    assert "| tri-harbour" in out.with_suffix(".md").read_text()
    with pytest.raises(SystemExit, match="found a solution"):  # a horizon with a plan is no refutation to time
        script.main(["--at", f"{level}=6", "--variants", "default", "--seeds", "0"])


def test_floodit99_known_joins_the_runs_bounds_with_the_beams_plans(tmp_path):
    def result(name: str, data: dict) -> str:
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
        return str(tmp_path / name)

    record = {"rules": "free", "regions": 100, "published": 18, "optimum": None}
    first = result("a", {"records": [{**record, "board": "b1", "lower": 11, "upper": 15},
                                     {**record, "board": "b2", "lower": 12, "upper": 12, "optimum": 12}]})
    second = result("b", {"records": [{**record, "board": "b1", "lower": 12, "upper": 16}]})
    beam = result("beam", {"rows": [{"level": "b1", "long": {"moves": 14}}, {"level": "b2", "long": {"moves": 13}}]})
    out = tmp_path / "known"
    bench_script("floodit99_known").main([first, second, "--beam", beam, "--variant", "long", "--out", str(out)])
    rows = {r["board"]: r for r in json.loads(out.with_suffix(".json").read_text())["rows"]}
    assert (rows["b1"]["lower"], rows["b1"]["upper_runs"], rows["b1"]["upper"]) == (12, 15, 14)
    assert (rows["b2"]["lower"], rows["b2"]["upper"]) == (12, 12)  # a proven optimum stays one
    text = out.with_suffix(".md").read_text()
    assert "| b1 | 100 | 18 | 12..15 | 14 (shorter) | 12..14 |" in text and "**optimal 12**" in text
    assert "shorter than the runs' best on 1 (by 1 moves in all)" in text


def _children(state: tuple[int, ...], near: dict[int, set[int]], palette: int, useful: bool = False
              ) -> list[tuple[int, ...]]:
    """Every move's result: each region (the test's own flood fill, no code shared with useful_colours.cpp) in
    each other colour of the palette, or with `useful` each colour a neighbour of the region has."""
    children, left = [], set(range(len(state)))
    while left:
        todo, region = [left.pop()], set()
        while todo:
            u = todo.pop()
            region.add(u)
            todo += [v for v in near[u] if v in left and state[v] == state[u]]
            left -= set(todo)
        own = state[next(iter(region))]
        around = {state[v] for u in region for v in near[u]} - {own}
        children += [tuple(c if i in region else x for i, x in enumerate(state))
                     for c in sorted(around if useful else set(range(palette)) - {own})]
    return children


def _free_optimum(state: tuple[int, ...], near: dict[int, set[int]], palette: int, useful: bool) -> int:
    """Breadth-first over colourings: the fewest moves to one colour."""
    seen, frontier, depth = {state}, [state], 0
    while not any(len(set(s)) == 1 for s in frontier):
        depth, nxt = depth + 1, []
        for s in frontier:
            for child in _children(s, near, palette, useful):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return depth


@pytest.mark.skipif(shutil.which("g++") is None, reason="the checker is compiled with g++")
def test_useful_colours_checker_agrees_with_a_plain_search_on_every_small_graph(tmp_path):
    """benchmarks/useful_colours.py: its compiled solver against the breadth-first search above on every colouring
    of every connected graph of up to four nodes with three colours, and its table."""
    bench = bench_script("useful_colours")
    graphs = list(bench.atlas(4))
    for graph, answer in zip(graphs, bench.solve_all(graphs, 3), strict=True):
        near = {v: set(graph[v]) for v in graph}
        states = list(itertools.product(range(3), repeat=graph.number_of_nodes()))
        opt = {s: _free_optimum(s, near, 3, useful=False) for s in states}
        assert answer == {
            "colourings": len(states), "largest": max(opt.values()),
            "differs": sum(_free_optimum(s, near, 3, useful=True) != opt[s] for s in states),
            "one_node": max(abs(opt[s] - opt[(*s[:i], c, *s[i + 1:])]) for s in states for i in range(len(s))
                            for c in range(3)),
            "one_move": max(opt[child] - opt[s] for s in states for child in _children(s, near, 3))}, list(graph.edges)
    # two nodes without an edge: painting one the other's colour merges nothing, so with useful colours only the
    # two two-coloured colourings have no solution: the restriction really restricts
    apart = nx.Graph()
    apart.add_nodes_from([0, 1])
    assert bench.solve_all([apart], 2)[0]["differs"] == 2
    out = tmp_path / "uc"
    bench.main(["--exhaustive", "5:3", "--random", "3:6-7:3", "--out", str(out)])
    rows = json.loads(out.with_suffix(".json").read_text())["rows"]
    assert [(r["graphs"], r["nodes"]) for r in rows][:4] == [("all", 2), ("all", 3), ("all", 4), ("all", 5)]
    assert sum(r["count"] for r in rows if r["graphs"] == "all") == sum(1 for _ in bench.atlas(5))
    assert sum(r["count"] for r in rows if r["graphs"] == "random") == 3
    assert all(r["differs"] == 0 and r["one_node"] == 1 and r["one_move"] <= 1 for r in rows)  # (they hold there)
