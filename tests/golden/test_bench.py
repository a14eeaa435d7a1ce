"""Every test level with a known optimum that solves in a few seconds reproduces it.

The levels and their optima are tests/data's (tests/data/make_data.py: the exhaustive oracle for small
boards, CP-SAT and the reference search agreeing for larger ones); the slow ones belong in benchmarks/.
"""

from __future__ import annotations

import pytest

from kamicp import load_level, solve, verify
from kamicp.prover.solver import OPTIMAL
from tests.helpers import LEVELS, known_optima

FAST_REGIONS, FAST_OPTIMUM = 40, 7  # smaller levels solve in a few seconds each (benchmarks/RESULTS.md)
KNOWN = known_optima()
FAST = sorted(name for name, row in KNOWN.items()
              if row["regions"] < FAST_REGIONS and row["optimum"] <= FAST_OPTIMUM)
SLOW = sorted(set(KNOWN) - set(FAST))


def test_known_table_was_read():
    assert len(FAST) >= 15 and len(SLOW) >= 4
    assert {row["proven_by"] for row in KNOWN.values()} == {"oracle", "cpsat+search"}
    assert sorted(p.stem for p in LEVELS.glob("*.json")) == sorted(KNOWN)


@pytest.mark.parametrize("name", FAST)
def test_bench_optimum_reproduced(name):
    check_optimum(name, time_limit=120)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_larger_bench_optimum_reproduced(name):
    check_optimum(name, time_limit=600)


def check_optimum(name: str, time_limit: float) -> None:
    level = load_level(LEVELS / f"{name}.json")
    regions, optimum = KNOWN[name]["regions"], KNOWN[name]["optimum"]
    result = solve(level, time_limit=time_limit)
    assert result.regions == regions
    assert result.status == OPTIMAL
    assert len(result.moves) == optimum
    verify(level, result.moves, max_moves=optimum)
    refuted = max((h.steps for h in result.proof if h.outcome in ("infeasible", "bound")), default=-1)
    assert refuted == optimum - 1
