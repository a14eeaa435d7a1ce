"""The estimate of an open horizon's cost (kamicp/prover/estimate.py) and the compiled search's Knuth probes
behind it: the probes' mean agrees with an exact count of the same pruned tree, probing changes nothing in
the search, and `estimate_open` says nothing without measured horizons."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kamicp.board.regions import regions_of
from kamicp.formats import load_level
from kamicp.prover.bounds import bound_report
from kamicp.prover.estimate import Estimate, HorizonCost, calibrated_knuth, estimate_open, growth, rate
from kamicp.prover.search import HAVE_COMPILED, CompiledIDAStar, IDAStar
from kamicp.runtime.clock import Deadline
from tests.helpers.boards import random_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "levels"
compiled = pytest.mark.skipif(not HAVE_COMPILED, reason="compiled core not built")


def _boards(count: int, seed: int):
    """Small random grids of 12 to 40 regions (trees of thousands of nodes at a few horizons)."""
    rng = random.Random(seed)
    while count:
        level = random_grid(rng, rng.choice(["triangle", "square"]), rng.randint(4, 6), rng.randint(4, 6),
                            rng.randint(3, 4), hole_rate=0.05)
        regions = regions_of(level)
        if 12 <= regions.size <= 40:
            count -= 1
            yield regions


def _search(regions, **kw) -> CompiledIDAStar:
    return CompiledIDAStar(regions.adj, regions.colours, len(regions.palette), clusters=4, **kw)


def _root(regions) -> int:
    return bound_report(regions.adj, regions.colours, len(regions.palette)).value


@compiled
def test_knuth_mean_agrees_with_the_exact_count_of_the_same_tree():
    """Unbiased: over fixed seeds the probes' means add up to the exact counts' sum within 5 %, and each lies
    within a factor 1.5 of its count (the estimates are heavy-tailed: one mean of 4,000 can miss by 25 %); a
    probe that sampled another tree (decided children not counted, another order's pruning) would fail."""
    means, counts = 0.0, 0
    for regions in _boards(10, seed=5):
        search = _search(regions)
        for horizon in range(_root(regions), _root(regions) + 3):
            exact = search.count(horizon, cap=120_000)
            if exact is None or exact < 50:
                continue
            p = search.probe(horizon, 4_000, seed=horizon)
            assert p.probes == 4_000 and p.visited >= 4_000
            assert exact / 1.5 <= p.mean <= exact * 1.5, (regions.size, horizon, exact, p)
            means, counts = means + p.mean, counts + exact
    assert counts >= 300_000  # enough trees of some size
    assert abs(means / counts - 1) <= 0.05


@compiled
def test_a_tree_that_is_one_node_is_counted_exactly():
    regions = next(_boards(1, seed=7))
    search = _search(regions)
    assert search.count(0) == 1  # budget 0: the root is pruned
    p = search.probe(0, 10, seed=1)
    assert (p.probes, p.mean, p.sd, p.visited) == (10, 1.0, 0.0, 10)


@compiled
@pytest.mark.parametrize("kw", [{}, {"por": 1}, {"symmetry": None, "por": 0}])
def test_probing_leaves_the_search_unchanged(kw):
    """The same answers and node counts, horizon by horizon, with probes and counts between the horizons."""
    for regions in _boards(6, seed=11):
        plain, probed = _search(regions, **kw), _search(regions, **kw)
        for horizon in range(_root(regions), _root(regions) + 4):
            probed.probe(horizon + 1, 500, seed=3)
            probed.count(horizon + 1, cap=20_000)
            assert probed.within(horizon) == plain.within(horizon)
            assert probed.nodes == plain.nodes


@compiled
def test_a_probe_stops_on_its_time():
    regions = max(_boards(6, seed=2), key=lambda r: r.size)
    p = _search(regions).probe(_root(regions) + 3, 10**12, seconds=0.05)
    assert 0 < p.probes < 10**12


def test_no_estimate_without_measured_horizons():
    regions = next(_boards(1, seed=3))
    search = IDAStar(regions.adj, regions.colours, len(regions.palette))
    assert estimate_open(search, 9, []) is None
    assert estimate_open(search, 9, [HorizonCost(8, 5_000, 0.0)]) is None  # no rate yet
    assert estimate_open(search, 9, [HorizonCost(8, 5_000, 1.0)]) is None  # a rate, but no estimate


def test_growth_repeats_the_last_ratio_at_the_measured_rate():
    history = [HorizonCost(6, 100, 0.5), HorizonCost(7, 2_000, 1.5)]
    assert growth(8, history) == 40_000
    assert growth(9, history) is None  # horizon 8 was not measured
    assert rate(history) == 1_050
    regions = next(_boards(1, seed=3))
    search = IDAStar(regions.adj, regions.colours, len(regions.palette))  # no probes: growth alone
    est = estimate_open(search, 8, history)
    assert est == Estimate(8, 40_000, 40_000 / 1_050, 1_050, "growth")
    assert est.to_dict()["core_hours"] == round(40_000 / 1_050 / 3600, 3)


@compiled
def test_knuth_calibrated_on_the_refuted_horizons():
    level = load_level(DATA / "tri-32b5c-s106.json")  # horizons 6 and 7 refuted, 8 solved
    regions = regions_of(level)
    search = _search(regions)
    history = []
    for horizon in (6, 7):
        before = search.nodes
        assert search.within(horizon) is None
        history.append(HorizonCost(horizon, search.nodes - before, 1.0))  # (seconds: any, the rate is tested above)
    nodes = search.nodes
    est = estimate_open(search, 8, history, seconds=0.2)
    assert est is not None and est.method == "knuth+growth"
    assert est.seconds == pytest.approx(est.nodes / rate(history))
    knuth = calibrated_knuth(search, 8, history, Deadline.slice(0.2))
    assert knuth is not None and est.nodes == pytest.approx((knuth * growth(8, history)) ** 0.5, rel=0.5)
    assert search.nodes == nodes and search.within(7) is None  # the search is as it was
    alone = estimate_open(search, 8, history[-1:], seconds=0.2)  # one horizon: no growth
    assert alone is not None and alone.method == "knuth"
    assert estimate_open(search, 8, [HorizonCost(7, 500, 1.0)], seconds=0.2) is None  # too small to calibrate


def test_the_json_of_an_estimate_follows_the_schema():
    import jsonschema

    from kamicp.cli.schemas import schema

    defs = schema("solve")["$defs"]
    data = Estimate(11, 2.4e9, 5_000.0, 480_000.0, "knuth+growth").to_dict()
    assert data["core_hours"] == 1.389 and data["nodes"] == 2_400_000_000
    jsonschema.validate(data, {"$defs": defs, "$ref": "#/$defs/estimate"}, cls=jsonschema.Draft202012Validator)
    with pytest.raises(jsonschema.ValidationError):  # a bound's field in an estimate
        jsonschema.validate({**data, "lower_bound": 11}, {"$defs": defs, "$ref": "#/$defs/estimate"})


def test_the_search_engine_keeps_what_each_refuted_horizon_cost():
    from kamicp.prover.config import SearchOptions
    from kamicp.prover.engines import SearchEngine
    from kamicp.runtime.clock import NEVER

    engine = SearchEngine(regions_of(load_level(DATA / "tri-32b5c-s106.json")), SearchOptions())
    for steps in (6, 7, 8):  # 6 and 7 refuted, 8 solved
        engine.horizon(steps, NEVER)
    assert [c.horizon for c in engine.costs] == [6, 7]
    assert sum(c.nodes for c in engine.costs) < engine.ida.nodes  # the solved horizon's nodes are not a cost
    assert all(c.nodes > 0 and c.seconds >= 0 for c in engine.costs)


def test_an_estimate_is_never_below_what_the_open_horizon_already_visited():
    history = [HorizonCost(6, 100, 0.5), HorizonCost(7, 2_000, 1.5)]
    search = IDAStar([[1], [0]], [0, 1], 2)
    assert estimate_open(search, 8, history, done=10**6).nodes == 10**6
    assert estimate_open(search, 8, history, done=10).nodes == 40_000
