"""The reference search: Knuth's Algorithm X for exact cover (Katamino's independent cross-check).

Columns are the free cells and the piece letters; rows are placements. Following Ali Assaf's rendering
of Algorithm X, the dancing links are dictionaries of sets: `cover` removes a row's columns and every
row that clashes with them, `uncover` puts them back in reverse order, exactly what the links do. The
column with the fewest rows is chosen first (Knuth's S heuristic). Shares no code with the CP-SAT model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import SearchTimeout  # (the solutions yielded before it are all the search found)

Column = int | str
NODES_PER_CLOCK = 2048  # deadline checked every this many nodes


class AlgorithmX:
    def __init__(self, columns: Sequence[Column], rows: Sequence[Sequence[Column]],
                 deadline: Deadline = NEVER) -> None:
        self.rows = [tuple(r) for r in rows]
        self.cols: dict[Column, set[int]] = {c: set() for c in columns}
        for i, row in enumerate(self.rows):
            for c in row:
                self.cols[c].add(i)
        self.deadline = deadline
        self.nodes = 0

    def solutions(self) -> Iterator[list[int]]:
        """Every exact cover, as the list of its row indices (raises SearchTimeout at the deadline)."""
        yield from self._search([])

    def _search(self, chosen: list[int]) -> Iterator[list[int]]:
        self.nodes += 1
        if self.nodes % NODES_PER_CLOCK == 0 and self.deadline.expired():
            raise SearchTimeout
        if not self.cols:
            yield list(chosen)
            return
        column = min(self.cols, key=lambda c: len(self.cols[c]))
        for i in list(self.cols[column]):
            chosen.append(i)
            removed = self._cover(i)
            yield from self._search(chosen)
            self._uncover(i, removed)
            chosen.pop()

    def _cover(self, i: int) -> list[set[int]]:
        removed = []
        for c in self.rows[i]:
            for j in self.cols[c]:
                for other in self.rows[j]:
                    if other != c:
                        self.cols[other].discard(j)
            removed.append(self.cols.pop(c))
        return removed

    def _uncover(self, i: int, removed: list[set[int]]) -> None:
        for c in reversed(self.rows[i]):
            self.cols[c] = removed.pop()
            for j in self.cols[c]:
                for other in self.rows[j]:
                    if other != c:
                        self.cols[other].add(j)
