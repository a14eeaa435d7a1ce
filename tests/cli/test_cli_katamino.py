"""The katamino command through typer's CliRunner: answers, counts, JSON, pictures, exit codes, bad input;
books of challenges (the table, the pictures, every printed solution checked); signals to a running one."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.katamino import LETTERS, Puzzle, Rule, check_solution, shorthand, usable_engines
from kamicp.katamino.dlx import AlgorithmX
from tests.helpers import PUZZLES, wait_for_cpu
from tests.helpers.processes import command

runner = CliRunner()
BOOK = PUZZLES / "katamino" / "book.json"
HAVE_CORE = "fast" in usable_engines()
needs_core = pytest.mark.skipif(not HAVE_CORE, reason="compiled core not built")


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_solves_the_shorthand_and_prints_a_checked_picture():
    res = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["status"] == "solved" and data["puzzle"]["rule"] == "katamino"
    check_solution(shorthand("5x6", "LPUVYN"), data["solutions"][0])
    text = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--engine", "dlx")
    assert text.exit_code == 0 and "solved" in text.output
    drawing = [line for line in text.output.splitlines() if line[:1] in "┌│├└"]
    assert len(drawing) == 11 and drawing[0].startswith("┌") and drawing[-1].startswith("└")
    letters = re.findall(r"\b[A-Z]\b", "\n".join(drawing))
    assert sorted(letters) == sorted("LPUVYN")  # each piece labelled once


def test_count_and_all():
    res = run("katamino", "--board", "3x20", "--pieces", "FILNPTUVWXYZ", "--count", "--engine", "dlx")
    assert res.exit_code == 0, res.output
    assert "8 solutions, 2 up to the board's 4 symmetries" in res.output
    listed = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--all", "--json")
    data = json.loads(listed.stdout)
    assert data["count"] == len(data["solutions"]) == 4 * data["distinct"] and data["complete"]


def test_the_game_rule_and_free_packing():
    game = run("katamino", "--board", "5x4", "--pieces", "FIPU", "--json")
    assert game.exit_code == 1 and json.loads(game.stdout)["status"] == "impossible"
    free = run("katamino", "--board", "5x4", "--pieces", "FIPU", "--free", "--json")
    assert free.exit_code == 0, free.output
    data = json.loads(free.stdout)
    assert data["puzzle"]["rule"] == "free"
    check_solution(Puzzle(5, 4, "FIPU", rule=Rule.FREE), data["solutions"][0])


@needs_core
def test_the_fast_engine_counts_6x10():
    count = run("katamino", "--board", "6x10", "--pieces", LETTERS, "--free", "--count", "--engine", "fast")
    assert count.exit_code == 0 and "9356 solutions, 2339 up to the board's 4 symmetries" in count.output


def test_impossible_gives_the_reason_and_exit_1(tmp_path):
    res = run("katamino", "--board", "5x5", "--pieces", "LPUV")
    assert res.exit_code == 1
    assert "impossible: area 25 != 5 x 4 pieces = 20" in res.output
    searched = run("katamino", "--board", "5x6", "--pieces", "LPUVYX", "--json")
    assert searched.exit_code == 1 and json.loads(searched.stdout)["status"] == "impossible"


def test_puzzle_file_with_blocked_cells(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"rows": 4, "cols": 4, "pieces": "LPV", "blocked": [[0, 0]]}))
    res = run("katamino", path, "--count", "--json")
    data = json.loads(res.stdout)
    assert res.exit_code == 0, res.output
    assert data["puzzle"]["name"] == "p" and data["symmetries"] == 2 and (data["count"], data["distinct"]) == (4, 2)


@pytest.mark.parametrize("engine", [pytest.param("fast", marks=needs_core), "dlx", "cpsat"])
def test_time_limit_gives_unknown_exit_3(engine):
    res = run("katamino", "--board", "6x10", "--pieces", "FILNPTUVWXYZ", "--free", "--count", "--engine", engine,
              "--time-limit", "0.01")
    assert res.exit_code == 3, res.output
    assert "unknown" in res.output and "at least" in res.output


def test_pictures_are_written_and_never_overwritten(tmp_path):
    svg, png = tmp_path / "k.svg", tmp_path / "k.png"
    res = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", svg, "--png", png)
    assert res.exit_code == 0, res.output
    text = svg.read_text()
    assert text.count('class="cell"') == 30 and png.read_bytes()[:4] == b"\x89PNG"
    assert sorted(re.findall(r'class="letter"[^>]*>([A-Z])<', text)) == sorted("LPUVYN")
    assert text.count('class="edge"') > 0
    before = svg.read_text()
    again = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", svg)
    assert again.exit_code == 2 and "--force" in again.output and svg.read_text() == before
    forced = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", svg, "--force")
    assert forced.exit_code == 0


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": 5, "cols": 6, "pieces": "LPQ"}')
    badbook = tmp_path / "badbook.json"
    badbook.write_text('{"challenges": [{"pieces": "LPU", "start": 3}, {"pieces": "LPU", "start": 4}]}')
    cases = [
        ["katamino"],
        ["katamino", "--board", "5x6"],
        ["katamino", "--board", "5by6", "--pieces", "LPU"],
        ["katamino", "--board", "5x6", "--pieces", "LLP"],
        ["katamino", bad],
        ["katamino", bad, "--board", "5x6", "--pieces", "LPU"],
        ["katamino", tmp_path / "missing.json"],
        ["katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", tmp_path / "x.png"],
        ["katamino", badbook],
        ["katamino", BOOK, "--svg", tmp_path / "x.svg"],
        ["katamino", "--board", "5x6", "--pieces", "LPUVYN", "--pictures", tmp_path],
    ]
    for args in cases:
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, res.output)
    assert "field 'pieces'" in run("katamino", bad).output
    assert "challenge 2 field 'start'" in run("katamino", badbook).output


# --- books ----------------------------------------------------------------------------------------
def _no_cover(puzzle: Puzzle) -> bool:
    """Algorithm X on the bare placements (no quick proofs first) finds no exact cover."""
    rows = [(*p.cells, p.letter) for p in puzzle.placements]
    return next(AlgorithmX([*puzzle.free, *puzzle.pieces], rows).solutions(), None) is None


def test_the_example_book_is_solved_with_a_table_and_pictures():
    book = json.loads(BOOK.read_text())["challenges"]
    assert len(book) >= 20 and {len(c["pieces"]) for c in book} >= {3, 12}
    assert min(len(c["pieces"]) for c in book) >= 3 and max(len(c["pieces"]) for c in book) <= 12
    res = run("katamino", BOOK, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["complete"] and len(data["challenges"]) == len(book)
    impossible = 0
    for line, given in zip(data["challenges"], book, strict=True):
        assert [p["puzzle"]["cols"] for p in line["puzzles"]] == list(range(given["start"], len(given["pieces"]) + 1))
        for p in line["puzzles"]:
            assert p["puzzle"]["pieces"] == given["pieces"][:p["puzzle"]["cols"]]
            puzzle = Puzzle(5, p["puzzle"]["cols"], p["puzzle"]["pieces"])
            if p["status"] == "solved":
                check_solution(puzzle, p["solutions"][0])  # every printed solution, cell by cell
            else:
                assert p["status"] == "impossible" and _no_cover(puzzle), p  # checked by a plain search
                impossible += 1
    assert impossible > 0  # the random lines have impossible widths, proven
    text = run("katamino", BOOK)
    assert text.exit_code == 0
    for c in book:
        assert re.search(rf"│ {c['name']} +│ {c['pieces']} +│", text.output), c
    assert text.output.count("┌") > 100  # a picture per solved puzzle
    assert "proven impossible" in text.output


def test_book_counts_and_pictures_files(tmp_path):
    book = tmp_path / "b.json"
    book.write_text(json.dumps({"name": "two", "challenges": [
        {"name": "first", "pieces": "LNVUP", "start": 3}, {"name": "a/b", "pieces": "IPU", "start": 3}]}))
    res = run("katamino", book, "--count", "--json", "--pictures", tmp_path / "pics")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    first = {p["puzzle"]["cols"]: p for p in data["challenges"][0]["puzzles"]}
    direct = json.loads(run("katamino", "--board", "5x5", "--pieces", "LNVUP", "--count", "--json",
                            "--engine", "dlx").stdout)
    assert (first[5]["count"], first[5]["distinct"]) == (direct["count"], direct["distinct"])
    assert data["challenges"][1]["puzzles"][0]["count"] == 0  # I across 5 x 3 is not allowed
    names = sorted(p.name for p in (tmp_path / "pics").iterdir())
    assert names == ["01-first.png", "01-first.svg", "02-a-b.png", "02-a-b.svg"]
    svg = (tmp_path / "pics" / "01-first.svg").read_text()
    assert svg.count('class="panel"') == 3 and 'class="letter"' in svg
    again = run("katamino", book, "--pictures", tmp_path / "pics")
    assert again.exit_code == 2 and "--force" in again.output
    table = run("katamino", book, "--count", "--no-draw")
    assert "┌" not in table.output and "solutions up to the board's symmetries" in table.output


def test_one_challenge_file_is_a_book_of_one(tmp_path):
    one = tmp_path / "line.json"
    one.write_text(json.dumps({"pieces": "NPULY", "start": 3}))
    res = run("katamino", one, "--json", "--free")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["book"] == "line" and data["challenges"][0]["rule"] == "free"
    assert len(data["challenges"][0]["puzzles"]) == 3


def test_book_time_limit_gives_unknown_exit_3(tmp_path):
    book = tmp_path / "b.json"
    book.write_text(json.dumps({"challenges": [{"pieces": LETTERS, "start": 10}] * 3}))
    res = run("katamino", book, "--count", "--engine", "dlx", "--time-limit", "0.2", "--json")
    assert res.exit_code == 3, res.output
    data = json.loads(res.stdout)
    statuses = [p["status"] for c in data["challenges"] for p in c["puzzles"]]
    # the limit is the whole book's: no puzzle is started past it (9 were, each told 'unknown')
    assert "unknown" in statuses and len(statuses) < 9 and data["complete"] is False
    assert "puzzles solved" in res.stderr


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_a_book_with_the_table_so_far(tmp_path, sig, code):
    book = tmp_path / "big.json"
    book.write_text(json.dumps({"challenges": [{"name": f"L{k}", "pieces": LETTERS, "start": 3}
                                               for k in range(200)]}))
    with command([sys.executable, "-m", "kamicp", "katamino", str(book), "--count", "--no-draw",
                  "--free"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert wait_for_cpu(proc.pid, 3.0)  # at work past its imports, however loaded the machine
        assert proc.poll() is None
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == code, (out, err)
        assert "L0 " in out and "puzzles:" in out
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1
        assert re.fullmatch(r"interrupted: \d+ of 2000 puzzles solved \(the table above\)", lines[0])


@pytest.mark.parametrize("engine", ["cpsat", pytest.param("dlx", marks=pytest.mark.slow)])
def test_a_signal_stops_a_running_count_at_once(engine):
    """CP-SAT holds the main thread while it counts; the signal still ends the command at once."""
    with command([sys.executable, "-m", "kamicp", "katamino", "--board", "6x10", "--pieces", LETTERS,
                  "--free", "--count", "--engine", engine],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert wait_for_cpu(proc.pid, 3.0)
        assert proc.poll() is None
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130, (out, err)
        assert time.monotonic() - t0 < 10
        assert [line for line in err.splitlines() if line.strip()] == [
            "interrupted: 6x10-FILNPTUVWXYZ not decided (the count so far is kept only under --time-limit)"]
