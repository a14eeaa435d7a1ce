"""Shared fixtures: paths to the bundled puzzles, the tests' own levels and their proven optima."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DATA = ROOT / "tests" / "data"  # made by tests/data/make_data.py
LEVELS = DATA / "levels"
GAMES = DATA / "games"
HARD = ROOT / "benchmarks" / "levels"  # larger generated levels (benchmarks/generate.py)


def known_optima() -> dict[str, dict]:
    """tests/data/KNOWN.json: per level its regions, colours, optimum and the source that proved it."""
    return json.loads((DATA / "KNOWN.json").read_text())["levels"]


@pytest.fixture
def blog_path() -> Path:
    return PUZZLES / "blog-18.json"
