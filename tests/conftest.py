"""Shared fixtures: paths to the bundled puzzles and the shared bench."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
SHARED = ROOT.parent / "shared"
BENCH = SHARED / "bench"


@pytest.fixture
def blog_path() -> Path:
    return PUZZLES / "blog-18.json"
