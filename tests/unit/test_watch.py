"""Progress that tells the truth (issue 36): the snapshots of a real solve, alone and in the race, have
monotone proven bounds, an increasing clock and a horizon between them; the watcher's own rules."""

from __future__ import annotations

import json
import time

import pytest

from kamicp.formats import load_level
from kamicp.prover.config import RaceOptions, SolveOptions
from kamicp.prover.estimate import Estimate
from kamicp.prover.request import Budget
from kamicp.prover.solver import solve
from kamicp.prover.watch import Snapshot, Watcher
from kamicp.runtime.clock import Deadline
from tests.helpers import HARD, PUZZLES


def sane(snaps: list[Snapshot], final_lower: int, final_upper: int | None) -> None:
    """Bounds never loosen, lower <= upper, the clock goes forward, a horizon lies between the bounds, and
    the last snapshot is the answer's."""
    assert snaps
    for a, b in zip(snaps, snaps[1:], strict=False):
        assert b.lower >= a.lower and b.elapsed >= a.elapsed
        assert a.upper is None or b.upper is not None and b.upper <= a.upper
    for s in snaps:
        assert s.upper is None or s.lower <= s.upper
        assert s.horizon is None or s.lower <= s.horizon and (s.upper is None or s.horizon < s.upper)
        assert s.rate is None or s.rate >= 0
        json.dumps(s.to_dict())
    last = snaps[-1]
    assert last.phase == "done" and last.horizon is None
    assert (last.lower, last.upper) == (final_lower, final_upper)


def test_the_race_reports_live_snapshots():
    """gen-tri-60b5c-proper-s700 outlasts a 0.01 s first slice: the race runs, and its parent reports the
    ledger's state about twice a second (proofs published by the workers, the search's live nodes)."""
    level = load_level(HARD / "gen-tri-60b5c-proper-s700.json")
    snaps: list[Snapshot] = []
    options = SolveOptions(race=RaceOptions(first_slice=0.01))
    res = solve(level, options=options, budget=Budget.start(3, engine="auto", watch=snaps.append))
    sane(snaps, res.lower_bound, res.upper_bound)
    phases = [s.phase for s in snaps]
    assert phases[0] == "prepare" and "slice" in phases
    if res.seconds > 1.5:  # (a quick proof may end the race before its first sample)
        assert "race" in phases and len(snaps) >= 3
        assert any(s.nodes > 0 for s in snaps)  # the search process's count, read from shared memory


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_one_engine_reports_its_horizons(engine: str):
    level = load_level(PUZZLES / "tri-harbour.json")  # bound 5, optimum 6: a horizon refuted
    snaps: list[Snapshot] = []
    res = solve(level, budget=Budget.start(20, engine=engine, watch=snaps.append))
    sane(snaps, res.lower_bound, res.upper_bound)
    assert engine in {s.phase for s in snaps}
    assert [s.horizon for s in snaps if s.horizon is not None][:1] == [res.bound.value] == [5]
    assert all(s.engine in (None, engine) for s in snaps)


def test_the_watcher_keeps_bounds_tight_and_asks_the_estimator():
    snaps: list[Snapshot] = []
    asked: list[int] = []

    def estimator(horizon: int, snap: Snapshot) -> Estimate:
        asked.append(horizon)
        return Estimate(horizon, 1e6, 2.0, 5e5, "test")

    w = Watcher(snaps.append, Deadline.never(), estimator=estimator)
    assert w.update(phase="search", lower=5, upper=9)
    w.on_lower(4)  # a stale, smaller bound is kept out
    w.on_best(11)  # a longer plan too
    w.on_horizon(6, "search")
    counter = [0]
    w.nodes = lambda: counter[0]
    counter[0] = 1000
    time.sleep(0.3)  # (a rate is measured over at least watch.MIN_SPAN)
    snap = w.sample()
    assert (snap.lower, snap.upper, snap.horizon, snap.engine) == (5, 9, 6, "search")
    assert snap.rate is not None and snap.rate > 0 and snap.nodes == 1000
    assert snap.estimate is not None and asked[-1] == 6
    assert snap.to_dict()["estimate"]["method"] == "test"
    w.on_lower(7)  # the horizon 6 was refuted meanwhile: a stale horizon is not shown
    assert w.last.horizon is None and w.last.lower == 7


def test_the_race_reader_shows_the_lowest_open_horizon_search_first():
    """The parent's reading of the ledger: the lowest horizon at or above the proven bound, the search's when
    both engines are on it (its rate is the one measured), 'cubes' when CP-SAT solves it in parts."""
    import multiprocessing as mp

    from kamicp.prover.outcome import EngineName, Horizon, Outcome, Result, Status
    from kamicp.prover.race import Ledger, ledger_reader

    ledger = Ledger(mp.get_context("fork"))
    snaps: list[Snapshot] = []
    watcher = Watcher(snaps.append, Deadline.never())
    quick = Result(level="x", status=Status.UNKNOWN, moves=(), lower_bound=8, upper_bound=11, max_steps=None,
                   proof=(), engine=EngineName.SEARCH, seconds=0.0, regions=1, colours=1)
    tick = ledger_reader(ledger, watcher, quick, SolveOptions())
    ledger.on_best(11)
    ledger.working[:] = [9, 9]  # (search, cpsat)
    tick()
    assert (snaps[-1].lower, snaps[-1].upper, snaps[-1].horizon, snaps[-1].engine) == (8, 11, 9, "search")
    ledger.publish(Horizon(8, Outcome.INFEASIBLE, 1.0, EngineName.CPSAT))  # 8 refuted: the bound rises
    ledger.working[:] = [-1, 9]
    ledger.claim(9, 4)
    ledger.refuted(9, 0)
    tick()
    last = snaps[-1]
    assert (last.lower, last.horizon, last.engine, last.cubes_done, last.cubes_total) == (9, 9, "cubes", 1, 4)


def test_an_unknown_race_answer_carries_the_open_horizons_estimate():
    """Watched (as the command line does), a race stopped by its time limit reports what refuting its open
    horizon would cost: the horizon is the proven lower bound, the estimate never below what the search
    visited, and the JSON (with its cluster plan) follows the solve schema. A faster machine may prove the
    level within the limit: then there is no estimate."""
    import jsonschema

    from kamicp.cli.report import result_data
    from kamicp.cli.schemas import schema
    from kamicp.prover.solver import Free

    level = load_level(HARD / "gen-tri-60b5c-proper-s700.json")
    snaps: list[Snapshot] = []
    res = solve(level, budget=Budget.start(5, engine="auto", watch=snaps.append))
    if res.status != "unknown":
        assert res.estimate is None
        return
    est = res.estimate
    assert est is not None and est.horizon == res.lower_bound and est.nodes >= 1 and est.rate > 0
    assert any(s.estimate is not None for s in snaps)
    data = result_data(level, res, Free())
    assert data["estimate"]["horizon"] == res.lower_bound and data["plan"]["core_hours"] > 0
    jsonschema.validate(data, schema("solve"), cls=jsonschema.Draft202012Validator)


def test_the_estimator_learns_the_race_searchs_horizons_from_snapshots():
    """The race's search refutes horizons in another process: the estimator records each one's cost from the
    live node count between its start and the next one's, only when the search proved it."""
    from kamicp.board.regions import regions_of
    from kamicp.prover.estimate import HorizonCost, HorizonEstimator
    from kamicp.prover.search import make_search

    regions = regions_of(load_level(HARD / "gen-tri-60b5c-proper-s700.json"))
    search = make_search(regions.adj, regions.colours, len(regions.palette))
    est = HorizonEstimator(search, [HorizonCost(6, 300, 0.01), HorizonCost(7, 30_000, 0.1)])
    snap = Snapshot(1.0, "race", 7, 10, 8, "search", nodes=1_000)
    assert est(8, snap) is None  # not armed: the parent's search may be running
    est.arm(by_search=lambda h: h != 8)
    first = est(8, snap)
    assert first is not None and first.horizon == 8
    est(9, Snapshot(3.0, "race", 8, 10, 9, "search", nodes=900_000))  # horizon 8: proven by CP-SAT, not learnt
    assert [h.horizon for h in est.history] == [6, 7]
    est(10, Snapshot(9.0, "race", 9, 11, 10, "search", nodes=5_000_000))
    assert est.history[-1] == HorizonCost(9, 4_100_000, 6.0)
    late = est(10, Snapshot(20.0, "race", 9, 11, 10, "search", nodes=4_000_000_000))
    assert late is not None and late.nodes >= 4_000_000_000 - 5_000_000  # never below what was visited
