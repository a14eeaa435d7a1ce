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
