"""A level's content hash: the key under which stores keep its answers (the packs' rows, the cubes of a
distributed proof), so a renamed or converted copy of a level is recognised."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from kamicp.board.level import Level


def level_hash(level: Level) -> str:
    """The level's content hash: its geometry, cells, colours, adjacency and par (not its name or file),
    so a renamed or converted copy of a level is recognised as answered. The hash of the JSON text of
    [geometry, labels, colours, edges, par], written in parts: a pack's boards share their labels and edges."""
    parts = (json.dumps(level.geometry), _json(level.labels), json.dumps(list(level.colours)),
             _json(level.edges), json.dumps(level.par))
    return hashlib.sha256(f"[{', '.join(parts)}]".encode()).hexdigest()[:32]


@lru_cache(maxsize=8)
def _json(items: tuple) -> str:
    return json.dumps(list(items), default=str)


__all__ = ["level_hash"]
