"""Issue 37, the CLI output, input-checking and docs items: each test fails before its fix."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from tests.helpers import PUZZLES

runner = CliRunner()


def run(*args: object, env: dict[str, str] | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env)


# --- hostile 11: outputs written at once, never through a symbolic link


def test_convert_force_replaces_a_link_not_its_target(tmp_path: Path) -> None:
    precious = tmp_path / "precious.json"
    precious.write_text("mine\n")
    link = tmp_path / "link.json"
    link.symlink_to(precious)
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", link, "--force")
    assert res.exit_code == 0, res.output
    assert precious.read_text() == "mine\n"
    assert not link.is_symlink() and json.loads(link.read_text())["geometry"] == "triangle"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_a_dangling_link_is_an_existing_file_and_its_target_is_not_created(tmp_path: Path) -> None:
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "target.json")
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", link)
    assert res.exit_code == 2 and "exists already" in res.output
    assert not (tmp_path / "target.json").exists()
    svg = tmp_path / "out.svg"
    svg.symlink_to(tmp_path / "target.svg")
    res = run("show", PUZZLES / "tri-dawn.json", "--svg", svg)
    assert res.exit_code == 2 and "exists already" in res.output
    assert not (tmp_path / "target.svg").exists()


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk (ENOSPC when the bytes reach the disk) leaves the old file whole, no partial one beside."""
    import errno

    out = tmp_path / "precious.json"
    out.write_text("mine\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", out, "--force")
    monkeypatch.undo()
    assert res.exit_code == 2 and "No space left" in res.output, res.output
    assert out.read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.json"]


def test_show_refuses_the_same_path_twice_before_writing(tmp_path: Path) -> None:
    x = tmp_path / "x.png"
    res = run("show", PUZZLES / "tri-dawn.json", "--svg", x, "--png", x)
    assert res.exit_code == 2 and "named twice" in res.output
    assert not x.exists()


# --- new-user 8: every output checked before the work


def test_steps_dir_under_a_file_is_refused_before_the_solve(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = run("solve", PUZZLES / "tri-dawn.json", "--steps-dir", blocker / "x")
    assert res.exit_code == 2, res.output
    assert "not a folder" in res.output and "optimal" not in res.output


# --- new-user 7, rough edges: what a wrong file name or a grid of numbers gets


def test_a_missing_file_without_extension_is_no_such_file(tmp_path: Path) -> None:
    res = run("info", tmp_path / "typo_level")
    assert res.exit_code == 2 and "typo_level: no such file" in res.output, res.output


def test_numbers_point_to_the_flood_it_format(tmp_path: Path) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text("1 2 3\n2 3 1\n")
    res = run("info", grid, "--geometry", "square")
    assert res.exit_code == 2 and "--format flood99" in res.output
    csv = tmp_path / "g.csv"
    csv.write_text("1,2\n")
    res = run("info", csv)
    assert res.exit_code == 2 and "unknown file type '.csv'" in res.output and "--format flood99" in res.output


# --- rough edges: the rules in force, the colour sequence under pivot rules, singulars


FLOOD = "3 3 3\n1 2 3\n2 3 1\n3 1 2\n0\n"


def test_a_flood_it_board_names_the_rules_it_is_solved_under(tmp_path: Path) -> None:
    path = tmp_path / "03_03_03_001"
    path.write_text(FLOOD)
    kami = run("solve", path)
    assert kami.exit_code == 0, kami.output
    assert "Kami rules" in kami.stdout and "--rules pivot" in kami.stdout
    flood = run("solve", path, "--rules", "pivot")
    assert "Flood-It rules" in flood.stdout and "--rules pivot" not in flood.stdout
    tapped = [line for line in flood.stdout.splitlines() if "(0, 0)" in line]
    assert tapped == [flood.stdout.splitlines()[0]]  # only the header names the pivot: no tap column
    count = run("count", path, "--rules", "pivot")
    assert "class 1: colours " in count.stdout and "(0, 0)" not in count.stdout
    plain = tmp_path / "plain.txt"
    plain.write_text("AB\n")
    assert "Kami rules" in run("solve", plain, "--geometry", "square").stdout


def test_singulars(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text("A\n")
    res = run("solve", one, "--geometry", "square")
    assert "1 region, 1 colour," in res.stdout, res.stdout
    assert "1 row x 1 column" in run("info", one, "--geometry", "square").stdout
    from kamicp.board.level import Level, Move
    from kamicp.board.rules import verify
    from kamicp.errors import RuleError

    level = Level.from_rows(["AB", "BC"], "square")
    with pytest.raises(RuleError, match="after 1 move the board"):
        verify(level, [Move(0, "B")])


def test_help_names_every_level_kind_and_format() -> None:
    for command in ("solve", "play", "info"):
        text = " ".join(run(command, "--help", env={"COLUMNS": "200"}).stdout.split())
        assert "screenshot" in text and "rows_cols_colours_index" in text, command
    from kamicp.formats import READERS

    text = " ".join(run("solve", "--help", env={"COLUMNS": "200"}).stdout.split())
    assert all(fmt in text for fmt in READERS) and "FILE#K" in text


# --- new-user 5: the proof table's row for an unknown horizon


def test_an_unknown_horizon_shows_the_engine_that_spent_the_time() -> None:
    from kamicp.prover.outcome import EngineName, Horizon, Outcome, Result, Status

    proof = (Horizon(8, Outcome.INFEASIBLE, 1.1, EngineName.SEARCH),
             Horizon(9, Outcome.UNKNOWN, 0.012, EngineName.SEARCH),
             Horizon(9, Outcome.UNKNOWN, 12.98, EngineName.CPSAT),
             Horizon(9, Outcome.UNKNOWN, 13.87, EngineName.CPSAT))
    result = Result("x", Status.UNKNOWN, (), 9, 11, None, proof, EngineName.AUTO, 15.2, 10, 5)
    nine = [h for h in result.proof_by_horizon() if h.steps == 9]
    assert nine == [proof[3]]
    assert [h.steps for h in result.proof_by_horizon()] == [8, 9]


# --- hostile 12: a huge --memory-limit is bad input, not a crash per level


def test_a_huge_memory_limit_is_one_line_exit_2() -> None:
    res = run("validate", PUZZLES / "tri-dawn.json", "--memory-limit", "99999999999999")
    assert res.exit_code == 2 and "--memory-limit" in res.output and "crashed" not in res.output, res.output
    res = run("validate", PUZZLES / "tri-dawn.json", "--memory-limit", str(2**40))
    assert res.exit_code == 0, res.output


# --- new-user 9 and 12: validate on the project's own folder; docs that agree with the help


def test_validate_skips_a_katamino_book_in_a_folder_with_a_note(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles"
    shutil.copytree(PUZZLES / "katamino", folder / "katamino")
    shutil.copy(PUZZLES / "tri-dawn.json", folder)
    bad = folder / "bad.json"
    bad.write_text("{}")
    res = run("validate", folder)
    assert res.exit_code == 2, res.output  # (bad.json: a bad level is still bad input)
    assert "note: skipped" in res.stderr and "book.json" in res.stderr and "kamicp katamino" in res.stderr
    progress = [line for line in res.stderr.splitlines() if line.startswith("[")]
    assert len(progress) == 2 and any(": bad input (" in line for line in progress), progress
    bad.unlink()
    assert run("validate", folder).exit_code == 0
    named = run("validate", folder / "katamino" / "book.json")  # named on its own: read, and said what it is
    assert named.exit_code == 2 and "kamicp katamino" in named.output


def test_generate_out_is_required_in_the_docs_too() -> None:
    from tests.helpers import ROOT

    reference = (ROOT / "docs" / "commands.md").read_text()
    assert "[-o OUT]" not in reference and "--par N -o OUT" in reference
    assert "Required: `-o`" in reference


# --- new-user 10, hostile 14: report's table at 80 columns, the reason of a bad row, names and CSV cells


def _store_with_odd_names(tmp_path: Path) -> Path:
    level = json.loads((PUZZLES / "tri-dawn.json").read_text())
    (tmp_path / "evil.json").write_text(json.dumps({**level, "name": "evil\nfake │ 1 │ 1 │ correct"}))
    (tmp_path / "formula.json").write_text(json.dumps({**level, "name": '=HYPERLINK("http://x","y")'}))
    (tmp_path / "bad.json").write_text("{}")
    store = tmp_path / "s.sqlite"
    names = [PUZZLES / "tri-ember.json", tmp_path / "evil.json", tmp_path / "formula.json", tmp_path / "bad.json"]
    res = run("validate", *names, "--store", store, "--engine", "search")
    assert res.exit_code == 2, res.output
    assert "evil\\nfake" in res.stderr and "\nfake" not in res.stderr  # (the progress line)
    return store


def test_report_wraps_the_proof_shows_reasons_and_escapes_names(tmp_path: Path) -> None:
    store = _store_with_odd_names(tmp_path)
    res = runner.invoke(app, ["report", str(store)], env={"COLUMNS": "80"})
    assert res.exit_code == 2, res.output  # (a bad-input row)
    lines = res.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    text = " ".join(part.strip() for line in lines for part in line.split("│"))
    text = " ".join(text.split())
    assert re.search(r"≤[0-9]+ bound, [0-9-]+ search, 7 \w+✓", text), res.stdout  # the whole proof, wrapped, not cut
    assert "field 'geometry': missing" in text
    assert not any(line.startswith("fake") for line in lines) and "evil\\nfake" in res.stdout


def test_report_csv_neutralises_formulas(tmp_path: Path) -> None:
    store = _store_with_odd_names(tmp_path)
    res = run("report", store, "--csv")
    assert "'=HYPERLINK(" in res.stdout and ',"=HYPERLINK' not in res.stdout and "\n=HYPERLINK" not in res.stdout


# --- new-user 11: the Katamino example book in a built package


def test_a_built_package_carries_the_example_book(tmp_path: Path) -> None:
    """setup.py's build_py copies the book into the package (a wheel is built from that folder), and the
    package's own copy is the one found first."""
    import subprocess
    import sys

    from tests.helpers import ROOT

    build = tmp_path / "lib"
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    packaged = build / "kamicp" / "katamino" / "books" / "sampler.json"
    assert packaged.read_text() == (PUZZLES / "katamino" / "book.json").read_text()
    found = subprocess.run([sys.executable, "-c", "from kamicp.katamino.files import bundled_book; "
                            "print(bundled_book())"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(build)},
                           capture_output=True, text=True, timeout=60)
    assert found.stdout.strip() == str(packaged.resolve()), found


def test_the_example_book_by_name_from_an_empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = run("katamino", "sampler", "--no-draw", "--json")
    assert res.exit_code in (0, 3), res.output
    assert json.loads(res.stdout)["book"] == "kamicp sampler"


# --- hostile 14: a 1 x 1 picture is refused without numpy's RuntimeWarnings


def test_a_one_pixel_picture_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    from PIL import Image

    png = tmp_path / "one.png"
    Image.new("RGB", (1, 1), (255, 0, 0)).save(png)
    proc = subprocess.run([sys.executable, "-m", "kamicp", "info", str(png)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# --- rough edges: the docs' examples, run in order in the checkout, leave only git-ignored files


def test_the_docs_examples_write_distinct_ignored_files() -> None:
    import shlex
    import subprocess

    from tests.cli.test_readme import EXAMPLES
    from tests.helpers import ROOT

    written: dict[str, str] = {}
    for example in EXAMPLES:
        for command, _first, error in example.commands:
            words = shlex.split(command)
            for flag in ("-o", "--out", "--overlay", "--svg", "--png", "--store", "--steps-dir"):
                for k, word in enumerate(words[:-1]):
                    if word != flag or error:
                        continue
                    target = words[k + 1]
                    where = f"{example.page}:{example.line}"
                    if flag != "--store":  # (a store is meant to be reused: --resume, report)
                        assert target not in written, f"{target}: written by {written[target]} and {where}"
                    written[target] = where
    assert written
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *written], cwd=ROOT, capture_output=True,
                             text=True).stdout.split()
    assert sorted(set(written) - set(ignored)) == [], "not git-ignored"


# --- rough edges: palette values checked, palette order followed


def test_a_palette_value_that_is_no_colour_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"geometry": "square", "rows": ["AB"], "palette": {"A": "notacolour"}}))
    res = run("info", path)
    assert res.exit_code == 2 and "field 'palette', key \"A\"" in res.output and "notacolour" in res.output
    path.write_text(json.dumps({"geometry": "square", "rows": ["AB"],
                                "palette": {"A": "Rebecca Purple", "B": "#fff"}}))
    assert run("info", path).exit_code == 0


def test_legend_and_play_swatches_follow_the_palette_order(tmp_path: Path) -> None:
    from kamicp.formats import load_level
    from kamicp.play.view import level_view

    path = tmp_path / "p.json"
    path.write_text(json.dumps({"geometry": "square", "rows": ["ABCD"],
                                "palette": {"C": "red", "A": "blue", "B": "green"}}))
    level = load_level(path)
    assert level.display_keys == ("C", "A", "B", "D")
    assert [p["key"] for p in level_view(level, "t")["palette"]] == ["C", "A", "B", "D"]
    legend = run("show", path).stdout.splitlines()[1]
    assert [legend.index(k) for k in "CABD"] == sorted(legend.index(k) for k in "CABD"), legend


# --- rough edges: hint --moves errors name the option


@pytest.mark.parametrize("moves", ["1:Nope", "xx", "99:Red", "[1"])
def test_hint_moves_errors_name_the_option(moves: str) -> None:
    res = run("hint", PUZZLES / "blog-18.json", "--moves", moves)
    assert res.exit_code == 2 and res.output.startswith("error: --moves: "), res.output


def test_other_outputs_under_a_file_are_refused_before_the_work(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = run("katamino", "--board", "5x6", "--pieces", "LPUVYN", "--svg", blocker / "x.svg")
    assert res.exit_code == 2 and "not a folder" in res.output, res.output
    res = run("generate", "--geometry", "square", "--rows", "4", "--cols", "4", "--colours", "3", "--par", "3",
              "-o", blocker / "x.json")
    assert res.exit_code == 2 and "is not a folder" in res.output, res.output
    link = tmp_path / "g.json"
    link.symlink_to(tmp_path / "nowhere.json")
    res = run("generate", "--geometry", "square", "--rows", "4", "--cols", "4", "--colours", "3", "--par", "3",
              "-o", link)
    assert res.exit_code == 2 and "exists already" in res.output and not (tmp_path / "nowhere.json").exists()


def test_katamino_pictures_under_a_file_are_refused_before_the_book(tmp_path: Path) -> None:
    from kamicp.katamino.picture import check_line_files

    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(Exception, match="not a folder"):
        check_line_files(blocker / "x", ["A"])


def test_count_interrupted_in_the_singular() -> None:
    from kamicp.cli.designer import interrupted_count_line
    from kamicp.prover.outcome import CountResult

    line = interrupted_count_line(CountResult("x", 7, 1, 1, False, 7, 7, (), 1.0))
    assert "at least 1 optimal solution," in line and "at least 1 class" in line, line


def test_force_keeps_the_replaced_files_permissions(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("old\n")
    out.chmod(0o640)
    assert run("convert", PUZZLES / "tri-dawn.json", "-o", out, "--force").exit_code == 0
    assert out.stat().st_mode & 0o777 == 0o640 and "triangle" in out.read_text()


def test_katamino_count_in_the_singular() -> None:
    res = run("katamino", "--board", "1x5", "--pieces", "I", "--count")
    assert res.exit_code == 0 and "1 solution, 1 up to" in res.stdout, res.stdout


def test_a_hostile_palette_value_is_refused_in_one_escaped_line(tmp_path: Path) -> None:
    """(The hostile tests' levels had such a palette value, printed escaped in the legend: it is now refused
    when read, in one line, its control characters escaped.)"""
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"geometry": "square", "rows": ["AB"], "palette": {"A": "[/x]\x1b[31m[bold]N"}}))
    res = run("info", path)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "\x1b" not in res.output
    assert "field 'palette', key \"A\"" in res.output


def test_a_long_file_name_is_written(tmp_path: Path) -> None:
    out = tmp_path / ("x" * 245 + ".json")
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", out)
    assert res.exit_code == 0 and out.is_file(), res.output
