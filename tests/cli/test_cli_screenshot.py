"""`kamicp import` of a rendered board through the CLI: the level written and the report, bad input."""

from __future__ import annotations

import pytest
from PIL import Image
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.cli import app
from tests.helpers import LEVELS, PUZZLES
from tests.helpers.pictures import assert_same_region_graph, colour_bijection, degrade, huge_png, render

runner = CliRunner()

TRI = LEVELS / "tri-40b5c-s108.json"
SQU = LEVELS / "squ-32b5c-s304.json"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_cli_import_writes_a_level_and_prints_the_report(tmp_path):
    level = load_level(TRI)
    shot = tmp_path / "shot.jpg"
    degrade(render(level)).save(shot, quality=90)
    out = tmp_path / "level.json"
    res = run("import", shot, "-o", out)
    assert res.exit_code == 0, res.output
    assert "29 x 10" in res.output and "5 colours" in res.output
    assert_same_region_graph(level, load_level(out))
    res = run("import", shot, "-o", out)
    assert res.exit_code == 2 and "exists already" in res.stderr
    # a triangle board read as a 10 x 16 square grid: no box has that shape, so it is refused, not misread
    res = run("import", shot, "-o", out, "--force", "--geometry", "square", "--rows", "10", "--cols", "16")
    assert res.exit_code == 2 and "no board of the grid's shape" in res.stderr and res.stderr.count("\n") == 1


def test_cli_import_bad_input(tmp_path):
    bad = tmp_path / "notes.png"
    bad.write_text("hello")
    res = run("import", bad, "-o", tmp_path / "x.json")
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and str(bad) in res.stderr and "not an image" in res.stderr
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(huge_png(100_000, 100_000))
    res = run("import", bomb, "-o", tmp_path / "x.json")
    assert res.exit_code == 2 and "too large" in res.stderr and "Traceback" not in res.output
    assert not (tmp_path / "x.json").exists()


def test_cli_import_without_geometry_reads_a_square_render_as_squares(tmp_path):
    """A Kami 1 board rendered by kamicp, imported with no --geometry: the board's shape says squares;
    a picture that is no board is refused with the reason, exit 2."""
    level = load_level(SQU)
    shot = tmp_path / "square.png"
    degrade(render(level), seed=3).save(shot)
    out = tmp_path / "level.json"
    res = run("import", shot, "-o", out)
    assert res.exit_code == 0, res.output
    assert "square, 10 x 16" in res.output
    assert_same_region_graph(level, load_level(out))
    blank = tmp_path / "blank.png"
    Image.new("RGB", (300, 200), (250, 250, 250)).save(blank)
    res = run("import", blank, "-o", tmp_path / "x.json")
    assert res.exit_code == 2 and "no board found" in res.stderr and res.stderr.count("\n") == 1


# --- our own pictures (issue 37, new-user defect 3) ----------------------------------------------------
BUNDLED = sorted(p for p in PUZZLES.glob("*.json") if load_level(p).geometry != "graph")


def test_every_bundled_grid_level_is_tested():
    assert {load_level(p).geometry for p in BUNDLED} == {"triangle", "square"}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_show_png_of_a_bundled_level_imports_back_to_the_same_cells(path, tmp_path):
    """`show --png` draws a title above the board: it was read as board (tri-dawn came back with 6
    colours, squ-quilt was refused). Now the board alone is read, cell for cell, up to the palette."""
    png, out = tmp_path / "shot.png", tmp_path / "level.json"
    assert run("show", path, "--png", png).exit_code == 0
    res = run("import", png, "-o", out)
    assert res.exit_code == 0, res.output + res.stderr
    level, back = load_level(path), load_level(out)
    assert back.shape == level.shape and colour_bijection(level, back) is not None
    assert len(back.colour_keys) == len(level.colour_keys)


@pytest.mark.parametrize("path", [PUZZLES / "tri-dawn.json", PUZZLES / "squ-quilt.json"], ids=lambda p: p.stem)
def test_a_degraded_show_png_imports_back_to_the_same_cells(path, tmp_path):
    png, out = tmp_path / "shot.png", tmp_path / "level.json"
    assert run("show", path, "--png", png).exit_code == 0
    shot = tmp_path / "shot.jpg"
    degrade(Image.open(png).convert("RGB"), seed=2).save(shot, quality=90)
    res = run("import", shot, "-o", out)
    assert res.exit_code == 0, res.output + res.stderr
    assert colour_bijection(load_level(path), load_level(out)) is not None


def test_a_show_png_read_with_the_given_grid_is_read_right_or_refused(tmp_path):
    """squ-quilt with --geometry square --rows 10 --cols 16 lost a row with only a warning; with the
    shape of another grid it is refused."""
    png, out = tmp_path / "quilt.png", tmp_path / "level.json"
    quilt = PUZZLES / "squ-quilt.json"
    assert run("show", quilt, "--png", png).exit_code == 0
    res = run("import", png, "-o", out, "--geometry", "square", "--rows", "10", "--cols", "16")
    assert res.exit_code == 0, res.output + res.stderr
    assert colour_bijection(load_level(quilt), load_level(out)) is not None
    res = run("import", png, "-o", tmp_path / "y.json", "--geometry", "square", "--rows", "9", "--cols", "16")
    assert res.exit_code == 2 and "no board of the grid's shape" in res.stderr
    assert not (tmp_path / "y.json").exists()
