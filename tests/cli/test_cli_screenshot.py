"""`kamicp import` of a rendered board through the CLI: the level written and the report, bad input."""

from __future__ import annotations

from typer.testing import CliRunner

from kamicp import load_level
from kamicp.cli import app
from tests.helpers import LEVELS
from tests.helpers.pictures import assert_same_region_graph, degrade, huge_png, render

runner = CliRunner()

TRI = LEVELS / "tri-40b5c-s108.json"


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
