"""generate: generated levels proven to have their par by the brute-force oracle (tests/helpers/count_oracle.py),
and the same levels for the same seed."""

from __future__ import annotations

import pytest

from kamicp import verify
from kamicp.designer.generate import GenerateSpec, generate_level, symmetry_map
from tests.helpers.count_oracle import optimal_plans, swap_classes


@pytest.mark.parametrize("geometry, symmetry, rows, cols", [
    ("square", "none", 5, 5), ("triangle", "none", 6, 6), ("square", "mirror", 5, 6), ("triangle", "rotate", 6, 5),
])
def test_generated_levels_have_the_par_by_brute_force(geometry: str, symmetry: str, rows: int, cols: int) -> None:
    spec = GenerateSpec(geometry, 3, 3, rows, cols, symmetry, unique=True, seed=5, engine="search")
    made = generate_level(spec)
    level = made.level
    optimum, plans = optimal_plans(level, max_depth=5, max_plans=100_000)
    assert optimum == level.par == 3
    assert swap_classes(level, plans) == 1  # --unique: one class
    sigma = symmetry_map(geometry, rows, cols, symmetry)
    if sigma is not None:
        assert all(level.colours[sigma[i]] == level.colours[i] for i in range(level.size))
    verify(level, made.result.moves, max_moves=3)


def test_generation_is_deterministic_for_a_seed() -> None:
    spec = GenerateSpec("square", 3, 4, 6, 6, seed=9, engine="search")
    a, b = generate_level(spec, 2), generate_level(spec, 2)
    assert a.level == b.level and a.level != generate_level(spec, 1).level
