"""The results store under faults, on real files: a FIFO, a folder, a device (/dev/full), a read-only file
or folder, another schema under the store's format mark, an empty or foreign file given to `report`, and
a disk that fills up mid-run. The store is checked before any work (one line, exit 2); a write that
fails mid-run stops the run cleanly with the table of the levels done; nothing is created, converted or
left behind (no `-journal` file)."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.runtime.store import FORMAT
from tests.helpers import LEVELS, PUZZLES

runner = CliRunner()
DAWN = PUZZLES / "tri-dawn.json"


def run(*args: object):
    start = time.monotonic()
    res = runner.invoke(app, [str(a) for a in args])
    assert time.monotonic() - start < 30
    assert "Traceback" not in res.output and "internal error" not in res.output, res.output
    return res


def refused(res, needle: str) -> None:
    """One error line naming the store, exit 2, and no level run (no table, no progress)."""
    assert res.exit_code == 2, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], res.stderr
    assert "tri-dawn" not in res.output


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """`path` (a file or folder) made unwritable for this process: by its mode, or (root ignores modes) by
    the immutable attribute; skipped where neither applies."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("running as root on a file system without the immutable attribute")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_fifo_a_folder_and_a_device_are_refused_before_any_work(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused(run("validate", DAWN, "--store", fifo), "not a regular file")
    refused(run("validate", DAWN, "--store", tmp_path), "is a folder")
    refused(run("report", fifo), "not a regular file")
    if Path("/dev/full").exists():
        refused(run("validate", DAWN, "--store", "/dev/full"), "not a regular file")
        assert not Path("/dev/full-journal").exists()


def test_solve_dask_checks_its_store_first(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused(run("solve", DAWN, "--dask", "local", "--store", fifo), "not a regular file")
    refused(run("solve", DAWN, "--dask", "local", "--store", tmp_path), "is a folder")


def test_a_read_only_store_or_folder_is_refused_before_any_work(tmp_path):
    store = tmp_path / "s.sqlite"
    assert run("validate", DAWN, "--store", store).exit_code == 0
    before = store.read_bytes()
    with read_only(store):
        refused(run("validate", DAWN, "--store", store, "--resume"), "s.sqlite")
        assert run("report", store).exit_code == 0  # reading needs no write
    assert store.read_bytes() == before
    folder = tmp_path / "locked"
    folder.mkdir()
    with read_only(folder):
        refused(run("validate", DAWN, "--store", folder / "new.sqlite"), "new.sqlite")
    assert list(folder.iterdir()) == []


def test_another_schema_under_the_format_mark_is_refused(tmp_path):
    store = tmp_path / "s.sqlite"
    with sqlite3.connect(store) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
        db.execute("CREATE TABLE rows (id INTEGER, blob TEXT)")
    db.close()
    before = store.read_bytes()
    refused(run("validate", DAWN, "--store", store), "table 'rows' has the columns id, blob")
    refused(run("report", store), "table 'rows'")
    assert store.read_bytes() == before


def test_report_never_creates_or_converts_a_file(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("")
    refused(run("report", notes), "an empty file")
    assert notes.read_bytes() == b""
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE mine (x)")
    db.close()
    before = other.read_bytes()
    refused(run("report", other), "not a kamicp results store")
    assert other.read_bytes() == before
    refused(run("report", tmp_path / "absent.sqlite"), "no such store file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "other.db"]  # no store, no journal


def _small_disk(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_mid_run_stops_cleanly_with_the_table_of_what_was_done(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    for level in LEVELS.glob("*.json"):  # the levels of under 30 regions: each answered at once
        if int(level.name.split("-")[1].split("b")[0]) < 30:
            shutil.copy(level, pack / level.name)
    store = tmp_path / "s.sqlite"
    cmd = [sys.executable, "-c", "from kamicp.cli import main; main()", "validate", str(pack), "--store", str(store),
           "--jobs", "1", "--engine", "search"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120, preexec_fn=_small_disk(40_000))
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    error = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and "cannot write the store" in error[0] and "--resume" in error[0], res.stderr
    done = int(error[0].split(": ")[-2].split(" of ")[0].rsplit(" ", 1)[-1])
    total = len(list(pack.glob("*.json")))
    assert 0 < done < total, res.stderr
    assert res.stdout.count("correct") == done, res.stdout  # the table of the levels done
    report = run("report", store, "--json")  # (rolls back a journal the failed write may have left)
    assert report.exit_code == 0 and report.stdout.count('"verdict": "correct"') == done, report.output
    assert not list(tmp_path.glob("*-journal"))
    # room again: the same command with --resume goes on
    again = runner.invoke(app, ["validate", str(pack), "--store", str(store), "--resume", "--engine", "search"])
    assert again.exit_code == 0, again.output
    assert f"({done} answered before, from the store)" in " ".join(again.stdout.split()), again.output


def test_report_recovers_a_store_whose_writer_died_mid_write(tmp_path):
    """A writer killed (or stopped by a full disk) inside a transaction leaves a hot journal; `report`
    rolls it back as any SQLite writer would (read-only, SQLite cannot), and shows the committed rows."""
    store = tmp_path / "s.sqlite"
    assert run("validate", DAWN, "--store", store).exit_code == 0
    die_mid_write = ("import os, sqlite3, sys\n"
                     "db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA cache_size=1'); db.execute('BEGIN')\n"
                     "for i in range(3000): db.execute('INSERT INTO meta VALUES (?, ?)', (f'k{i}', 'x' * 500))\n"
                     "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", die_mid_write, str(store)], check=True)
    assert (tmp_path / "s.sqlite-journal").stat().st_size > 0  # (the interrupted transaction's)
    res = run("report", store)
    assert res.exit_code == 0 and "1 level: 1 par correct" in res.stdout, res.output
    assert not (tmp_path / "s.sqlite-journal").exists()


def test_a_store_locked_by_another_writer_is_called_locked_not_foreign(tmp_path, monkeypatch):
    """Another program holding the store's write lock (here a second connection in an exclusive
    transaction): after a short wait the run says the store is locked (exit 2), never that the file is
    not a kamicp store; nothing is run and the file is untouched."""
    store = tmp_path / "s.sqlite"
    assert run("validate", DAWN, "--store", store).exit_code == 0
    from kamicp.runtime.store import Store
    monkeypatch.setattr(Store, "lock_wait", 0.5, raising=False)
    holder = sqlite3.connect(store, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        for args in (("validate", DAWN, "--store", store, "--resume"), ("report", store)):
            res = run(*args)
            refused(res, "locked")
            assert "not a kamicp" not in res.output
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert run("report", store).exit_code == 0
