"""A pack's rows in the results store (`kamicp.runtime.store`): each `Row` put as the store's plain data
(level hash, settings, file, verdict string, JSON), and read back as the answer `--resume` skips and the
rows of the report."""

from __future__ import annotations

from kamicp.errors import FormatError
from kamicp.packs.rows import Row, game, question
from kamicp.prover.outcome import Verdict
from kamicp.runtime.store import Store


class PackStore(Store):
    """The results store seen by a pack: it puts and reads `Row`s. Use as a context manager, or call
    `close()`; opening and its checks are the store's (`Store(path, create=...)`)."""

    def put(self, row: Row) -> None:
        """Save one row and commit it (replacing the same file's row for the same level and settings).
        Failures (bad input, errors) are kept by file alone: an answer replaces them."""
        self.put_row(row.level_hash, row.settings, row.path, str(row.verdict), row.to_dict(),
                     answer=row.verdict.answered)

    def _as_rows(self, datas: list) -> list[Row]:
        try:
            return [Row.from_dict(data) for data in datas]
        except RecursionError:
            raise FormatError("a row is malformed (nested too deeply)", source=str(self.path)) from None
        except (ValueError, KeyError, TypeError) as e:
            raise FormatError(f"a row is malformed ({e})", source=str(self.path)) from None

    def answered(self, level_hash: str, settings: str) -> Row | None:
        """An answer for this level content (from any file) that `--resume` need not repeat, or None: the
        newest answer with these very settings, else the newest proof of the same question (par, slack,
        rules, pivot) under other time limits, engines, workers or seeds (a proof holds whatever the time it
        was given)."""
        found = self._as_rows(self.rows_with(level_hash, [str(v) for v in Verdict if v.answered]))
        same = [r for r in found if r.settings == settings]
        if same and same[0].verdict.proven:
            return same[0]
        asked = question(settings)
        proofs = [r for r in found if r.verdict.proven and question(r.settings) == asked]
        return proofs[0] if proofs else same[0] if same else None

    def rows(self) -> list[Row]:
        """One row per file (and game: Kami, or Flood-It with its pivot), in the order they were answered: its
        strongest answer (a proof beats an unknown), the newest among equals, for the file's latest content;
        a file whose latest run failed (bad input, a crash) shows that failure. Each row keeps the settings
        that produced it."""
        by_path: dict[tuple[str, str], list[Row]] = {}
        for row in self._as_rows(self.all_rows()):
            by_path.setdefault((row.path, game(row.settings)), []).append(row)
        chosen = []
        for runs in by_path.values():
            newest = runs[-1]
            if newest.verdict.answered:
                same = [(r.verdict.proven, k) for k, r in enumerate(runs)
                        if r.verdict.answered and r.level_hash == newest.level_hash]
                newest = runs[max(same)[1]]
            chosen.append(newest)
        order = {id(r): k for k, r in enumerate(r for runs in by_path.values() for r in runs)}
        return sorted(chosen, key=lambda r: order[id(r)])


__all__ = ["PackStore"]
