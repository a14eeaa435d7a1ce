"""The results store: one SQLite file (standard library), a row per (level content, settings, path).

The same file also holds the cubes of distributed proofs (`solve --dask --store`, kamicp.distributed):
a row per (level content, cube settings, cube, horizon), so a rerun skips the cubes already refuted.

Each row is committed as soon as it is answered, so an interrupted run loses nothing already answered.
`answered(level_hash, settings)` finds an answer for the same level content and settings under any file
name, which is what `--resume` skips.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from kamicp.errors import FormatError
from kamicp.packs.rows import Row, Verdict

SCHEMA = """
CREATE TABLE IF NOT EXISTS rows (
    level_hash TEXT NOT NULL,
    settings TEXT NOT NULL,
    path TEXT NOT NULL,
    verdict TEXT NOT NULL,
    data TEXT NOT NULL,
    answered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (level_hash, settings, path)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cubes (
    level_hash TEXT NOT NULL,
    settings TEXT NOT NULL,
    cube TEXT NOT NULL,
    horizon INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    data TEXT NOT NULL,
    answered_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (level_hash, settings, cube, horizon)
);
"""
FORMAT = "kamicp-pack-store 1"


class Store:
    """Rows of pack runs in SQLite. Use as a context manager, or call `close()`."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise FormatError("no such store file", source=str(self.path))
        if not self.path.parent.is_dir():
            raise FormatError("the store's folder does not exist", source=str(self.path))
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.db = sqlite3.connect(self.path, timeout=30)
            if not fresh:
                self._check_format()  # never write into another file, nor another program's database
            self.db.executescript(SCHEMA)
            if fresh:
                with self.db:
                    self.db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise FormatError(f"not a kamicp results store ({e})", source=str(self.path)) from None
        except FormatError:
            self.db.close()
            raise

    def _check_format(self) -> None:
        try:
            found = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.OperationalError:
            found = None
        if found is None or found[0] != FORMAT:
            what = f"store format {found[0]!r}" if found else "no kamicp store format mark"
            raise FormatError(f"not a kamicp results store ({what}, expected {FORMAT!r}); give another "
                              "file name", source=str(self.path))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def put(self, row: Row) -> None:
        """Save one row and commit it (replacing the same file's row for the same level and settings)."""
        key = row.level_hash if row.verdict.answered else f"file:{row.path}"  # failures: by file alone
        with self.db:
            if row.verdict.answered:
                # an answer replaces this file's earlier failures (which were keyed by the file alone)
                self.db.execute("DELETE FROM rows WHERE level_hash = ? AND settings = ? AND path = ?",
                                (f"file:{row.path}", row.settings, row.path))
            self.db.execute("INSERT OR REPLACE INTO rows (level_hash, settings, path, verdict, data) "
                            "VALUES (?, ?, ?, ?, ?)", (key, row.settings, row.path, str(row.verdict),
                                                       json.dumps(row.to_dict())))

    def answered(self, level_hash: str, settings: str) -> Row | None:
        """An answered row for this level content and settings (from any file), or None."""
        answered = [str(v) for v in Verdict if v.answered]
        found = self.db.execute(
            f"SELECT data FROM rows WHERE level_hash = ? AND settings = ? AND verdict IN "
            f"({', '.join('?' * len(answered))}) ORDER BY answered_at DESC LIMIT 1",
            (level_hash, settings, *answered)).fetchone()
        return None if found is None else Row.from_dict(json.loads(found[0]))

    def rows(self) -> list[Row]:
        """The latest row of each file for each settings, in the order they were answered (a file that
        was edited, or failed after an answer, shows its latest state)."""
        try:
            found = self.db.execute("SELECT data FROM rows ORDER BY answered_at, rowid").fetchall()
            latest: dict[tuple[str, str], Row] = {}
            for (data,) in found:
                row = Row.from_dict(json.loads(data))
                latest.pop((row.path, row.settings), None)
                latest[row.path, row.settings] = row
            return list(latest.values())
        except RecursionError:  # data nested too deeply for the JSON decoder
            raise FormatError("a row is malformed (nested too deeply)", source=str(self.path)) from None
        except (ValueError, KeyError, TypeError) as e:
            raise FormatError(f"a row is malformed ({e})", source=str(self.path)) from None

    # --- cubes of distributed proofs (kamicp.distributed) -----------------------------------------
    def put_cubes(self, level_hash: str, settings: str, rows: list[tuple[str, int, str, dict]]) -> None:
        """Save cubes' answers, (cube, horizon, outcome, data) each, and commit them at once (one commit for
        many rows: a commit waits for the disk)."""
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO cubes (level_hash, settings, cube, horizon, outcome, data) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                [(level_hash, settings, cube, horizon, outcome, json.dumps(data))
                                 for cube, horizon, outcome, data in rows])

    def cubes_with(self, level_hash: str, settings: str, outcome: str, min_horizon: int = 0) -> dict[str, dict]:
        """The cubes of this level and settings answered `outcome` at a horizon of at least `min_horizon`
        (a cube refuted within h moves is refuted within fewer), each cube's lowest such row."""
        try:
            found = self.db.execute(
                "SELECT cube, data FROM cubes WHERE level_hash = ? AND settings = ? AND outcome = ? AND horizon >= ? "
                "ORDER BY horizon DESC", (level_hash, settings, outcome, min_horizon)).fetchall()
            return {cube: json.loads(data) for cube, data in found}
        except RecursionError:
            raise FormatError("a cube row is malformed (nested too deeply)", source=str(self.path)) from None
        except ValueError as e:
            raise FormatError(f"a cube row is malformed ({e})", source=str(self.path)) from None
