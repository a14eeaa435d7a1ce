"""The command line as a new user meets it (issue 24): --help and --version, option errors, wording, and
generate refusing what it cannot make (issue 28 item 10). Through typer's CliRunner."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.cli import app
from kamicp.designer.count import count_optimal
from tests.helpers import PUZZLES, ROOT
from tests.helpers.processes import command

runner = CliRunner()
COMMANDS = sorted(typer.main.get_command(app).commands)  # (every command, also one added later)


def run(*args: object, env: dict[str, str] | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env)


def _help(*command: str, columns: int = 80):
    return run(*command, "--help", env={"COLUMNS": str(columns), "TERM": "dumb", "NO_COLOR": "1"})


def _broken_lines(text: str) -> list[str]:
    """In a help rendered wider than any of its lines, the lines that continue a sentence: a hard line
    break (a docstring's), not the terminal's wrapping. (A row starts with an option, a command's name,
    a capital, or a bracket: `[default: ...]`.)"""
    rows = [line.strip("│╭╰─╮╯ ").strip() for line in text.splitlines()]
    return [row for row in rows if (row[:1].islower() or row[:1] == "(") and row.split()[0] not in COMMANDS]


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_reads_cleanly_at_80_columns(command: str | None) -> None:
    res = _help(command) if command else _help()
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "<bool>" not in text and "<int" not in text and "<float" not in text and "<path>" not in text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage, usage
    wide = _help(command, columns=1000) if command else _help(columns=1000)
    assert not _broken_lines(wide.stdout), _broken_lines(wide.stdout)


def test_version() -> None:
    res = run("--version")
    assert res.exit_code == 0
    assert re.fullmatch(r"kamicp \d+\.\d+\.\d+\S*\n", res.stdout), res.stdout


def test_a_bad_choice_is_one_clean_line_listing_the_choices(blog_path: Path) -> None:
    res = run("solve", blog_path, "--engine", "foo")
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "Value error" not in lines[0], lines
    assert "'foo'" in lines[0] and all(name in lines[0] for name in ("cpsat", "search", "auto"))


# --- generate refuses what it cannot make (issue 24 defect 5, issue 28 item 10) -------------------------

def test_generate_refuses_more_colours_than_the_par_can_remove(tmp_path: Path) -> None:
    res = run("generate", "--geometry", "triangle", "--colours", "5", "--par", "2", "-o", tmp_path / "x.json")
    assert res.exit_code == 2
    assert "5 colours need at least 4 moves" in res.output
    assert not (tmp_path / "x.json").exists()


def test_generated_levels_have_the_colours_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "pack"  # (seed 1 used to make a 5-colour level of 6 asked for)
    res = run("generate", "--geometry", "square", "--rows", "4", "--cols", "4", "--colours", "6", "--par", "5",
              "--count", "2", "--seed", "1", "--engine", "search", "-o", out)
    assert res.exit_code == 0, res.output
    files = list(out.glob("*.json"))
    assert len(files) == 2
    for path in files:
        assert len(set("".join(json.loads(path.read_text())["rows"])) - {"."}) == 6


def test_generate_refuses_a_par_above_what_the_board_can_need(tmp_path: Path) -> None:
    res = run("generate", "--geometry", "triangle", "--colours", "3", "--par", "1000", "-o", tmp_path / "x.json")
    assert res.exit_code == 2
    assert "290 cells" in res.output and "at most 289 moves" in res.output


def test_generate_refuses_a_negative_seed(tmp_path: Path) -> None:
    res = run("generate", "--geometry", "square", "--colours", "3", "--par", "3", "--seed", "-1",
              "-o", tmp_path / "x.json")
    assert res.exit_code == 2 and "--seed" in res.output


def test_generate_says_how_far_it_got_when_time_runs_out(tmp_path: Path) -> None:
    res = run("generate", "--geometry", "square", "--rows", "4", "--cols", "4", "--colours", "3", "--par", "3",
              "--count", "100000", "--time-limit", "1.5", "--engine", "search", "-o", tmp_path / "pack")
    assert res.exit_code == 3
    written = len(list((tmp_path / "pack").glob("*.json")))
    assert written > 0
    assert f"while making level {written + 1}" in res.output and f"wrote {written} of 100000" in res.output
    assert "after 0 boards" not in res.output and " 1 boards" not in res.output


def test_generate_write_failure_is_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "pack"
    (out / "gen-squ-par3-s0-001.json").mkdir(parents=True)  # where the first level would go: not a file
    res = run("generate", "--geometry", "square", "--rows", "5", "--cols", "5", "--colours", "3", "--par", "3",
              "--count", "2", "--engine", "search", "--force", "-o", out)
    assert res.exit_code == 2, res.output
    assert "not a regular file" in res.output and "wrote 0 of 2 levels" in res.output


# --- wording ---------------------------------------------------------------------------------------------

def test_hint_says_one_move_and_a_finished_solution_plainly(blog_path: Path) -> None:
    res = run("hint", blog_path, "--moves", "1:Red", "--engine", "search")
    assert res.exit_code == 0, res.output
    assert "after 1 move:" in res.stdout and "1 moves" not in res.stdout
    solution = run("solve", blog_path, "--json", "--engine", "search").stdout
    done = run("hint", blog_path, "--moves", solution, "--engine", "search")
    assert done.exit_code == 0, done.output
    assert "solved, in 5 moves" in done.stdout and "par 5: made" in done.stdout
    assert "still possible" not in done.stdout


def test_solve_on_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    res = run("solve", tmp_path)
    assert res.exit_code == 2
    assert "is a directory" in res.output and "(no extension)" not in res.output
    assert "validate" in res.output  # (the command that takes folders)


def test_count_on_a_folder_too() -> None:
    res = run("count", PUZZLES)
    assert res.exit_code == 2 and "is a directory" in res.output


# --- count: Ctrl-C says what was counted; the spinner shows a running count (issue 24 defect 4) -------

@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), pytest.param(signal.SIGTERM, 143,
                                                                               marks=pytest.mark.slow)])
def test_count_interrupted_says_what_was_counted(sig: int, code: int) -> None:
    # tri-ember: the optimum is proven in well under a second, the count takes about a minute
    with command([sys.executable, "-c", "from kamicp.cli import app; app()", "count",
                  str(PUZZLES / "tri-ember.json"), "--engine", "search"],
                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        time.sleep(8)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == code, err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        found = re.fullmatch(r"interrupted: optimum 7 moves \(proven\); counted so far: at least (\d+) optimal "
                             r"solutions?, at least (\d+) class(es)?", lines[0])
        assert found and int(found[1]) >= 1 and int(found[2]) >= 1, lines[0]


def test_count_reports_a_running_count() -> None:
    heard: list[str] = []
    res = count_optimal(load_level(PUZZLES / "tri-ember.json"), engine="search", time_limit=3,
                        progress=heard.append)
    assert res.stopped_by == "time"
    running = [m for m in heard if "found so far" in m]
    assert running, heard
    counts = [int(re.search(r": ([\d,]+) found so far", m)[1].replace(",", "")) for m in running]
    assert counts == sorted(counts)


@pytest.mark.parametrize("args", [["--png", "/nonexistent/x.png"], ["--solution", "--svg", "/nonexistent/x.svg"]])
def test_show_checks_its_outputs_before_any_work(args: list[str]) -> None:
    res = run("show", PUZZLES / "tri-dawn.json", *args)
    assert res.exit_code == 2
    assert res.stdout == "", res.stdout  # no board drawn, nothing solved
    assert "/nonexistent" in res.stderr and "does not exist" in res.stderr


def test_convert_checks_its_output_folder_before_reading(tmp_path: Path) -> None:
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", tmp_path / "missing" / "x.json")
    assert res.exit_code == 2 and "does not exist" in res.stderr and res.stdout == ""


def test_show_solution_explains_its_marker() -> None:
    res = run("show", PUZZLES / "tri-dawn.json", "--solution", "--engine", "search")
    assert res.exit_code == 0, res.output
    assert "* marks the cell tapped" in res.stdout  # (plain output: the marker is `*`)
    assert res.stdout.count("*") == 3 + 1  # three moves, and the explanation


def test_the_proof_table_fits_80_columns() -> None:
    res = run("solve", PUZZLES / "tri-harbour.json", env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), res.stdout
    notes = [line for line in lines if line.startswith("bound ")]
    assert notes and notes[0].rstrip().endswith("1 island")  # the reason on one line, not wrapped
    value = notes[0].split()[1].rstrip(":")
    assert any(f"impossible: lower bound {value}" in line for line in lines)


# --- pictures: a title, and a strip that wraps -----------------------------------------------------------

def test_pictures_have_a_title_and_the_strip_wraps(tmp_path: Path) -> None:
    from PIL import Image

    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    res = run("show", PUZZLES / "tri-ember.json", "--solution", "--engine", "search", "--svg", svg, "--png", png)
    assert res.exit_code == 0, res.output
    text = svg.read_text()
    assert "<title>tri-ember (par 7): solution in 7 moves</title>" in text
    assert re.search(r'<text class="title"[^>]*>tri-ember \(par 7\): solution in 7 moves</text>', text)
    width, height = Image.open(png).size
    assert width <= 2100 and height > width / 2, (width, height)  # 8 boards in rows, not one row of 4,948 px
    board = tmp_path / "b.svg"
    assert run("show", PUZZLES / "blog-18.json", "--svg", board).exit_code == 0
    assert "blog-18 (par 5)</text>" in board.read_text()


def test_one_move_is_singular_everywhere(tmp_path: Path) -> None:
    level = tmp_path / "one.json"
    level.write_text(json.dumps({"geometry": "graph", "nodes": {"1": "A", "2": "B"}, "edges": [[1, 2]], "par": 1}))
    texts = [run(*args).stdout for args in (("solve", level), ("prove", level, "--under", "1"), ("count", level),
                                             ("show", level, "--solution"))]
    assert all(re.search(r"\b1 (moves|islands)\b", text) is None for text in texts), texts
    assert "optimal: 1 move (" in texts[0] and "need 1 move;" in texts[0]


def _first_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The first line `proc` prints on stdout; '' when none comes within `timeout` seconds."""
    lines: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: lines.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else ""


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), pytest.param(signal.SIGTERM, 143,
                                                                               marks=pytest.mark.slow)])
def test_generate_interrupted_says_what_it_wrote(sig: int, code: int, tmp_path: Path) -> None:
    """The signal comes once the first level is written (its line on stdout: generate is running, its
    handlers are set), not after a fixed sleep, which a loaded machine can outlast while Python starts."""
    out = tmp_path / "pack"
    with subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "generate", "--geometry",
                           "square", "--rows", "5", "--cols", "5", "--colours", "3", "--par", "3", "--count",
                           "100000", "--engine", "search", "-o", str(out)],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        try:
            first = _first_line(proc, timeout=300)
            assert first.startswith(str(out)) and ": par 3, " in first, first
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:  # (a hang: fail, leaving no process behind)
                proc.kill()
                proc.wait()
    assert proc.returncode == code, err
    written = sorted(out.glob("*.json"))
    assert written and err.strip() == f"interrupted: wrote {len(written)} of 100000 levels, each complete and proven"
    for path in written:
        assert json.loads(path.read_text())["proof"]["optimum"] == 3  # (none cut short)
