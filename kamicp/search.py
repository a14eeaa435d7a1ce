"""The reference search: iterative-deepening depth-first search (IDA*) on region graphs.

Exact: every region may be painted every other colour (also colours no neighbour has, which on a
disconnected board is how a finished island reaches the final colour). Pruning uses only the sound
lower bound of `bounds` and a transposition table that remembers, per board, the largest number of
moves proven not to suffice from it; both are valid for any threshold, so a failed threshold is a proof.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from kamicp.bounds import quotient_bound
from kamicp.regions import quotient, recolor

Plan = list[tuple[int, int]]  # (initial region index, colour index) per move


class SearchTimeout(Exception):
    """Internal: the deadline passed during a horizon."""


class IDAStar:
    """Depth-first search for solutions within a move threshold, one threshold at a time."""

    def __init__(
        self,
        adj0: Sequence[Sequence[int]],
        start: Sequence[int],
        num_colors: int,
        *,
        table_limit: int = 2_000_000,
    ) -> None:
        self.adj0 = adj0
        self.start = tuple(start)
        self.num_colors = num_colors
        self.table_limit = table_limit
        self.failed: dict[tuple[int, ...], int] = {}
        self.nodes = 0
        self._deadline: float | None = None

    def within(self, threshold: int, deadline: float | None = None) -> Plan | None:
        """A solution of at most `threshold` moves, or None when there is provably none."""
        self._deadline = deadline
        return self._dfs(self.start, threshold)

    def _dfs(self, state: tuple[int, ...], budget: int) -> Plan | None:
        self.nodes += 1
        if self._deadline is not None and self.nodes % 512 == 0 and time.monotonic() > self._deadline:
            raise SearchTimeout
        q = quotient(self.adj0, state)
        if len(set(q.colors)) == 1:
            return []
        if budget <= 0 or quotient_bound(q, self.num_colors) > budget:
            return None
        if self.failed.get(state, -1) >= budget:
            return None
        moves = []
        for k in range(q.size):
            merged = [0] * self.num_colors
            for j in q.adj[k]:
                merged[q.colors[j]] += 1
            for c in range(self.num_colors):
                if c != q.colors[k]:
                    moves.append((-merged[c], k, c))
        moves.sort()
        for _, k, c in moves:
            plan = self._dfs(recolor(state, q.members[k], c), budget - 1)
            if plan is not None:
                return [(q.rep[k], c), *plan]
        if len(self.failed) >= self.table_limit:
            self.failed.clear()
        self.failed[state] = budget
        return None
