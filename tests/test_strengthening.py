"""Every strengthening (models/strengthening.md) against exhaustive and reference search.

A sound constraint or pruning rule never changes an optimum: each one, alone and all together, must
refute horizon optimum - 1 and solve horizon optimum (and optimum + 1 on connected boards), on random
small boards with and without islands (disconnected boards). On a disconnected board "exactly T moves"
is not monotone in T (two single-region islands in two colours: 1 move, but not exactly 2), so the
horizon loop's proofs rest on refuting every horizon from the lower bound up, never on monotonicity.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from boards import random_graph, random_grid
from kamicp import verify
from kamicp.config import BoundOptions, CpSatOptions, RaceOptions, SearchOptions, SolveOptions, UpperOptions
from kamicp.coordination import Solo
from kamicp.engines import CpSatEngine
from kamicp.horizons import run_horizons
from kamicp.model import FloodModel, ModelOptions
from kamicp.outcome import Horizon, to_moves
from kamicp.regions import islands, regions_of
from kamicp.search import HAVE_COMPILED, CompiledIDAStar, IDAStar, make_search
from kamicp.solver import OPTIMAL, solve
from kamicp.upper import greedy
from oracle import bfs_optimum

NONE = ModelOptions(colour_count_bound=False, smallest_root=False, tight_colours=False, commuting_order=False,
                    symmetry=False)
VARIANTS = {
    "plain": NONE,
    "count": replace(NONE, colour_count_bound=True),
    "tight": replace(NONE, tight_colours=True),
    "commute": replace(NONE, commuting_order=True),
    "radius": replace(NONE, radius_bound=True),
    "symmetry": replace(NONE, symmetry=True),
    "all": ModelOptions(),  # the defaults
    "all+symmetry+radius": ModelOptions(symmetry=True, radius_bound=True, radius_window=2),
}
NO_UPPER = SolveOptions(upper=UpperOptions(beam=False, rollout=False))  # the greedy plan only
needs_compiled = pytest.mark.skipif(not HAVE_COMPILED, reason="compiled search not built")


def _board(seed: int):
    rng = random.Random(1000 + seed)
    kind = seed % 4
    if kind == 0:
        return random_grid(rng, "triangle", rng.randint(2, 4), rng.randint(3, 4), rng.randint(3, 4))
    if kind == 1:
        return random_grid(rng, "square", rng.randint(2, 4), rng.randint(2, 4), rng.randint(3, 4), hole_rate=0.25)
    if kind == 2:  # sparse: usually several islands
        return random_graph(rng, rng.randint(4, 8), rng.randint(2, 4), 0.2)
    return random_graph(rng, rng.randint(4, 8), rng.randint(2, 4), 0.45)


def _boards(count: int, max_regions: int = 9):
    out = []
    seed = 0
    while len(out) < count:
        level = _board(seed)
        seed += 1
        regions = regions_of(level)
        if regions.size > max_regions or len(set(regions.colors)) < 2:
            continue
        truth = bfs_optimum(level, limit=8)
        if truth is not None:
            out.append((seed, level, regions, truth[0]))
    return out


BOARDS = _boards(90, max_regions=12)


def _search_optimum(search, lb: int = 0) -> tuple[int, list]:
    t = lb
    while True:
        plan = search.within(t)
        if plan is not None:
            return t, plan
        t += 1


def _medium(count: int):
    """Larger boards (10-16 regions, some with islands); the optimum comes from the pure-Python
    reference search (itself checked against the oracle in test_crosscheck.py)."""
    rng = random.Random(99)
    out = []
    while len(out) < count:
        if len(out) % 3 == 2:
            level = random_graph(rng, rng.randint(10, 13), 4, 0.22)
        else:
            level = random_grid(rng, rng.choice(["triangle", "square"]), 4, 5, 4, hole_rate=0.1)
        regions = regions_of(level)
        if not 10 <= regions.size <= 16:
            continue
        opt = _search_optimum(IDAStar(regions.adj, regions.colors, len(regions.palette)))[0]
        out.append((len(out), level, regions, opt))
    return out


MEDIUM = _medium(12)


def _symmetric(count: int):
    """Mirror-symmetric square grids (each row followed by its reverse), where an involution exists."""
    from kamicp.level import Level
    from kamicp.symmetry import involution

    rng = random.Random(5)
    out = []
    while len(out) < count:
        rows, half, k = rng.randint(2, 3), rng.randint(2, 3), rng.randint(3, 4)
        grid = []
        for _ in range(rows):
            left = "".join(rng.choice("ABCD"[:k]) for _ in range(half))
            grid.append(left + left[::-1])
        level = Level.from_rows(grid, "square", name="mirror")
        regions = regions_of(level)
        if regions.size > 12 or len(set(regions.colors)) < 2 or involution(regions.adj, regions.colors) is None:
            continue
        opt = _search_optimum(IDAStar(regions.adj, regions.colors, len(regions.palette)))[0]
        out.append((len(out), level, regions, opt))
    return out


SYMMETRIC = _symmetric(10)


def test_the_boards_include_islands():
    assert sum(len(islands(r.size, r.adj)) > 1 for _, _, r, _ in BOARDS) >= 8


@pytest.mark.parametrize("name", list(VARIANTS))
def test_model_variant_keeps_every_optimum(name):
    options = VARIANTS[name]
    for seed, level, regions, opt in BOARDS + MEDIUM + SYMMETRIC:
        connected = len(islands(regions.size, regions.adj)) == 1
        for horizon in (opt - 1, opt, opt + 1, opt + 2):  # above opt: the monotonicity top-down relies on
            if horizon < 1 or (horizon > opt and not connected):
                continue
            out = FloodModel(regions, horizon, options).solve(workers=1)
            if horizon < opt:
                assert out.status == "infeasible", (name, seed, horizon)
            else:
                assert out.status == "feasible", (name, seed, horizon)
                verify(level, to_moves(regions, out.plan), max_moves=horizon)


def test_tight_colours_on_boards_with_no_wiggle_room():
    """Horizon = colours - 1 exactly: the tight rule is active from the first step."""
    checked = 0
    for seed, _level, regions, opt in BOARDS:
        k = len(set(regions.colors))
        if opt != k - 1:
            continue
        checked += 1
        for horizon in (opt - 1, opt):
            if horizon < 1:
                continue
            out = FloodModel(regions, horizon, VARIANTS["tight"]).solve(workers=1)
            assert out.status == ("feasible" if horizon == opt else "infeasible"), seed
    assert checked >= 3


def test_hints_do_not_change_answers():
    for seed, _level, regions, opt in BOARDS[:12]:
        plan = greedy(regions.adj, regions.colors, len(regions.palette))
        for horizon in (opt - 1, opt):
            if horizon < 1:
                continue
            model = FloodModel(regions, horizon, ModelOptions())
            model.add_plan_hint(plan)
            out = model.solve(workers=1)
            assert out.status == ("feasible" if horizon == opt else "infeasible"), seed


def test_adjacent_moves_that_do_not_repaint_the_others_colour_commute():
    """The swap lemma of strengthening.md §2, by the rules engine: a move on region P (old colour a, new
    colour c1) and then a move on another region M (new colour c2) give the same board in the other order
    whenever M is not adjacent to P or c2 != a; and the order matters in some adjacent case with c2 == a
    (so the exception is needed)."""
    from kamicp.level import Move
    from kamicp.rules import Board, apply_move

    checked = needed = 0
    for _seed, level, _regions, _opt in BOARDS[:40]:
        adj = level.adjacency()
        board = Board.start(level)
        keys = level.color_keys
        firsts = {min(board.region_at(v)) for v in range(level.size)}
        for p in sorted(firsts)[:4]:
            pcells = set(board.region_at(p))
            a = board.colors[p]
            for c1 in keys:
                if c1 == a:
                    continue
                after = apply_move(board, Move(p, c1))
                merged = set(after.region_at(p))
                for m in {min(after.region_at(v)) for v in range(level.size)} - {min(merged)}:
                    mcells = set(after.region_at(m))
                    if mcells & merged:
                        continue
                    adjacent = any(w in pcells for v in mcells for w in adj[v])
                    for c2 in keys:
                        if c2 == after.colors[m]:
                            continue
                        one = apply_move(after, Move(m, c2)).colors
                        assert set(board.region_at(m)) == mcells  # M was a region before P's move
                        first = apply_move(board, Move(m, c2))
                        still = set(first.region_at(p)) == pcells  # P is still a region after M's move
                        if not adjacent or c2 != a:
                            assert still and apply_move(first, Move(p, c1)).colors == one
                            checked += adjacent
                        else:
                            needed += not still or apply_move(first, Move(p, c1)).colors != one
    assert checked > 100 and needed > 10  # adjacent pairs that commute; pairs where the order matters


@needs_compiled
@pytest.mark.parametrize(("por", "adjacent"), [(0, True), (1, True), (2, True), (1, False), (2, False)])
def test_compiled_search_matches_oracle_and_python(por, adjacent):
    for seed, level, regions, opt in BOARDS:
        k = len(regions.palette)
        fast = CompiledIDAStar(regions.adj, regions.colors, k, por=por, por_adjacent=adjacent)
        t, plan = _search_optimum(fast)
        assert t == opt, seed
        verify(level, to_moves(regions, plan), max_moves=opt)
        ref = IDAStar(regions.adj, regions.colors, k)
        assert _search_optimum(ref)[0] == opt, seed
        if not por:  # same algorithm, same move order: same tree
            fast2 = CompiledIDAStar(regions.adj, regions.colors, k, por=False)
            ref2 = IDAStar(regions.adj, regions.colors, k)
            assert fast2.within(opt - 1) is None and ref2.within(opt - 1) is None
            assert fast2.nodes == ref2.nodes, seed


@needs_compiled
def test_compiled_search_with_symmetry_matches_the_reference():
    from kamicp.symmetry import involution

    found = 0
    for seed, level, regions, opt in BOARDS + SYMMETRIC:
        sigma = involution(regions.adj, regions.colors)
        if sigma is None:
            continue
        found += 1
        for por in (0, 2):
            s = CompiledIDAStar(regions.adj, regions.colors, len(regions.palette), por=por, symmetry=sigma)
            t, plan = _search_optimum(s)
            assert t == opt, (seed, por)
            verify(level, to_moves(regions, plan), max_moves=opt)
    assert found >= 10


@needs_compiled
def test_compiled_search_on_larger_boards_against_python_reference():
    rng = random.Random(7)
    for _ in range(6):
        level = random_grid(rng, "triangle", 5, 5, 4, hole_rate=0.05)
        regions = regions_of(level)
        k = len(regions.palette)
        a = _search_optimum(CompiledIDAStar(regions.adj, regions.colors, k, por=True))[0]
        b = _search_optimum(IDAStar(regions.adj, regions.colors, k))[0]
        assert a == b



@needs_compiled
def test_compiled_search_expands_the_reference_tree_on_boards_over_64_regions():
    """The compiled core decides a child's bound from its parent's distances (several 64-bit words per
    region set here); it must prune exactly the children the reference prunes: same node counts."""
    import time

    from kamicp.bounds import lower_bound
    from kamicp.search import SearchTimeout

    rng = random.Random(11)
    compared = 0
    while compared < 1:
        level = random_grid(rng, "triangle", 8, 16, 4, hole_rate=0.08, blobbiness=0.3)
        regions = regions_of(level)
        k = len(regions.palette)
        if len(regions.colors) <= 64 or len(islands(len(regions.adj), regions.adj)) != 1:
            continue
        fast = CompiledIDAStar(regions.adj, regions.colors, k, por=False)
        ref = IDAStar(regions.adj, regions.colors, k)
        for horizon in range(lower_bound(regions.adj, regions.colors, k), 30):
            try:
                ref_plan = ref.within(horizon, time.monotonic() + 2)
            except SearchTimeout:
                break
            fast_plan = fast.within(horizon)
            assert (fast_plan is None) == (ref_plan is None)
            assert fast.nodes == ref.nodes
            compared += ref.nodes > 100
            if ref_plan is not None:
                break

def test_make_search_falls_back_to_python():
    regions = BOARDS[0][2]
    assert isinstance(make_search(regions.adj, regions.colors, len(regions.palette), compiled=False), IDAStar)


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
def test_engines_with_everything_on_match_the_oracle(engine):
    for seed, level, _regions, opt in BOARDS[::3]:
        res = solve(level, engine=engine, workers=1)
        assert res.status == OPTIMAL and len(res.moves) == opt, (engine, seed)


def test_search_without_compiled_core_or_por():
    options = SolveOptions(search=SearchOptions(compiled=False, por=False))
    for seed, level, _regions, opt in BOARDS[::4]:
        res = solve(level, engine="search", options=options)
        assert res.status == OPTIMAL and len(res.moves) == opt, seed


@pytest.mark.slow
def test_portfolio_reaches_the_race_and_proves_no_solution():
    """Refuting horizon 9 of gen-tri-80b5c-proper-s702 (optimum 11, benchmarks/RESULTS.md) outlasts the
    first search slice, so both processes race (about 40 s on a loaded machine)."""
    from conftest import HARD
    from kamicp.formats import load_level
    from kamicp.solver import NO_SOLUTION, UNKNOWN

    level = load_level(HARD / "gen-tri-80b5c-proper-s702.json")
    messages: list[str] = []
    res = solve(level, engine="auto", max_steps=9, time_limit=120, progress=messages.append)
    assert "portfolio: search and cpsat racing" in messages
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    assert [h.steps for h in res.proof_by_horizon() if h.outcome == "infeasible"] == list(range(res.bound.value, 10))
    short = solve(level, engine="auto", time_limit=0.3)
    assert short.status == UNKNOWN and short.lower_bound <= 11 <= short.upper_bound


def test_portfolio_timeout_shows_each_answered_horizon_once():
    """When time runs out, the merged proof keeps both engines' answers but drops an 'unknown' for a
    horizon that the other engine (or a later attempt) answered."""
    from conftest import HARD
    from kamicp.formats import load_level
    from kamicp.solver import UNKNOWN

    path = HARD / "gen-tri-100b5c-proper-s704.json"  # open: 11..13 (benchmarks/RESULTS.md)
    res = solve(load_level(path), engine="auto", time_limit=8)  # the slice leaves 8 open; the race refutes it
    assert res.status == UNKNOWN and res.lower_bound < res.upper_bound
    answered = {h.steps for h in res.proof if h.outcome not in ("unknown",)}
    assert not any(h.outcome == "unknown" and h.steps in answered for h in res.proof)
    infeasible = sorted({h.steps for h in res.proof if h.outcome == "infeasible"})
    assert infeasible == list(range(res.bound.value, res.lower_bound))  # contiguous from the bound


def _bench(name: str):
    """A larger generated level of benchmarks/levels (benchmarks/generate.py)."""
    from conftest import HARD
    from kamicp.formats import load_level

    return load_level(HARD / f"{name}.json")


def test_ledger_keeps_only_proofs():
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    ledger = Ledger(mp.get_context())
    ledger.publish(Horizon(5, "unknown", 1.0, "cpsat"))
    ledger.publish(Horizon(6, "feasible", 1.0, "search"))
    ledger.publish(Horizon(7, "infeasible", 2.5, "cpsat"))
    ledger.publish(Horizon(7, "infeasible", 9.0, "search"))  # the first proof stays
    assert [ledger.proven(h) for h in (5, 6, 8, -1, 10_000)] == [None] * 5
    assert ledger.proven(7) == Horizon(7, "infeasible", 2.5, "cpsat")
    assert ledger.stopper(7)() and not ledger.stopper(8)()


@pytest.mark.skipif(not HAVE_COMPILED, reason="compiled core not built")
def test_compiled_search_stops_a_horizon_another_process_proved():
    """Refuting horizon 9 of gen-tri-90b5c-mirror-proper-s703 takes minutes; with its flag set the search
    stops at once (as on a timeout), and other horizons are not affected."""
    import ctypes
    import time

    from kamicp.search import SearchTimeout

    regions = regions_of(_bench("gen-tri-90b5c-mirror-proper-s703"))
    search = CompiledIDAStar(regions.adj, regions.colors, len(regions.palette))
    flags = (ctypes.c_int * 32)()
    assert search.stop_on(flags)
    flags[9] = 1
    t0 = time.monotonic()
    with pytest.raises(SearchTimeout):
        search.within(9, time.monotonic() + 60)
    assert time.monotonic() - t0 < 5
    assert search.within(7) is None  # still refuted: flag 7 is not set


def test_cpsat_stops_when_told():
    import time

    regions = regions_of(_bench("gen-tri-90b5c-mirror-proper-s703"))
    t0 = time.monotonic()
    out = FloodModel(regions, 9).solve(time_limit=60, workers=1, stop=lambda: time.monotonic() - t0 > 0.5)
    assert out.status == "unknown" and time.monotonic() - t0 < 10


@pytest.mark.parametrize("top_down", [False, True])
def test_solve_takes_horizons_from_the_ledger(top_down):
    """A horizon in the ledger is not searched again; one proved while being searched stops the search, and
    the proof cites the engine that proved it. With top-down (a connected board), the proof of 8 also
    implies 7, which is then not searched either."""
    import multiprocessing as mp
    import threading

    from kamicp.portfolio import Ledger
    from kamicp.solver import NO_SOLUTION

    level = _bench("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context())
    ledger.publish(Horizon(8, "infeasible", 4.0, "cpsat"))
    # horizon 9 "proved by the other process" one second in (the search alone needs minutes)
    timer = threading.Timer(1.0, ledger.publish, args=(Horizon(9, "infeasible", 12.0, "cpsat"),))
    timer.start()
    res = run_horizons(level, "search", max_steps=9, time_limit=60, coordinator=ledger,  # (without the clusters,
                       options=SolveOptions(race=RaceOptions(top_down=top_down),  # the bound is 7, 9 slow)
                                            bound=BoundOptions(clusters=0), search=SearchOptions(clusters=0)))
    timer.join()
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    rows = [(h.steps, h.outcome, h.engine) for h in res.proof if h.outcome != "bound"]
    seven = (7, "implied", "cpsat") if top_down else (7, "infeasible", "search")
    assert rows == [seven, (8, "infeasible", "cpsat"), (9, "infeasible", "cpsat")]
    assert res.seconds < 30


def test_first_move_cubes_cover_the_model():
    """Solving a horizon as first-move cubes gives the whole model's answer: a cube is feasible only
    where the horizon is, and every horizon that is feasible has a feasible cube (strengthening.md §8)."""
    checked = 0
    for seed, level, regions, opt in BOARDS[:30]:
        for horizon in (opt - 1, opt):
            if horizon < 1:
                continue
            model = FloodModel(regions, horizon)
            outs = [model.solve(workers=1, cube=(p, 3)) for p in range(3)]
            feasible = [o for o in outs if o.status == "feasible"]
            assert all(o.status in ("feasible", "infeasible") for o in outs)
            assert bool(feasible) == (horizon == opt), (seed, horizon)
            for o in feasible:
                verify(level, to_moves(regions, o.plan), max_moves=horizon)
            checked += 1
    assert checked >= 40


def test_cpsat_engine_in_cubes_matches_the_oracle():
    """With no time for the whole model, every horizon is solved in cubes (taken in turn, or through a
    ledger as in the race): the optima stay the oracle's."""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    options = SolveOptions(cpsat=CpSatOptions(cube_after=0.0), upper=UpperOptions(beam=False))
    for i, (seed, level, _regions, opt) in enumerate(BOARDS[:16]):
        ledger = Ledger(mp.get_context()) if i % 2 else Solo()
        res = run_horizons(level, "cpsat", time_limit=60, workers=1, options=options, coordinator=ledger)
        assert res.status == OPTIMAL and len(res.moves) == opt, seed


def test_ledger_hands_out_each_cube_once_and_calls_the_search_after_its_grace():
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    ledger = Ledger(mp.get_context())
    assert not ledger.cubing(9)
    got = [ledger.claim(9, 4) for _ in range(5)]
    assert got == [0, 1, 2, 3, None] and ledger.cubing(9) and not ledger.cubing(8)
    for p in (0, 1, 3):
        ledger.refuted(9, p)
    assert not ledger.all_refuted(9, 4)
    ledger.refuted(9, 2)
    assert ledger.all_refuted(9, 4)
    # the search is asked to help only once it has spent its grace on the horizon, and never on a proven one
    patient = Ledger(mp.get_context(), RaceOptions(search_grace=3600.0))
    patient.search_started(10)
    patient.nudge(10)
    assert not patient.halted(10)
    ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.0))
    ledger.search_started(10)
    ledger.nudge(10)
    assert ledger.halted(10) and not ledger.halted(11)

    ledger.publish(Horizon(10, "infeasible", 1.0, "cpsat"))
    assert not ledger.halted(10) and ledger.halt[10]


def test_two_cpsat_workers_share_the_cubes():
    """Two CP-SAT runs with one ledger (as the race's processes, here threads) split each horizon's cubes
    and both report the oracle's optimum."""
    import multiprocessing as mp
    import threading

    from kamicp.portfolio import Ledger

    options = SolveOptions(cpsat=CpSatOptions(cube_after=0.0, hints=False), upper=UpperOptions(beam=False))
    for seed, level, _regions, opt in MEDIUM[:4]:
        ledger = Ledger(mp.get_context())
        results = []

        def run(s, lvl=level, led=ledger, out=results):
            out.append(run_horizons(lvl, "cpsat", time_limit=60, workers=1, seed=s, options=options,
                                    coordinator=led))

        threads = [threading.Thread(target=run, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # one finds the optimum; the other too, or it stops as 'unknown' once the other's cube is solved
        assert (OPTIMAL, opt) in [(r.status, len(r.moves)) for r in results], seed
        assert all(r.status == OPTIMAL and len(r.moves) == opt or r.status == "unknown" and r.lower_bound <= opt
                   for r in results), seed


def _search_while_cubes_ask_for_help(level, ledger, cubes_at: int, search_at: int):
    """The race's search process (up to horizon 9) while "the CP-SAT process" (a thread) has refuted three
    of the four cubes of horizon `cubes_at` and asks for help until the search stops on `search_at`."""
    import threading


    for _ in range(3):
        ledger.refuted(cubes_at, ledger.claim(cubes_at, 4))

    def other():
        end = time.monotonic() + 30
        while not ledger.halted(search_at) and time.monotonic() < end:
            ledger.nudge(cubes_at, below=search_at < cubes_at)
            time.sleep(0.01)

    helper = threading.Thread(target=other)
    helper.start()
    res = run_horizons(level, "search", max_steps=9, time_limit=120, coordinator=ledger,  # without the clusters:
                       options=SolveOptions(bound=BoundOptions(clusters=0), search=SearchOptions(clusters=0)))
    helper.join()  # (with them the bound is 8 and the search refutes 9 alone in seconds)
    return res


def test_search_joins_the_cubes_when_asked():
    """The race's search, asked to help after its grace, leaves its horizon to CP-SAT's cubes: it solves
    the cube still open and the horizon counts as refuted once every cube is (gen-tri-90b5c-mirror-proper-s703,
    horizon 9: minutes for the search alone)."""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger
    from kamicp.solver import NO_SOLUTION

    level = _bench("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.5))
    for h in (7, 8):
        ledger.publish(Horizon(h, "infeasible", 1.0, "cpsat"))

    res = _search_while_cubes_ask_for_help(level, ledger, cubes_at=9, search_at=9)
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    assert [(h.steps, h.engine) for h in res.proof if h.outcome == "infeasible"][-1] == (9, "cpsat")
    assert ledger.all_refuted(9, 4)


def test_cpsat_cubes_ask_the_search_for_help_only_on_boards_up_to_the_size_limit():
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    _seed, _level, regions, opt = MEDIUM[0]
    for limit, asked in ((regions.size, True), (regions.size - 1, False)):
        ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.0, search_helps_up_to=limit))
        ledger.search_started(opt - 1)
        engine = CpSatEngine(regions, workers=1, seed=0, model=ModelOptions(),
                             cpsat=CpSatOptions(hints=False, cube_after=0.0), coordinator=ledger)
        assert engine.horizon(opt - 1, None) == ("infeasible", None)
        assert ledger.halted(opt - 1) == asked and ledger.all_refuted(opt - 1, 4)


def test_cpsat_engine_solves_a_part_the_other_process_holds_instead_of_waiting():
    """A part taken by the other process and never finished (here: by nobody) is solved again, with
    another seed, instead of waiting for it; the horizon is then refuted by this engine's own solves."""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    _seed, _level, regions, opt = MEDIUM[1]
    ledger = Ledger(mp.get_context())
    assert ledger.claim(opt - 1, 4) == 0  # "the other process" holds part 0
    assert ledger.unfinished(opt - 1, 4) == 0 and not ledger.finished(opt - 1, 0)
    engine = CpSatEngine(regions, workers=1, seed=0, model=ModelOptions(),
                         cpsat=CpSatOptions(hints=False, cube_after=0.0), coordinator=ledger)
    assert engine.horizon(opt - 1, time.monotonic() + 60) == ("infeasible", None)
    assert ledger.all_refuted(opt - 1, 4) and ledger.finished(opt - 1, 0) and ledger.unfinished(opt - 1, 4) is None



# --- top-down (the race's CP-SAT on connected boards) and rollouts -------------------------------------


def _connected(entries):
    return [e for e in entries if len(islands(e[2].size, e[2].adj)) == 1]


def _greedy_above(count: int):
    """Connected boards (10-16 regions) where the greedy solution is longer than the optimum, so a top-down
    run solves horizons on its way down; the optimum comes from the reference search."""
    rng = random.Random(7)
    out = []
    while len(out) < count:
        level = random_grid(rng, rng.choice(["triangle", "square"]), 4, 5, 4, hole_rate=0.0)
        regions = regions_of(level)
        if not 10 <= regions.size <= 16:
            continue
        opt = _search_optimum(IDAStar(regions.adj, regions.colors, len(regions.palette)))[0]
        if len(greedy(regions.adj, regions.colors, len(regions.palette))) > opt:
            out.append((len(out), level, regions, opt))
    return out


def _proof_covers(res, opt: int) -> None:
    """Every horizon below the optimum is ruled out by a row (bound, proven or implied by the next)."""
    rows = {h.steps: h for h in res.proof_by_horizon()}
    bound = [h.steps for h in res.proof if h.outcome == "bound"]
    for t in range(bound[0] + 1 if bound else 0, opt):
        assert rows[t].outcome in ("infeasible", "implied"), (t, rows)
        if rows[t].outcome == "implied":
            assert rows[t + 1].outcome in ("infeasible", "implied")
    assert rows[opt].outcome == "feasible"


@pytest.mark.parametrize(("cubes", "span"), [(False, 2), (True, 2), (False, 99), (True, 99)])
def test_top_down_matches_the_oracle(cubes, span):
    """The race's CP-SAT process, going top-down once at most `top_down_span` horizons are left below the
    greedy solution (no beam, no rollouts: often above the optimum, so it also solves horizons on the way
    down), reports the oracle's optimum with a proof that covers every shorter horizon. With a span
    larger than any horizon it goes top-down from the start. (Horizons shown as implied need a bound two
    below the optimum, which these boards do not have: see the ledger and proof-table tests.)"""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    options = SolveOptions(cpsat=CpSatOptions(cube_after=0.0 if cubes else 2.0),
                           upper=UpperOptions(beam=False, rollout=False), race=RaceOptions(top_down_span=span))
    descended = 0
    for seed, level, _regions, opt in _connected(BOARDS)[:12] + _greedy_above(6):
        res = run_horizons(level, "cpsat", time_limit=60, workers=1, options=options,
                           coordinator=Ledger(mp.get_context()))
        assert res.status == OPTIMAL and len(res.moves) == opt == res.lower_bound, seed
        verify(level, res.moves, max_moves=opt)
        _proof_covers(res, opt)
        refuted = [h.steps for h in res.proof if h.outcome == "infeasible"]
        assert all(t < opt for t in refuted), seed
        if span > opt:  # top-down from the start: the horizon below the optimum is the only one solved
            assert refuted in ([], [opt - 1]), (seed, res.proof)
        descended += any(h.outcome == "feasible" and h.engine == "cpsat" for h in res.proof)
    assert descended >= 2  # some greedy solutions were above the optimum: CP-SAT solved the way down


def test_top_down_with_max_steps_proves_no_solution():
    """Top-down from --max-steps: that horizon refuted means no solution within it."""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger
    from kamicp.solver import NO_SOLUTION

    checked = 0
    for _seed, level, _regions, opt in _connected(BOARDS):
        if opt < 3:
            continue
        res = run_horizons(level, "cpsat", max_steps=opt - 1, time_limit=60, workers=1,
                           options=NO_UPPER, coordinator=Ledger(mp.get_context()))
        assert res.status == NO_SOLUTION and res.lower_bound == opt
        checked += 1
    assert checked >= 5


def test_top_down_is_used_only_on_connected_boards():
    """On a board with islands horizons are not monotone, so the race's CP-SAT goes up as before."""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    split = [e for e in BOARDS if len(islands(e[2].size, e[2].adj)) > 1 and e[3] >= 3][:6]
    assert split
    for seed, level, _regions, opt in split:
        res = run_horizons(level, "cpsat", time_limit=60, workers=1,
                           options=NO_UPPER, coordinator=Ledger(mp.get_context()))
        assert res.status == OPTIMAL and len(res.moves) == opt, seed
        assert not any(h.outcome == "implied" for h in res.proof), seed


def test_race_with_top_down_end_to_end():
    """The real race (processes; the CP-SAT one top-down), with no first slice so it always runs: the
    reference search's optima, with proofs that cover every shorter horizon, whoever wins."""

    options = SolveOptions(race=RaceOptions(first_slice=-1.0))  # (a slice that ends before it starts)
    raced = 0
    for seed, level, _regions, opt in _connected(MEDIUM)[:3] + _greedy_above(3):
        messages: list[str] = []
        res = solve(level, engine="auto", time_limit=120, progress=messages.append, options=options)
        raced += "portfolio: search and cpsat racing" in messages  # (not when the upper bound meets the bound)
        assert res.status == OPTIMAL and len(res.moves) == opt, seed
        verify(level, res.moves, max_moves=opt)
        _proof_covers(res, opt)
    assert raced >= 4


def test_ledger_lets_the_search_leave_a_lower_horizon_only_when_monotone():
    import multiprocessing as mp

    from kamicp.portfolio import Ledger

    ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.0))
    ledger.search_started(8)
    assert ledger.claim(10, 4) == 0 and ledger.cubing_above(8) == 10 and ledger.cubing_above(10) is None
    ledger.nudge(10)
    assert not ledger.halted(8)  # not monotone: the search keeps its horizon
    ledger.nudge(10, below=True)
    assert ledger.halted(8)
    assert ledger.proven_from(8) is None
    ledger.publish(Horizon(10, "infeasible", 2.0, "cpsat"))
    assert ledger.proven_from(8) == Horizon(10, "infeasible", 2.0, "cpsat") and ledger.proven_from(11) is None
    assert ledger.proven(8) is None and ledger.cubing_above(8) is None


def test_search_leaves_its_horizon_for_a_higher_horizons_cubes():
    """Asked for help while on horizon 8, the race's search joins CP-SAT's cubes of horizon 9 (top-down):
    it solves the open cube, and horizon 9 refuted implies 8 (gen-tri-90b5c-mirror-proper-s703, a connected board)."""
    import multiprocessing as mp

    from kamicp.portfolio import Ledger
    from kamicp.solver import NO_SOLUTION

    level = _bench("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.0))
    ledger.publish(Horizon(7, "infeasible", 1.0, "cpsat"))
    res = _search_while_cubes_ask_for_help(level, ledger, cubes_at=9, search_at=8)
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    rows = [(h.steps, h.outcome, h.engine) for h in res.proof if h.outcome != "bound"]
    assert rows == [(7, "infeasible", "cpsat"), (8, "implied", "cpsat"), (9, "infeasible", "cpsat")]
    assert ledger.all_refuted(9, 4)


@needs_compiled
def test_rollout_plans_are_solutions_within_the_limit():
    """Rollout plans replay, never beat the oracle's optimum and respect the limit."""
    from kamicp.search import rollout_plan

    found = 0
    for seed, level, regions, opt in BOARDS + MEDIUM:
        k = len(regions.palette)
        plan = rollout_plan(regions.adj, regions.colors, k, 2 * regions.size, seconds=5)
        if len(islands(regions.size, regions.adj)) > 1:
            assert plan is None or regions.size == 1, seed  # one pivot cannot flood several islands
            continue
        assert plan is not None, seed
        verify(level, to_moves(regions, plan))
        assert len(plan) >= opt, seed
        found += len(plan) == opt
        assert rollout_plan(regions.adj, regions.colors, k, opt - 1, seconds=5) is None, seed
        short = rollout_plan(regions.adj, regions.colors, k, len(plan), seconds=5)
        assert short is not None and len(short) <= len(plan)
    assert found >= 20


@needs_compiled
def test_rollouts_find_the_optimum_the_beam_misses():
    """gen-tri-110b5c-mirror-proper-s705: the beam gives 13 moves (12 in some runs), one move
    and a pivot rollout 12 (the optimum, proven in 404 s: benchmarks/RESULTS.md)."""
    from kamicp.search import beam_plan, rollout_plan

    level = _bench("gen-tri-110b5c-mirror-proper-s705")
    regions = regions_of(level)
    k = len(regions.palette)
    assert len(beam_plan(regions.adj, regions.colors, k, seconds=2)) >= 12  # never below the optimum
    plan = rollout_plan(regions.adj, regions.colors, k, 12, seconds=60)
    assert plan is not None and len(plan) == 12
    verify(level, to_moves(regions, plan))


def test_proof_table_shows_implied_horizons_as_one_row():
    import multiprocessing as mp

    from rich.console import Console

    from kamicp.cli.report import proof_table as _proof_table
    from kamicp.portfolio import Ledger

    level = _bench("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context())
    ledger.publish(Horizon(9, "infeasible", 12.0, "cpsat"))  # implies 7 and 8 (the bound says 7
    res = run_horizons(level, "search", max_steps=9, time_limit=60, coordinator=ledger,  # without the clusters)
                       options=SolveOptions(bound=BoundOptions(clusters=0), search=SearchOptions(clusters=0)))
    assert [h.outcome for h in res.proof_by_horizon()] == ["bound", "implied", "implied", "infeasible"]
    console = Console(width=120, record=True)
    console.print(_proof_table(res))
    text = console.export_text()
    assert "7-8" in text and "implied by 9" in text and text.count("implied by") == 1
