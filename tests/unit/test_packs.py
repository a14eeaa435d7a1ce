"""Packs (library): discovery, content hashes, the store and --resume, the report formats, the outcome's
precedence, and levels that cannot be read, crash or run out of memory becoming rows."""

from __future__ import annotations

import csv
import faulthandler
import io
import json
import os
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from kamicp import load_level
from kamicp.board.hashing import level_hash
from kamicp.board.rules import Board
from kamicp.formats import write_json
from kamicp.packs import (
    PackOutcome,
    PackSettings,
    PackStore,
    Row,
    Verdict,
    discover,
    load_pack,
    pack_outcome,
    proof_text,
    run_pack,
    summarize,
    to_csv,
    to_json,
    to_markdown,
    worker,
)
from kamicp.prover.solver import Free
from kamicp.render.png import board_png
from tests.helpers import PUZZLES
from tests.helpers.gamefiles import TINY_PUZ

TINY_XML = """<PuzzleData name="tiny" width="3" height="2" numColours="3" colours="123111"
    gold="2" silver="3" bronze="4"></PuzzleData>"""
FAST = PackSettings(engine="search", time_limit=30)
EASY = sorted(PUZZLES.glob("*.json"))


def copy_puzzles(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy(p, folder / p.name)) for p in EASY]


def test_discovery_files_folders_globs_and_mixed_formats(tmp_path):
    pack = tmp_path / "pack"
    copy_puzzles(pack / "tri")
    (pack / "k1.xml").write_text(TINY_XML)
    (pack / "k2.puz").write_text(TINY_PUZ)
    (pack / "grid.txt").write_text("AB\nBA\n")
    (pack / "shot.png").write_bytes(board_png(Board.start(load_level(PUZZLES / "tri-dawn.json"))))
    (pack / "notes.md").write_text("not a level")
    (pack / ".hidden").mkdir()
    (pack / ".hidden" / "x.json").write_text("{}")
    found = discover([pack])
    names = [p.name for p in found]
    assert "notes.md" not in names and "x.json" not in names
    assert {"k1.xml", "k2.puz", "grid.txt", "shot.png"} <= set(names)
    assert len(found) == len(EASY) + 4
    # a glob, a file named twice (once through the glob), a pattern matching nothing, a missing file
    again = discover([pack / "tri" / "*.json", pack / "tri" / "blog-18.json", tmp_path / "none*.json",
                      tmp_path / "missing.json"])
    assert [p.name for p in again[:len(EASY)]] == [p.name for p in EASY]
    assert len(again) == len(EASY) + 2
    assert discover([str(pack / "**" / "*.puz")]) == [pack / "k2.puz"]
    loaded = load_pack(found, geometry="square")
    kinds = {Path(item.path).suffix: item for item in loaded}
    assert all(item.level is not None for item in loaded if item is not kinds[".png"]), [i.error for i in loaded]
    # --geometry applies to screenshots and text grids: a triangle board read as squares is refused, never
    # read wrong; a square board's picture is read as one
    assert kinds[".png"].level is None and "grid's shape" in kinds[".png"].error
    (tmp_path / "square.png").write_bytes(board_png(Board.start(load_level(PUZZLES / "squ-quilt.json"))))
    assert load_pack([tmp_path / "square.png"], geometry="square")[0].level.geometry == "square"
    assert load_pack([pack / "shot.png"])[0].level.geometry == "triangle"  # else screenshots are Kami 2 boards
    assert kinds[".xml"].level.par == 2 and kinds[".txt"].level.geometry == "square"
    missing = load_pack([tmp_path / "missing.json"])[0]
    assert missing.level is None and "missing.json" in missing.error


def test_level_hash_is_content_not_name():
    level = load_level(PUZZLES / "tri-harbour.json")
    assert level_hash(level) == level_hash(replace(level, name="renamed"))
    assert level_hash(level) != level_hash(replace(level, par=(level.par or 0) + 1))
    assert level_hash(level) != level_hash(load_level(PUZZLES / "tri-ember.json"))


def test_rows_match_the_solver_and_are_stored_then_resumed(tmp_path, monkeypatch):
    files = copy_puzzles(tmp_path / "pack")
    store_path = tmp_path / "s.sqlite"
    seen: list[tuple[str, bool]] = []
    with PackStore(store_path) as store:
        rows = run_pack(load_pack(files), FAST, jobs=2, store=store, on_row=lambda r, s: seen.append((r.path, s)))
    assert [r.path for r in rows] == [str(f) for f in files]  # in the pack's order, whatever finished first
    assert sorted(p for p, _ in seen) == sorted(str(f) for f in files) and not any(s for _, s in seen)
    for row, f in zip(rows, files, strict=True):
        level = load_level(f)
        assert row.verdict == Verdict.CORRECT and row.optimum == level.par == row.lower == row.upper
        assert row.result["status"] == "optimal" and len(row.result["moves"]) == row.optimum
        assert row.proof and row.proof[-1][1] == "feasible"
    # resume: nothing runs again, the same rows come from the store; a renamed copy counts as answered
    shutil.copy(files[0], tmp_path / "pack" / "copy-of-first.json")
    monkeypatch.setattr(worker.LevelWorker, "run", lambda *a: pytest.fail("a stored level was run again"))
    seen.clear()
    with PackStore(store_path) as store:
        again = run_pack(load_pack(discover([tmp_path / "pack"])), FAST, jobs=2, store=store, resume=True,
                         on_row=lambda r, s: seen.append((r.path, s)))
        assert all(s for _, s in seen) and len(again) == len(files) + 1
        assert {r.path: r.verdict for r in store.rows()} == {r.path: r.verdict for r in again}
    # other settings are another key: they run
    with PackStore(store_path) as store, pytest.raises(pytest.fail.Exception):
        run_pack(load_pack(files[:1]), replace(FAST, slack=3), store=store, resume=True)


def test_bad_file_and_missing_par_are_rows_and_the_rest_runs(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"geometry": "square", "rows": ["AB", "A"], "par": 2}')
    nopar = tmp_path / "nopar.json"
    nopar.write_text(json.dumps({"geometry": "square", "rows": ["AB", "BA"]}))
    rows = run_pack(load_pack([bad, PUZZLES / "blog-18.json", nopar]), FAST, jobs=1)
    assert [r.verdict for r in rows] == [Verdict.BAD_INPUT, Verdict.CORRECT, Verdict.BAD_INPUT]
    assert "bad.json" in rows[0].error and "no par" in rows[2].error
    assert pack_outcome(rows) == PackOutcome.BAD_INPUT


def crash_on(name: str, how: str):
    real = worker.solve_level

    def solve_level(loaded, key, settings, rules, watch=None):
        if loaded.level.name == name:
            if how == "abort":
                faulthandler.disable()  # pytest's would print the child's stack
                os.abort()
            if how == "memory":
                return bytearray(64 << 30)  # 64 GiB: more than the cap, whatever the process started at
            raise RuntimeError("boom")
        return real(loaded, key, settings, rules, watch)
    return solve_level


def _address_space_mb() -> int:
    """This process's address space (VmSize): a level's process is forked from it and starts that large, so a
    cap (RLIMIT_AS) must be above it (late in a full test session it can pass 1 GB)."""
    line = next(t for t in Path("/proc/self/status").read_text().splitlines() if t.startswith("VmSize:"))
    return int(line.split()[1]) // 1024


@pytest.mark.parametrize("how, needle", [("abort", "SIGABRT"), ("memory", "out of memory"), ("raise", "boom")])
def test_a_crashing_level_is_a_row_not_the_end(monkeypatch, how, needle):
    monkeypatch.setattr(worker, "solve_level", crash_on("tri-ember", how))  # the fork inherits it
    files = [PUZZLES / "tri-ember.json", PUZZLES / "blog-18.json", PUZZLES / "tri-dawn.json"]
    rows = run_pack(load_pack(files), replace(FAST, memory_mb=_address_space_mb() + 1024), jobs=2)
    assert rows[0].verdict == Verdict.ERROR and needle in rows[0].error, rows[0].error
    assert [r.verdict for r in rows[1:]] == [Verdict.CORRECT, Verdict.CORRECT]
    assert pack_outcome(rows) == PackOutcome.UNKNOWN


def test_a_crash_reaches_the_runner_when_workers_start_together(monkeypatch):
    """Two workers start at once, each making its pipe while the other forks: a worker's crash must still
    reach the runner as EOF at once (a pipe end copied into the other worker's processes would hold it open
    until the pack's end). A slow Pipe() widens the window that made this a 60 s timeout in CI."""
    import multiprocessing.connection
    import time

    real_pipe = multiprocessing.connection.Pipe

    def slow_pipe(*args, **kwargs):
        ends = real_pipe(*args, **kwargs)
        time.sleep(0.3)
        return ends

    monkeypatch.setattr(multiprocessing.connection, "Pipe", slow_pipe)
    monkeypatch.setattr(worker, "solve_level", crash_on("tri-ember", "abort"))
    files = [PUZZLES / "tri-ember.json", PUZZLES / "blog-18.json", PUZZLES / "tri-dawn.json"]
    rows = run_pack(load_pack(files), FAST, jobs=2)
    assert rows[0].verdict == Verdict.ERROR and "SIGABRT" in rows[0].error, rows[0].error
    assert rows[0].seconds < 20


def row(verdict: Verdict, **kw) -> Row:
    return Row(path=f"{verdict}.json", level=str(verdict), level_hash="h", verdict=verdict, **kw)


@pytest.mark.parametrize("verdicts, expected", [
    ([Verdict.CORRECT], PackOutcome.CORRECT),
    ([], PackOutcome.CORRECT),
    ([Verdict.CORRECT, Verdict.NOT_MINIMAL], PackOutcome.WRONG),
    ([Verdict.UNACHIEVABLE, Verdict.CORRECT], PackOutcome.WRONG),
    ([Verdict.NOT_MINIMAL, Verdict.UNKNOWN], PackOutcome.UNKNOWN),
    ([Verdict.ERROR, Verdict.CORRECT], PackOutcome.UNKNOWN),
    ([Verdict.UNKNOWN, Verdict.BAD_INPUT, Verdict.NOT_MINIMAL], PackOutcome.BAD_INPUT),
])
def test_outcome_worst_wins(verdicts, expected):
    assert pack_outcome([row(v) for v in verdicts]) == expected


def test_summary_line_and_report_formats():
    rows = [row(Verdict.CORRECT, par=5, optimum=5, lower=5, upper=5, proof=((4, "bound", "bound"),
                                                                            (5, "feasible", "greedy"))),
            row(Verdict.NOT_MINIMAL, par=7, optimum=6, lower=6, upper=6,
                proof=((3, "bound", "bound"), (4, "infeasible", "search"), (5, "infeasible", "search"),
                       (6, "feasible", "cpsat"))),
            row(Verdict.UNKNOWN, par=9, lower=8, upper=11, proof=((8, "unknown", "cpsat"),)),
            row(Verdict.BAD_INPUT, error="x.json: broken")]
    assert summarize(rows).line() == "4 levels: 1 par correct, 1 par beatable, 1 unknown, 1 bad input"
    assert proof_text(rows[1]) == "≤3 bound, 4-5 search, 6 cpsat✓"
    data = json.loads(to_json(rows))
    assert [Row.from_dict(d) for d in data] == rows
    table = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert [t["verdict"] for t in table] == ["correct", "not-minimal", "unknown", "bad-input"]
    assert table[2]["bounds"] == "8..11" and table[2]["optimum"] == "?" and table[3]["error"] == "x.json: broken"
    md = to_markdown(rows).splitlines()
    assert md[0].startswith("| level |") and len(md) == 2 + len(rows) + 2 and md[-1].startswith("4 levels")


def test_store_refuses_other_files(tmp_path):
    from kamicp.errors import FormatError

    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database" * 100)
    with pytest.raises(FormatError, match="junk.sqlite"):
        PackStore(junk)
    assert junk.read_text() == "not a database" * 100
    other = tmp_path / "other.db"  # another program's database is not written into
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE mine (x)")
    before = other.read_bytes()
    with pytest.raises(FormatError, match="not a kamicp results store"):
        PackStore(other)
    assert other.read_bytes() == before
    with pytest.raises(FormatError, match="folder does not exist"):
        PackStore(tmp_path / "nowhere" / "s.sqlite")
    with pytest.raises(FormatError, match="no such store"):
        PackStore(tmp_path / "absent.sqlite", create=False)


def test_store_keeps_the_latest_row_per_file(tmp_path):
    level = load_level(PUZZLES / "blog-18.json")
    path = tmp_path / "lvl.json"
    write_json(level, path)
    with PackStore(tmp_path / "s.sqlite") as store:
        first = run_pack(load_pack([path]), FAST, store=store)[0]
        write_json(replace(level, par=4), path, overwrite=True)  # the designer edits the par
        second = run_pack(load_pack([path]), FAST, store=store, resume=True)[0]
        assert first.level_hash != second.level_hash and second.verdict == Verdict.UNACHIEVABLE
        assert [r.verdict for r in store.rows()] == [Verdict.UNACHIEVABLE]


def test_a_level_overrunning_its_time_limit_is_killed_as_a_row(monkeypatch):
    import time

    monkeypatch.setattr(worker, "GRACE", 0.5)
    monkeypatch.setattr(worker, "solve_level", lambda *a: time.sleep(60))  # ignores its time limit
    start = time.monotonic()
    rows = run_pack(load_pack([PUZZLES / "blog-18.json"]), replace(FAST, time_limit=0.5), jobs=1)
    assert rows[0].verdict == Verdict.ERROR and "killed" in rows[0].error
    assert time.monotonic() - start < 30


def _in_daemon(conn, item, settings):
    conn.send(worker.run_isolated(item, "k", settings, Free()))


def test_a_daemonic_worker_says_how_to_start_it():
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_in_daemon, args=(child, load_pack([PUZZLES / "blog-18.json"])[0], FAST), daemon=True)
    proc.start()
    got = parent.recv() if parent.poll(60) else None
    proc.join(10)
    assert got is not None and got.verdict == Verdict.ERROR and "DASK_DISTRIBUTED__WORKER__DAEMON=False" in got.error


def _row(path: str, verdict: Verdict, settings: PackSettings, optimum: int | None = None) -> Row:
    return Row(path=path, level=Path(path).stem, level_hash="h1", verdict=verdict, par=5, optimum=optimum,
               settings=settings.key())


def test_store_rows_one_per_level_the_strongest_answer_newest_among_equals(tmp_path):
    short, long_ = replace(FAST, time_limit=1), replace(FAST, time_limit=60)
    with PackStore(tmp_path / "s.sqlite") as store:
        store.put(_row("a.json", Verdict.CORRECT, long_, 5))
        store.put(_row("a.json", Verdict.UNKNOWN, short))  # weaker and newer: the proof stays
        store.put(_row("b.json", Verdict.UNKNOWN, short))
        store.put(_row("b.json", Verdict.UNKNOWN, long_))  # equals: the newest
        store.put(_row("c.json", Verdict.NOT_MINIMAL, short, 4))
        store.put(_row("c.json", Verdict.CORRECT, replace(long_, par=4), 4))  # two proofs: the newest
        rows = {r.path: r for r in store.rows()}
    assert len(rows) == 3
    assert (rows["a.json"].verdict, rows["a.json"].settings) == (Verdict.CORRECT, long_.key())
    assert rows["b.json"].settings == long_.key()
    assert rows["c.json"].verdict == Verdict.CORRECT
    from kamicp.packs.report import settings_text

    assert settings_text(rows["a.json"]) == "search, 60 s"
    assert settings_text(rows["c.json"]) == "search, 60 s, --par 4"


def test_resume_keeps_a_proof_made_under_another_time_limit_engine_or_seed(tmp_path, monkeypatch):
    files = copy_puzzles(tmp_path / "pack")[:2]
    with PackStore(tmp_path / "s.sqlite") as store:
        run_pack(load_pack(files), FAST, store=store)
        ran: list[str] = []
        real = worker.LevelWorker.run
        monkeypatch.setattr(worker.LevelWorker, "run",
                            lambda self, item, *a: ran.append(item.path) or real(self, item, *a))
        for other in (replace(FAST, time_limit=5), replace(FAST, engine="cpsat", seed=3, workers=2)):
            rows = run_pack(load_pack(files), other, store=store, resume=True)
            assert not ran and all(r.verdict == Verdict.CORRECT and r.settings == FAST.key() for r in rows)
        run_pack(load_pack(files), replace(FAST, slack=3), store=store, resume=True)  # another question
        assert sorted(ran) == sorted(map(str, files))
        # an unknown is not a proof: another time limit tries again
        store.put(replace(_row(str(files[0]), Verdict.UNKNOWN, replace(FAST, par=1)), level_hash=level_hash(
            load_level(files[0]))))
        ran.clear()
        run_pack(load_pack(files[:1]), replace(FAST, par=1, time_limit=7), store=store, resume=True)
        assert ran == [str(files[0])]


def test_the_eta_counts_down_while_the_last_level_runs():
    from rich.progress import Progress

    from kamicp.cli.packs import EtaColumn

    clock = [0.0]
    progress = Progress(get_time=lambda: clock[0], auto_refresh=False)
    task = progress.add_task("pack", total=4, done_at=None, worked=0)
    column = EtaColumn()
    assert column.render(progress.tasks[0]).plain == "-:--:--"  # nothing to go by yet
    progress.start_task(task)
    clock[0] = 30.0
    progress.update(task, completed=3, done_at=30.0, worked=3)  # 10 s a level: one left
    times = []
    for now in (30.0, 33.0, 38.0, 45.0):
        clock[0] = now
        times.append(column.render(progress.tasks[0]).plain)
    assert times == ["0:00:11", "0:00:08", "0:00:03", "-:--:--"]  # counts down; then unknown, never stuck


def with_pid(loaded, key, settings, rules, watch=None):
    """solve_level, with the pid of the process that answered in the row's error field."""
    row = REAL_SOLVE_LEVEL(loaded, key, settings, rules, watch)
    return replace(row, error=str(os.getpid()))


REAL_SOLVE_LEVEL = worker.solve_level


def test_a_worker_process_answers_level_after_level_and_a_crash_starts_a_fresh_one(monkeypatch):
    monkeypatch.setattr(worker, "solve_level", with_pid)
    files = [PUZZLES / "blog-18.json", PUZZLES / "tri-dawn.json", PUZZLES / "blog-18.json"]
    rows = run_pack(load_pack(files), FAST, jobs=1)
    assert [r.verdict for r in rows] == [Verdict.CORRECT] * 3 and len({r.error for r in rows}) == 1
    crash = crash_on("tri-ember", "abort")
    monkeypatch.setattr(worker, "solve_level",
                        lambda *a: crash(*a) if a[0].level.name == "tri-ember" else with_pid(*a))
    files = [PUZZLES / "blog-18.json", PUZZLES / "tri-ember.json", PUZZLES / "tri-dawn.json"]
    rows = run_pack(load_pack(files), FAST, jobs=1)
    assert [r.verdict for r in rows] == [Verdict.CORRECT, Verdict.ERROR, Verdict.CORRECT]
    assert "SIGABRT" in rows[1].error and rows[0].error != rows[2].error  # the next level: a fresh process


def test_the_running_levels_live_facts_reach_the_runner(tmp_path: Path) -> None:
    """Each level's process publishes its solve's snapshots into memory its worker shares: the runner hands
    the running levels' elapsed seconds, proven bounds and horizon to `on_live` while they run (validate's
    line per level), and nothing once they are done."""
    from kamicp.formats import load_level as read

    src = Path(__file__).parents[2] / "benchmarks/levels/gen-tri-60b5c-proper-s700.json"
    path = tmp_path / "s700.json"
    write_json(read(src).with_par(10), path)
    seen: list[list[worker.Live]] = []
    rows = run_pack(load_pack([path]), PackSettings(engine="auto", time_limit=4, slack=0), jobs=1,
                    on_live=seen.append)
    lives = [live for batch in seen for live in batch]
    assert rows[0].verdict in (Verdict.UNKNOWN, Verdict.CORRECT)
    assert lives and all(live.level == str(path) for live in lives)
    assert all(live.upper is None or live.lower <= live.upper for live in lives)
    assert max(live.elapsed for live in lives) > 1.0 and all(live.lower >= 6 for live in lives)
    elapsed = [live.elapsed for live in lives]
    assert elapsed == sorted(elapsed) and any(live.horizon is not None for live in lives)
    assert seen[-1] == [] or rows[0].seconds >= max(elapsed)  # (after the row: nobody runs)
