"""The race's coordination, one mechanism at a time: the ledger (proofs only, cubes handed out once, the
search's grace, leaving a lower horizon only when monotone), engines stopped by a flag, top-down only on
connected boards, and the portfolio's merged proof; on the larger generated levels of benchmarks/levels."""

from __future__ import annotations

import time

import pytest

from kamicp.board.regions import islands, regions_of
from kamicp.prover.config import BoundOptions, CpSatOptions, RaceOptions, SearchOptions, SolveOptions, UpperOptions
from kamicp.prover.engines import CpSatEngine
from kamicp.prover.horizons import run_horizons
from kamicp.prover.model import FloodModel, ModelOptions
from kamicp.prover.outcome import Horizon
from kamicp.prover.search import HAVE_COMPILED, CompiledIDAStar, IDAStar, make_search
from kamicp.prover.solver import OPTIMAL, solve
from kamicp.runtime.clock import Deadline
from tests.helpers.boardsets import BOARDS, MEDIUM, bench_level, connected
from tests.helpers.requests import kami_request

NO_UPPER = SolveOptions(upper=UpperOptions(beam=False, rollout=False))  # the greedy plan only


def test_make_search_falls_back_to_python():
    regions = BOARDS[0][2]
    assert isinstance(make_search(regions.adj, regions.colours, len(regions.palette), compiled=False), IDAStar)


@pytest.mark.slow
def test_portfolio_reaches_the_race_and_proves_no_solution():
    """Refuting horizon 9 of gen-tri-80b5c-proper-s702 (optimum 11, benchmarks/RESULTS.md) outlasts a
    first search slice of 0.01 s (the default's 0.4 s it may not, on a quiet machine), so both processes
    race (about 40 s on a loaded machine)."""
    from kamicp.formats import load_level
    from kamicp.prover.config import RaceOptions, SolveOptions
    from kamicp.prover.solver import NO_SOLUTION, UNKNOWN
    from tests.helpers import HARD

    level = load_level(HARD / "gen-tri-80b5c-proper-s702.json")
    messages: list[str] = []
    options = SolveOptions(race=RaceOptions(first_slice=0.01))
    res = solve(level, engine="auto", max_steps=9, time_limit=120, progress=messages.append, options=options)
    assert "portfolio: search and cpsat racing" in messages
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    assert [h.steps for h in res.proof_by_horizon() if h.outcome == "infeasible"] == list(range(res.bound.value, 10))
    short = solve(level, engine="auto", time_limit=0.3)
    assert short.status == UNKNOWN and short.lower_bound <= 11 <= short.upper_bound


@pytest.mark.slow  # (8 s; the time-limit path is also covered by the CLI tests)
def test_portfolio_timeout_shows_each_answered_horizon_once():
    """When time runs out, the merged proof keeps both engines' answers but drops an 'unknown' for a
    horizon that the other engine (or a later attempt) answered."""
    from kamicp.formats import load_level
    from kamicp.prover.solver import UNKNOWN
    from tests.helpers import HARD

    path = HARD / "gen-tri-100b5c-proper-s704.json"  # open: 11..13 (benchmarks/RESULTS.md)
    res = solve(load_level(path), engine="auto", time_limit=8)  # the slice leaves 8 open; the race refutes it
    assert res.status == UNKNOWN and res.lower_bound < res.upper_bound
    answered = {h.steps for h in res.proof if h.outcome not in ("unknown",)}
    assert not any(h.outcome == "unknown" and h.steps in answered for h in res.proof)
    infeasible = sorted({h.steps for h in res.proof if h.outcome == "infeasible"})
    assert infeasible == list(range(res.bound.value, res.lower_bound))  # contiguous from the bound


def test_ledger_keeps_only_proofs():
    import multiprocessing as mp

    from kamicp.prover.race import Ledger

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

    from kamicp.prover.search import SearchTimeout

    regions = regions_of(bench_level("gen-tri-90b5c-mirror-proper-s703"))
    search = CompiledIDAStar(regions.adj, regions.colours, len(regions.palette))
    flags = (ctypes.c_int * 32)()
    assert search.stop_on(flags)
    flags[9] = 1
    t0 = time.monotonic()
    with pytest.raises(SearchTimeout):
        search.within(9, Deadline.slice(60))
    assert time.monotonic() - t0 < 5
    assert search.within(7) is None  # still refuted: flag 7 is not set


def test_cpsat_stops_when_told():
    import time

    regions = regions_of(bench_level("gen-tri-90b5c-mirror-proper-s703"))
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

    from kamicp.prover.race import Ledger
    from kamicp.prover.solver import NO_SOLUTION

    level = bench_level("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context())
    ledger.publish(Horizon(8, "infeasible", 4.0, "cpsat"))
    # horizon 9 "proved by the other process" one second in (the search alone needs minutes)
    timer = threading.Timer(1.0, ledger.publish, args=(Horizon(9, "infeasible", 12.0, "cpsat"),))
    timer.start()
    res = run_horizons(kami_request(level, "search", 60, max_steps=9), coordinator=ledger,  # (no clusters,
                       options=SolveOptions(race=RaceOptions(top_down=top_down),  # the bound is 7, 9 slow)
                                            bound=BoundOptions(clusters=0, pivot=0), search=SearchOptions(clusters=0)))
    timer.join()
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    rows = [(h.steps, h.outcome, h.engine) for h in res.proof if h.outcome != "bound"]
    seven = (7, "implied", "cpsat") if top_down else (7, "infeasible", "search")
    assert rows == [seven, (8, "infeasible", "cpsat"), (9, "infeasible", "cpsat")]
    assert res.seconds < 30


def test_ledger_hands_out_each_cube_once_and_calls_the_search_after_its_grace():
    import multiprocessing as mp

    from kamicp.prover.race import Ledger

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
    res = run_horizons(kami_request(level, "search", 120, max_steps=9), coordinator=ledger,  # no clusters, no
                       options=SolveOptions(bound=BoundOptions(clusters=0, pivot=0),  # pivot relation:
                                            search=SearchOptions(clusters=0, pivot=0)))
    helper.join()  # (with them the bound is 8 and the search refutes 8 and 9 alone in seconds)
    return res


def test_search_joins_the_cubes_when_asked():
    """The race's search, asked to help after its grace, leaves its horizon to CP-SAT's cubes: it solves
    the cube still open and the horizon counts as refuted once every cube is (gen-tri-90b5c-mirror-proper-s703,
    horizon 9: minutes for the search alone)."""
    import multiprocessing as mp

    from kamicp.prover.race import Ledger
    from kamicp.prover.solver import NO_SOLUTION

    level = bench_level("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.5))
    for h in (7, 8):
        ledger.publish(Horizon(h, "infeasible", 1.0, "cpsat"))

    res = _search_while_cubes_ask_for_help(level, ledger, cubes_at=9, search_at=9)
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    assert [(h.steps, h.engine) for h in res.proof if h.outcome == "infeasible"][-1] == (9, "cpsat")
    assert ledger.all_refuted(9, 4)


def test_cpsat_cubes_ask_the_search_for_help_only_on_boards_up_to_the_size_limit():
    import multiprocessing as mp

    from kamicp.prover.race import Ledger

    _seed, _level, regions, opt = MEDIUM[0]
    for limit, asked in ((regions.size, True), (regions.size - 1, False)):
        ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.0, search_helps_up_to=limit))
        ledger.search_started(opt - 1)
        engine = CpSatEngine(regions, workers=1, seed=0, model=ModelOptions(),
                             cpsat=CpSatOptions(hints=False, cube_after=0.0), coordinator=ledger)
        assert engine.horizon(opt - 1, Deadline.never()) == ("infeasible", None)
        assert ledger.halted(opt - 1) == asked and ledger.all_refuted(opt - 1, 4)


def test_cpsat_engine_solves_a_part_the_other_process_holds_instead_of_waiting():
    """A part taken by the other process and never finished (here: by nobody) is solved again, with
    another seed, instead of waiting for it; the horizon is then refuted by this engine's own solves."""
    import multiprocessing as mp

    from kamicp.prover.race import Ledger

    _seed, _level, regions, opt = MEDIUM[1]
    ledger = Ledger(mp.get_context())
    assert ledger.claim(opt - 1, 4) == 0  # "the other process" holds part 0
    assert ledger.unfinished(opt - 1, 4) == 0 and not ledger.finished(opt - 1, 0)
    engine = CpSatEngine(regions, workers=1, seed=0, model=ModelOptions(),
                         cpsat=CpSatOptions(hints=False, cube_after=0.0), coordinator=ledger)
    assert engine.horizon(opt - 1, Deadline.slice(60)) == ("infeasible", None)
    assert ledger.all_refuted(opt - 1, 4) and ledger.finished(opt - 1, 0) and ledger.unfinished(opt - 1, 4) is None


def test_top_down_with_max_steps_proves_no_solution():
    """Top-down from --max-steps: that horizon refuted means no solution within it."""
    import multiprocessing as mp

    from kamicp.prover.race import Ledger
    from kamicp.prover.solver import NO_SOLUTION

    checked = 0
    for _seed, level, _regions, opt in connected(BOARDS):
        if opt < 3:
            continue
        res = run_horizons(kami_request(level, "cpsat", 60, max_steps=opt - 1, workers=1),
                           options=NO_UPPER, coordinator=Ledger(mp.get_context()))
        assert res.status == NO_SOLUTION and res.lower_bound == opt
        checked += 1
    assert checked >= 5


def test_top_down_is_used_only_on_connected_boards():
    """On a board with islands horizons are not monotone, so the race's CP-SAT goes up as before."""
    import multiprocessing as mp

    from kamicp.prover.race import Ledger

    split = [e for e in BOARDS if len(islands(e[2].size, e[2].adj)) > 1 and e[3] >= 3][:6]
    assert split
    for seed, level, _regions, opt in split:
        res = run_horizons(kami_request(level, "cpsat", 60, workers=1),
                           options=NO_UPPER, coordinator=Ledger(mp.get_context()))
        assert res.status == OPTIMAL and len(res.moves) == opt, seed
        assert not any(h.outcome == "implied" for h in res.proof), seed


def test_ledger_lets_the_search_leave_a_lower_horizon_only_when_monotone():
    import multiprocessing as mp

    from kamicp.prover.race import Ledger

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

    from kamicp.prover.race import Ledger
    from kamicp.prover.solver import NO_SOLUTION

    level = bench_level("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context(), RaceOptions(search_grace=0.0))
    ledger.publish(Horizon(7, "infeasible", 1.0, "cpsat"))
    res = _search_while_cubes_ask_for_help(level, ledger, cubes_at=9, search_at=8)
    assert res.status == NO_SOLUTION and res.lower_bound == 10
    rows = [(h.steps, h.outcome, h.engine) for h in res.proof if h.outcome != "bound"]
    assert rows == [(7, "infeasible", "cpsat"), (8, "implied", "cpsat"), (9, "infeasible", "cpsat")]
    assert ledger.all_refuted(9, 4)


def test_a_worker_that_misses_its_deadline_keeps_its_proofs_in_the_merged_answer(monkeypatch):
    """A worker that sends no result in time (a loaded machine) still published its refuted horizons to the
    ledger: the merged answer keeps them, rows and lower bound (they were dropped, issue 37)."""
    from kamicp.formats import load_level
    from kamicp.prover import race
    from tests.helpers import HARD

    def late(conns, procs, deadline, progress, tick=None):  # every result lost: only the ledger speaks
        for proc in procs.values():
            proc.join(60)
        return {}

    monkeypatch.setattr(race, "collect", late)
    level = load_level(HARD / "gen-tri-60b5c-proper-s700.json")
    res = solve(level, engine="auto", time_limit=6, options=SolveOptions(race=RaceOptions(first_slice=0.01)))
    refuted = [h.steps for h in res.proof_by_horizon() if h.outcome == "infeasible"]
    assert refuted and refuted[-1] == res.lower_bound - 1
    assert refuted == list(range(refuted[0], res.lower_bound))
