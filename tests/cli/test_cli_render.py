"""The CLI's pictures: show --svg/--png, show --solution, solve --steps-dir."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from typer.testing import CliRunner

from kamicp.cli import app
from tests.helpers import LEVELS, known_optima
from tests.helpers.pictures import NS, cells, open_png

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_cli_show_writes_svg_and_png(tmp_path, blog_path):
    svg, png = tmp_path / "b.svg", tmp_path / "b.png"
    res = run("show", blog_path, "--svg", svg, "--png", png)
    assert res.exit_code == 0, res.output
    assert len(ET.fromstring(svg.read_text()).findall(".//s:circle[@class='node']", NS)) == 18
    assert open_png(png.read_bytes()).size[0] > 100
    res = run("show", blog_path, "--svg", svg)
    assert res.exit_code == 2
    assert "exists already" in res.stderr and "Traceback" not in res.output


def test_cli_show_solution_writes_the_strip(tmp_path):
    path = LEVELS / "tri-8b3c-s100.json"
    svg = tmp_path / "strip.svg"
    res = run("show", path, "--solution", "--svg", svg)
    assert res.exit_code == 0, res.output
    panels = ET.fromstring(svg.read_text()).findall("s:g[@class='panel']", NS)
    assert len(panels) == known_optima()["tri-8b3c-s100"]["optimum"] + 1 == 3 + 1


def test_cli_solve_steps_dir(tmp_path):
    path = LEVELS / "tri-8b3c-s100.json"  # optimum 3 (tests/data/KNOWN.json)
    steps = tmp_path / "steps"
    res = run("solve", path, "--steps-dir", steps)
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in steps.iterdir())
    assert {"step-01.svg", "step-01.png", "step-03.svg", "step-03.png", "strip.svg", "strip.png"} <= set(names)
    assert "step-04.svg" not in names
    (steps / "step-02.svg").write_text("mine")
    res = run("solve", path, "--steps-dir", steps)
    assert res.exit_code == 2
    assert "exists already" in res.stderr and "--force" in res.stderr
    assert (steps / "step-02.svg").read_text() == "mine"
    res = run("solve", path, "--steps-dir", steps, "--force")
    assert res.exit_code == 0
    assert cells((steps / "step-02.svg").read_text())
    not_dir = tmp_path / "file"
    not_dir.write_text("x")
    res = run("solve", path, "--steps-dir", not_dir)
    assert res.exit_code == 2 and "not a directory" in res.stderr
