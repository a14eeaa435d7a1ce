"""The results store: one SQLite file (standard library) that kamicp's runs keep their answers in, so an
interrupted run loses nothing already answered and a rerun skips what is answered.

Two tables of JSON rows keyed by a level's content hash (`kamicp.board.hashing.level_hash`) and the
settings that produced them: `rows`, a row per (level content, settings, file), which the packs fill
(`kamicp.packs.results` turns a pack's `Row` into what this store takes and back), and `cubes`, a row per
(level content, cube settings, cube, horizon), which distributed proofs fill (`solve --dask --store`), so a
rerun skips the cubes already refuted. The store knows nothing of either: verdicts and outcomes are
strings to it, rows are JSON objects. Each row is committed as soon as it is put.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kamicp.errors import FormatError

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


COLUMNS = {"rows": ("level_hash", "settings", "path", "verdict", "data", "answered_at"),
           "cubes": ("level_hash", "settings", "cube", "horizon", "outcome", "data", "answered_at"),
           "meta": ("key", "value")}


class StoreWriteError(FormatError):
    """The store could not be written (a full disk, a read-only file or folder, an I/O error): what was
    committed before stays."""


class StoreLockedError(FormatError):
    """Another program (another kamicp run, an SQLite browser) holds the store's lock past our wait."""


LOCKED = ("the store is locked by another program (another kamicp run writing it, or a database tool with "
          "a transaction open); try again when it has finished, or give another file")


def _is_locked(e: sqlite3.Error) -> bool:
    # (SQLite says "database is locked" or "database table is locked"; its busy code has no subclass)
    return "locked" in str(e) or "busy" in str(e)


class Store:
    """Rows of runs in SQLite. Use as a context manager, or call `close()`.

    Checked before any work: the file must be a regular file (not a folder, a FIFO or a device such as
    /dev/full) or a new file in an existing folder, and either empty or a kamicp store with this schema.
    With `create` (validate, solve --dask) it must also be writable: a write is tried at once. Without it
    (report) the file is opened read-only, never created, converted or given a journal.

    A store locked by another program is waited for `lock_wait` seconds when opened (a writer's commit
    takes milliseconds), then refused as locked (`StoreLockedError`, exit 2); once open, a write waits
    for the lock up to `write_wait` seconds."""

    lock_wait = 5.0
    write_wait = 30.0

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self.db: sqlite3.Connection | None = None
        fresh = self._check_file(create)
        try:
            if create or self._hot_journal():
                # (a journal left by a write that failed half-way, e.g. on a full disk: SQLite rolls it back
                # when it opens the store for writing, and cannot read the store read-only before that)
                self.db = sqlite3.connect(self.path, timeout=self.lock_wait)
            else:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, timeout=self.lock_wait)
            if not fresh:
                self._check_format()  # never write into another file, nor another program's database
            if create:
                self._prepare()
            self.db.execute(f"PRAGMA busy_timeout = {int(self.write_wait * 1000)}")
        except sqlite3.DatabaseError as e:
            self.close()
            if _is_locked(e):
                raise StoreLockedError(LOCKED, source=str(self.path)) from None
            raise FormatError(f"not a kamicp results store ({e})", source=str(self.path)) from None
        except BaseException:
            self.close()
            raise

    def _hot_journal(self) -> bool:
        journal = self.path.with_name(self.path.name + "-journal")
        return journal.is_file() and journal.stat().st_size > 0

    def _check_file(self, create: bool) -> bool:
        """Is the file new or empty (a fresh store)? A FormatError (one line) for anything but a regular
        file, a missing one without `create`, and (with `create`) a folder or file that cannot be written."""
        where = str(self.path)
        try:
            info = self.path.stat()
        except FileNotFoundError:
            info = None
        except OSError as e:
            raise FormatError(f"cannot open the store ({e.strerror or e})", source=where) from None
        if info is None:
            if not create:
                raise FormatError("no such store file", source=where)
            folder = self.path.parent
            if not folder.is_dir():
                raise FormatError("the store's folder does not exist", source=where)
            if not os.access(folder, os.W_OK | os.X_OK):
                raise StoreWriteError("cannot create the store: its folder is not writable", source=where)
            return True
        if stat.S_ISDIR(info.st_mode):
            raise FormatError("is a folder, not a store file", source=where)
        if not stat.S_ISREG(info.st_mode):
            raise FormatError("not a regular file (a FIFO, a socket or a device): a store is an SQLite file",
                              source=where)
        if info.st_size == 0 and not create:
            raise FormatError("not a kamicp results store (an empty file)", source=where)
        if create and not os.access(self.path, os.W_OK):
            raise StoreWriteError("the store is read-only", source=where)
        return info.st_size == 0

    def _prepare(self) -> None:
        """The tables (when new), and a first write: a store that cannot be written fails here, before any
        work, not after the first level."""
        assert self.db is not None
        try:
            self.db.executescript(SCHEMA)
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (FORMAT,))
        except sqlite3.OperationalError as e:
            if _is_locked(e):
                raise StoreLockedError(LOCKED, source=str(self.path)) from None
            raise StoreWriteError(f"cannot write the store ({e})", source=str(self.path)) from None

    def _check_format(self) -> None:
        assert self.db is not None
        try:
            found = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.OperationalError as e:
            if _is_locked(e):  # (locked is not foreign: say which)
                raise
            found = None
        if found is None or found[0] != FORMAT:
            what = f"store format {found[0]!r}" if found else "no kamicp store format mark"
            raise FormatError(f"not a kamicp results store ({what}, expected {FORMAT!r}); give another "
                              "file name", source=str(self.path))
        for table, expected in COLUMNS.items():
            names = tuple(r[1] for r in self.db.execute(f"PRAGMA table_info({table})"))
            if names and not set(expected) <= set(names):
                raise FormatError(f"not a kamicp results store: its table {table!r} has the columns "
                                  f"{', '.join(names)}, expected {', '.join(expected)}", source=str(self.path))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A transaction, committed at the end; a failed write (full disk, read-only, I/O) is a
        StoreWriteError naming the store, and what was committed before stays."""
        if self.db is None:
            raise StoreWriteError("the store is closed", source=str(self.path))
        try:
            with self.db:
                yield self.db
        except sqlite3.OperationalError as e:
            raise StoreWriteError(f"cannot write the store ({e})", source=str(self.path)) from None

    def put_row(self, level_hash: str, settings: str, path: str, verdict: str, data: dict, *,
                answer: bool = True) -> None:
        """Save one row and commit it (replacing the same file's row for the same level and settings). A row
        that is no `answer` (a failure) is keyed by its file alone, and an answer replaces the file's
        failures."""
        key = level_hash if answer else f"file:{path}"
        with self._writing() as db:
            if answer:
                db.execute("DELETE FROM rows WHERE level_hash = ? AND settings = ? AND path = ?",
                           (f"file:{path}", settings, path))
            db.execute("INSERT OR REPLACE INTO rows (level_hash, settings, path, verdict, data) "
                       "VALUES (?, ?, ?, ?, ?)", (key, settings, path, verdict, json.dumps(data)))

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        if self.db is None:
            raise FormatError("the store is closed", source=str(self.path))
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as e:  # (a file damaged after it was opened)
            raise FormatError(f"cannot read the store ({e})", source=str(self.path)) from None

    def _decoded(self, found: list[tuple], what: str = "a row") -> list[Any]:
        try:
            return [json.loads(data) for (data,) in found]
        except RecursionError:  # data nested too deeply for the JSON decoder
            raise FormatError(f"{what} is malformed (nested too deeply)", source=str(self.path)) from None
        except ValueError as e:
            raise FormatError(f"{what} is malformed ({e})", source=str(self.path)) from None

    def rows_with(self, level_hash: str, verdicts: Sequence[str]) -> list[Any]:
        """The data of this level's rows (from any file, with any settings) whose verdict is one of
        `verdicts`, the newest first."""
        return self._decoded(self._read(
            f"SELECT data FROM rows WHERE level_hash = ? AND verdict IN ({', '.join('?' * len(verdicts))}) "
            "ORDER BY answered_at DESC, rowid DESC", (level_hash, *verdicts)))

    def all_rows(self) -> list[Any]:
        """The data of every row, in the order they were put."""
        return self._decoded(self._read("SELECT data FROM rows ORDER BY answered_at, rowid"))

    # --- cubes of distributed proofs (solve --dask --store) -------------------------------------------
    def put_cubes(self, level_hash: str, settings: str, rows: list[tuple[str, int, str, dict]]) -> None:
        """Save cubes' answers, (cube, horizon, outcome, data) each, and commit them at once (one commit for
        many rows: a commit waits for the disk)."""
        with self._writing() as db:
            db.executemany("INSERT OR REPLACE INTO cubes (level_hash, settings, cube, horizon, outcome, data) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                [(level_hash, settings, cube, horizon, outcome, json.dumps(data))
                                 for cube, horizon, outcome, data in rows])

    def cubes_with(self, level_hash: str, settings: str, outcome: str, min_horizon: int = 0) -> dict[str, dict]:
        """The cubes of this level and settings answered `outcome` at a horizon of at least `min_horizon`
        (a cube refuted within h moves is refuted within fewer), each cube's lowest such row."""
        found = self._read("SELECT cube, data FROM cubes WHERE level_hash = ? AND settings = ? AND outcome = ? "
                           "AND horizon >= ? ORDER BY horizon DESC", (level_hash, settings, outcome, min_horizon))
        datas = self._decoded([(data,) for _, data in found], "a cube row")
        return {cube: data for (cube, _), data in zip(found, datas, strict=True)}


__all__ = ["FORMAT", "Store", "StoreLockedError", "StoreWriteError"]
