"""Shared fixtures; the shared paths and helpers are in the package tests.helpers (see tests/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import PUZZLES


@pytest.fixture
def blog_path() -> Path:
    return PUZZLES / "blog-18.json"
