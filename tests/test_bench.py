"""Every shared bench level with a known optimum that solves in a few seconds reproduces it.

The optima come from shared/bench/KNOWN.md itself; the slow and open levels belong in benchmarks/.
"""

from __future__ import annotations

import re

import pytest

from conftest import BENCH
from kamicp import load_level, solve, verify
from kamicp.solver import OPTIMAL

FAST_REGIONS = 40  # levels with fewer regions solve in a few seconds each (benchmarks/RESULTS.md)


def known_optima() -> dict[str, tuple[int, int]]:
    path = BENCH / "KNOWN.md"
    if not path.exists():
        return {}
    rows = re.findall(r"^\| (\S+) \| (\d+) \| \d+ \| (\d+) \| optimal \|$", path.read_text(), re.M)
    return {name: (int(regions), int(opt)) for name, regions, opt in rows}


KNOWN = known_optima()
FAST = sorted(name for name, (regions, _) in KNOWN.items() if regions < FAST_REGIONS)


def test_known_table_was_read():
    if not BENCH.exists():
        pytest.skip("shared/bench is not beside the checkout")
    assert len(FAST) >= 15


@pytest.mark.parametrize("name", FAST)
def test_bench_optimum_reproduced(name):
    level = load_level(BENCH / f"{name}.json")
    regions, optimum = KNOWN[name]
    result = solve(level, time_limit=120)
    assert result.regions == regions
    assert result.status == OPTIMAL
    assert len(result.moves) == optimum
    verify(level, result.moves, max_moves=optimum)
    refuted = max((h.steps for h in result.proof if h.outcome in ("infeasible", "bound")), default=-1)
    assert refuted == optimum - 1
