"""Size limits on what kamicp reads and draws, so hostile or broken input costs bounded time and memory.

Each limit has a default and an environment variable that raises (or lowers) it:

| limit | default | variable |
|---|---|---|
| bytes read from one level file or image | 16 MiB | `KAMICP_MAX_BYTES` |
| cells of a level (grid rows x columns, holes included; graph nodes) | 100,000 | `KAMICP_MAX_CELLS` |
| edges of a graph level | 1,000,000 | `KAMICP_MAX_EDGES` |
| pixels of a PNG kamicp writes (larger pictures are drawn smaller) | 8 megapixels | `KAMICP_MAX_PIXELS` |

Regions are bounded by cells. Integers in level files have at most MAX_DIGITS digits (far beyond any
real value; it keeps Python's 4300-digit conversion limit out of reach).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from kamicp.errors import UsageError

MAX_DIGITS = 18  # digits of any integer read from a file (a 64-bit range); more is refused before int()
MAX_MOVES = 1_000_000  # par, medals, move counts: far more moves than any level of MAX_CELLS cells needs
# Moves of a sequence kamicp replays: an official solution in a level file, the moves given to `hint --moves`.
# Each move is replayed on every cell, so a sequence costs moves x cells; real ones are tens of moves.
MAX_PLAYED = 10_000


def too_many_played() -> str:
    """What readers say of a move sequence over MAX_PLAYED (each raises its own error type with it)."""
    return f"more than {MAX_PLAYED:,} moves: kamicp replays at most {MAX_PLAYED:,} (docs/limits.md)"


ENV = {
    "max_bytes": "KAMICP_MAX_BYTES",
    "max_cells": "KAMICP_MAX_CELLS",
    "max_edges": "KAMICP_MAX_EDGES",
    "max_pixels": "KAMICP_MAX_PIXELS",
}


@dataclass(frozen=True)
class Limits:
    """The size limits in force (see the module docstring); `Limits.current()` reads the environment."""

    max_bytes: int = 16 * 2**20
    max_cells: int = 100_000
    max_edges: int = 1_000_000
    max_pixels: int = 8_000_000

    @classmethod
    def current(cls) -> Limits:
        """The defaults, overridden by the KAMICP_MAX_* environment variables (UsageError if one is not a
        positive integer)."""
        values = {}
        for f in fields(cls):
            raw = os.environ.get(ENV[f.name])
            if raw is None or not raw.strip():
                continue
            text = raw.strip().replace("_", "")
            if not text.isdigit() or not text.isascii() or len(text) > MAX_DIGITS or int(text) < 1:
                raise UsageError(f"environment variable {ENV[f.name]}: must be a positive integer, "
                                 f"got {raw[:40]!r}")
            values[f.name] = int(text)
        return cls(**values)


def limits() -> Limits:
    return Limits.current()


# A time limit longer than this is clamped to it: about 11.6 days, within every timer kamicp hands a limit to
# (poll() and select() take at most 2**31 - 1 ms, about 24.8 days; CP-SAT a double).
MAX_SECONDS = 1_000_000.0


def time_budget(seconds: float | None) -> float | None:
    """A time limit as the solvers take it: None (no limit) for None and infinity, a limit too long for a
    timer clamped to MAX_SECONDS; zero, a negative number or NaN is a UsageError."""
    if seconds is None or seconds == float("inf"):
        return None
    if not seconds > 0:  # (NaN too)
        raise UsageError(f"time-limit must be positive, got {seconds!r}")
    return seconds if seconds <= MAX_SECONDS else MAX_SECONDS
