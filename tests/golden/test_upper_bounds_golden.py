"""Upper bounds on a known level: the rollouts find the proven optimum the beam misses."""

from __future__ import annotations

import pytest

from kamicp import verify
from kamicp.board.regions import regions_of
from kamicp.prover.outcome import to_moves
from kamicp.prover.search import HAVE_COMPILED
from tests.helpers.boardsets import bench_level

needs_compiled = pytest.mark.skipif(not HAVE_COMPILED, reason="compiled search not built")


@needs_compiled
def test_rollouts_find_the_optimum_the_beam_misses():
    """gen-tri-110b5c-mirror-proper-s705: the beam gives 13 moves (12 in some runs), one move
    and a pivot rollout 12 (the optimum, proven in 404 s: benchmarks/RESULTS.md)."""
    from kamicp.prover.search import beam_plan, rollout_plan

    level = bench_level("gen-tri-110b5c-mirror-proper-s705")
    regions = regions_of(level)
    k = len(regions.palette)
    assert len(beam_plan(regions.adj, regions.colours, k, seconds=2)) >= 12  # never below the optimum
    plan = rollout_plan(regions.adj, regions.colours, k, 12, seconds=60)
    assert plan is not None and len(plan) == 12
    verify(level, to_moves(regions, plan))


# A 63-region triangle board (a noisy Voronoi board of 43 blobs, `blob_rows`, seed 33) where the default beam
# gives 12 moves and the long proof's beam (the same passes, then wider ones) 11.
LONG_BEAM_ROWS = ["BBBEEDDDABACDEEB", "BBBEEDDDCEACDEED", "DBBEEDDCCBDCDEEB", "DDBEECBCAEECCEED", "DDEECCBCCAEDCDCD",
                  "DDECCDECCBECCBBA", "DEECCDEEDCEAADCC", "BEEAAAEDDCCADBCE", "BEEAAAEDEBCDBAAA", "BEECCCCEEBEDBAEE"]


@needs_compiled
def test_the_long_proofs_long_beam_shortens_the_plan_only_when_its_budget_allows():
    """The long proof's beam (`improve(long_beam=True)`) finds a plan the default passes miss, which
    replays; without `long_beam`, or with less than `long_beam_min` seconds to spend, the default beam runs."""
    import math

    from kamicp.board.level import Level
    from kamicp.prover.config import UpperOptions
    from kamicp.prover.outcome import EngineName
    from kamicp.prover.search import beam_plan
    from kamicp.prover.upper import UpperBound, improve
    from kamicp.runtime.clock import NEVER

    level = Level.from_rows(LONG_BEAM_ROWS, "triangle")
    regions = regions_of(level)
    narrow = beam_plan(regions.adj, regions.colours, len(regions.palette), seconds=30)
    assert narrow is not None
    known = UpperBound(narrow, EngineName.BEAM, 0.0)
    options = UpperOptions(rollout=False)

    def improved(base: float, long_beam: bool) -> UpperBound:
        return improve(regions, 1, known, options, deadline=NEVER, base=base, long_beam=long_beam)

    longer = improved(math.inf, True)
    assert longer.plan is not None and len(longer.plan) < len(narrow)
    verify(level, to_moves(regions, longer.plan))
    assert improved(math.inf, False).plan == narrow
    too_short = options.long_beam_min / options.long_beam_share / 2  # a time limit whose share is under the minimum
    assert improved(too_short, True).plan == narrow


def test_the_short_beams_budget_grows_with_the_board_within_its_share():
    """The race's beam gets two seconds, or 2.5 s per 100 regions on large boards (a pass cut short finds no plan:
    on Flood-It boards of 230-310 regions two seconds gave none, benchmarks/topics/upper-bounds.md), never more
    than its share of the time limit nor past the deadline; the long proof's beam keeps its own budget."""
    import math

    from kamicp.prover.config import UpperOptions
    from kamicp.prover.search import BEAM_SCHEDULE, LONG_BEAM_SCHEDULE
    from kamicp.prover.upper import beam_passes
    from kamicp.runtime.clock import NEVER, Deadline

    options = UpperOptions()
    assert beam_passes(options, math.inf, NEVER, False, 60) == (BEAM_SCHEDULE, 2.0)
    assert beam_passes(options, math.inf, NEVER, False, 300) == (BEAM_SCHEDULE, 7.5)
    assert beam_passes(options, 60.0, NEVER, False, 300) == (BEAM_SCHEDULE, 3.0)  # 5 % of a minute
    schedule, budget = beam_passes(options, math.inf, Deadline.slice(1.0), False, 300)
    assert schedule == BEAM_SCHEDULE and 0 < budget <= 1.0
    assert beam_passes(options, 3600.0, NEVER, True, 300) == (LONG_BEAM_SCHEDULE, 20.0)
