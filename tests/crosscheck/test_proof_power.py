"""Proof power on hard levels (issue 17): the sound bound along whole optimal plans, and the gap profiler
(benchmarks/gap.py) that measures where a proof's time goes."""

from __future__ import annotations

import json
import random

import pytest

from kamicp.board.level import Move
from kamicp.board.regions import regions_of
from kamicp.board.rules import Board, apply_move, replay
from kamicp.prover.bounds import bound_report, cluster_cost, cluster_costs
from kamicp.prover.search import HAVE_COMPILED
from tests.helpers import PUZZLES, bench_script
from tests.helpers.boards import random_graph, random_grid
from tests.helpers.oracle import bfs_optimum


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
            regions = regions_of(level, board.colours)
            bound = bound_report(regions.adj, regions.colours, len(regions.palette)).value
            assert bound <= optimum - i, (level, i)
            slack += bound < optimum - i
            checked += 1
        if optimum:
            last = replay(level, moves)[-2]
            regions = regions_of(level, last.colours)
            assert bound_report(regions.adj, regions.colours, len(regions.palette)).value == 1
    assert checked >= 150 and slack > 0  # the bound is not exact everywhere: the check can tell



@pytest.mark.skipif(not HAVE_COMPILED, reason="the profiler measures the compiled search")
def test_gap_profile_refutes_up_to_the_optimum_and_reports_the_slack(tmp_path):
    out = tmp_path / "gap"
    bench_script("gap").main([str(PUZZLES / "tri-harbour.json"), "--horizon-seconds", "20", "--upper-seconds", "1",
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
    module = bench_script("horizons")
    runs = []
    for limit in ("1", "3000000"):
        module.main([str(PUZZLES / "tri-harbour.json"), "--time-limit", "20", "--table-limit", limit])
        rows = [line.split("|")[1:5] for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
        runs.append([(int(h), o.strip(), int(n.replace(",", ""))) for h, o, _, n in rows[1:]])
    assert [(h, o) for h, o, _ in runs[0]] == [(h, o) for h, o, _ in runs[1]]
    assert runs[0][-1][:2] == (6, "feasible")
    assert sum(n for *_, n in runs[0]) >= sum(n for *_, n in runs[1])  # (the table can only save nodes here)


# -- the cluster gathering cost (models/bounds.md, "clusters") ---------------------------------------------


def _partitions(items: list[int]):
    """Every partition of `items` into non-empty groups (brute force, for small lists)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]


def test_cluster_cost_is_the_cheapest_clustering():
    """`cluster_cost` (dynamic programming over subsets) equals a brute force over all partitions and all
    choices of the group that keeps the colour (or none), on distances of random graphs."""
    rng = random.Random(17)
    for _ in range(60):
        level = random_graph(rng, rng.randint(5, 9), 1, rng.uniform(0.25, 0.6))
        adj = level.adjacency()
        dist = {v: _bfs(v, adj) for v in range(level.size)}
        points = [v for v in rng.sample(range(level.size), rng.randint(1, min(6, level.size)))
                  if all(w in dist[v] for w in range(level.size))] or [0]
        points = [p for p in points if all(q in dist[p] for q in points)]

        def half(group, dist=dist):
            return (max((dist[a][b] for a in group for b in group), default=0) + 1) // 2

        best = min(min([sum(max(1, half(g)) for g in part)] +
                       [half(part[i]) + sum(max(1, half(g)) for j, g in enumerate(part) if j != i)
                        for i in range(len(part))])
                   for part in _partitions(points))
        assert cluster_cost(points, dist) == best


def _bfs(s: int, adj) -> dict[int, int]:
    dist, frontier = {s: 0}, [s]
    while frontier:
        nxt = []
        for v in frontier:
            for w in adj[v]:
                if w not in dist:
                    dist[w] = dist[v] + 1
                    nxt.append(w)
        frontier = nxt
    return dist


def _spread_boards(count: int, seed: int):
    """Larger random boards with many small regions (the cluster cost needs several far-apart regions of
    each colour to say more than the gathering cost)."""
    rng = random.Random(seed)
    for _ in range(count):
        geometry = rng.choice(["triangle", "square"])
        yield random_grid(rng, geometry, rng.randint(5, 9), rng.randint(5, 9), rng.randint(3, 4), hole_rate=0.0,
                          blobbiness=0.1)


def test_a_colour_is_gathered_no_sooner_than_its_cluster_cost():
    """The rules engine plays merging moves on boards of 20-60 regions. After every move, each region spans,
    in the start board's region distances, at most twice the number of moves that built it (the lemma of
    the proof); and whenever a colour is down to one region after t moves, t is at least that colour's
    cluster cost on the start board (the bound's claim)."""
    rng = random.Random(1717)
    gathered = 0
    for level in _spread_boards(14, seed=4):
        start = regions_of(level)
        costs = cluster_costs(range(start.size), start.adj, start.colours, 8)
        owner = {cell: r for r, cells in enumerate(start.cells) for cell in cells}  # cell -> start region
        dist = {v: _bfs(v, start.adj) for v in range(start.size)}
        built = {frozenset([r]): 0 for r in range(start.size)}  # region (its start regions) -> moves that built it
        board = Board.start(level)
        for t in range(1, 30):
            cell = rng.randrange(level.size)
            others = {board.colours[w] for v in board.region_at(cell) for w in level.adjacency()[v]}
            others.discard(board.colours[cell])
            if not others:
                break  # one region left
            board = apply_move(board, Move(cell, rng.choice(sorted(others))))
            made = frozenset(owner[c] for c in board.region_at(cell))
            history = 1 + sum(h for group, h in built.items() if group <= made)
            built = {group: h for group, h in built.items() if not group <= made}
            built[made] = history
            for group, h in built.items():
                assert max(dist[a][b] for a in group for b in group) <= 2 * h
            now = regions_of(level, board.colours)
            count = {key: sum(start.palette[c] == key for c in now.colours) for key in set(board.colours)}
            for c, key in enumerate(start.palette):
                if count.get(key) == 1 and c in costs:
                    assert t >= costs[c], (level.name, key, t, costs[c])
                    gathered += 1
    assert gathered >= 20  # colours of three or more start regions were gathered: the claim was tested


def _root_bounds(regions) -> tuple[int, int]:
    """The root bound without and with the cluster costs."""
    k = len(regions.palette)
    return (bound_report(regions.adj, regions.colours, k).value,
            bound_report(regions.adj, regions.colours, k, clusters=8).value)


def _shortest(search, start: int = 0) -> tuple[int, list]:
    """The first horizon from `start` on that the search solves, and its plan (the optimum when `start` is a
    lower bound)."""
    steps = start
    while (plan := search.within(steps)) is None:
        steps += 1
    return steps, plan


def test_the_cluster_bound_is_stronger_and_never_exceeds_the_optimum():
    """On larger random boards the root bound with cluster costs is above the plain bound on some boards and
    never above the optimum (found by the compiled search, which is checked against the exhaustive oracle
    in test_crosscheck.py; boards small enough for the oracle never have several far-apart regions of
    every colour, so the cluster cost cannot beat the gathering cost there: see the next check)."""
    if not HAVE_COMPILED:
        pytest.skip("the optima of boards this size need the compiled search")
    from kamicp.prover.search import CompiledIDAStar

    stronger = 0
    for level in _spread_boards(90, seed=2):
        regions = regions_of(level)
        k = len(regions.palette)
        plain, raised = _root_bounds(regions)
        assert raised >= plain
        if raised == plain:
            continue
        optimum, _ = _shortest(CompiledIDAStar(regions.adj, regions.colours, k), plain)
        assert raised <= optimum, (level.name, plain, raised, optimum)
        stronger += 1
    assert stronger >= 3


def test_the_cluster_bound_never_exceeds_the_oracle():
    for level in _boards(120, seed=1718):
        truth = bfs_optimum(level, limit=9)
        if truth is None:
            continue
        regions = regions_of(level)
        assert bound_report(regions.adj, regions.colours, len(regions.palette), clusters=8).value <= truth[0]


def test_the_compiled_search_prunes_by_clusters_node_for_node_as_the_python_search():
    """With the cluster cost (sample of 8) both searches prune the same nodes (the compiled one decides it
    once a node's distances are known, before any child; por off as in test_core_binding.py) and find the
    optimum of the search without it; on boards where it raises the root bound, with fewer nodes."""
    if not HAVE_COMPILED:
        pytest.skip("compares the compiled search")
    from kamicp.prover.search import CompiledIDAStar, IDAStar

    fewer = checked = 0
    for level in _spread_boards(200, seed=2):
        regions = regions_of(level)
        k = len(regions.palette)
        plain, with_clusters = _root_bounds(regions)
        raised = with_clusters > plain
        if regions.size > 30 or (checked >= 6 and not raised):
            continue
        runs = []
        for search in (IDAStar(regions.adj, regions.colours, k, clusters=8),
                       CompiledIDAStar(regions.adj, regions.colours, k, por=False, clusters=8),
                       CompiledIDAStar(regions.adj, regions.colours, k, por=False)):
            steps, _ = _shortest(search)
            runs.append((steps, search.nodes))
        assert runs[0] == runs[1], (level.name, runs)
        assert runs[2][0] == runs[0][0]
        fewer += runs[1][1] < runs[2][1]
        checked += 1
        if fewer >= 1 and checked >= 8:
            break
    assert fewer >= 1


def test_the_search_with_clusters_keeps_the_optimum_on_larger_boards():
    """The compiled search with the commuting order and the cluster cost against the same search without it,
    on boards where the cluster cost raises the root bound (so it also prunes inside the search)."""
    if not HAVE_COMPILED:
        pytest.skip("the optima of boards this size need the compiled search")
    from kamicp.prover.search import CompiledIDAStar

    checked = 0
    for level in _spread_boards(60, seed=8):
        regions = regions_of(level)
        k = len(regions.palette)
        plain, raised = _root_bounds(regions)
        if raised == plain:
            continue
        optima = []
        for clusters in (0, 8):
            steps, plan = _shortest(CompiledIDAStar(regions.adj, regions.colours, k, clusters=clusters))
            optima.append(steps)
            assert len(plan) == steps
        assert optima[0] == optima[1], level.name
        checked += 1
    assert checked >= 2
