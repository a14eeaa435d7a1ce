"""Shared fixtures; the shared paths and helpers are in the package tests.helpers (see tests/README.md)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.helpers import PUZZLES


@pytest.fixture
def blog_path() -> Path:
    return PUZZLES / "blog-18.json"


def pytest_configure(config: pytest.Config) -> None:
    """A suite started as a background job (`sh -c 'pytest &'`, nohup) inherits SIGINT ignored, and so would every
    command the tests start, which then could not show what Ctrl-C does (the signal tests send SIGINT). A handler
    in this process is reset to the default in each child at exec, so the children get Ctrl-C as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
