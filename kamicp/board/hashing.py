"""A level's content hash: the key under which stores keep its answers (the packs' rows, the cubes of a
distributed proof), so a renamed or converted copy of a level is recognised."""

from __future__ import annotations

import hashlib
import json

from kamicp.board.level import Level


def level_hash(level: Level) -> str:
    """The level's content hash: its geometry, cells, colours, adjacency and par (not its name or file),
    so a renamed or converted copy of a level is recognised as answered."""
    data = [level.geometry, list(level.labels), list(level.colours), list(level.edges), level.par]
    return hashlib.sha256(json.dumps(data, default=str).encode()).hexdigest()[:32]


__all__ = ["level_hash"]
