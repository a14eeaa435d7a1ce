"""count on the bundled puzzles: known numbers of optimal solutions and classes."""

from __future__ import annotations

from kamicp import load_level
from kamicp.designer.count import count_optimal
from tests.helpers import PUZZLES


def test_golden_counts() -> None:
    blog = count_optimal(load_level(PUZZLES / "blog-18.json"), engine="search")
    assert (blog.optimum, blog.complete) == (5, True)
    assert 1 <= blog.classes <= blog.solutions
