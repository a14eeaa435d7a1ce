"""`kamicp import` of a rendered board through the CLI: the level written and the report, bad input."""

from __future__ import annotations

from PIL import Image
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.cli import app
from tests.helpers import LEVELS
from tests.helpers.pictures import assert_same_region_graph, degrade, huge_png, render

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
    res = run("import", shot, "-o", out, "--force", "--geometry", "square", "--rows", "10", "--cols", "16")
    assert res.exit_code == 0 and "warning" in res.output.lower() + res.stderr.lower()


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
