"""`kamicp import` of synthetic Kami 2 game screenshots (tests/helpers/shots.py) through the CLI: the
overlay, an unreadable par, a wrong overlay name."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.cli import app
from kamicp.formats.screenshot import level_from_image
from tests.helpers import LEVELS
from tests.helpers.shots import game_palette, game_shot, with_holes


def test_cli_import_game_screenshot_with_overlay(tmp_path):
    level = with_holes(load_level(LEVELS / "tri-20b4c-s103.json"), 3)
    palette = game_palette(level, 0)
    shot = tmp_path / "shot.png"
    game_shot(level, palette, par=6).save(shot)
    out, check = tmp_path / "level.json", tmp_path / "check.png"
    runner = CliRunner()
    res = runner.invoke(app, ["import", str(shot), "-o", str(out), "--overlay", str(check), "--par", "6"])
    assert res.exit_code == 0, res.output
    assert "game screenshot" in res.output and f"{len(palette)} colours" in res.output
    got = load_level(out)
    assert got.labels == level.labels and got.par == 6
    with Image.open(check) as pic:
        assert pic.size == (750, 1334)
    res = runner.invoke(app, ["import", str(shot), "-o", str(tmp_path / "other.json"), "--overlay", str(check)])
    assert res.exit_code == 2 and "exists already" in res.stderr
    assert not (tmp_path / "other.json").exists()


def test_an_unreadable_number_is_not_guessed(tmp_path):
    from PIL import ImageDraw

    level = load_level(LEVELS / "tri-8b3c-s100.json")
    img = game_shot(level, game_palette(level, 0), par=7)
    ImageDraw.Draw(img).ellipse((98, 1250, 128, 1290), fill=(235, 235, 235))  # a blot, not a digit
    report = level_from_image(img).report
    assert report.par is None and report.par_note
    shot = tmp_path / "shot.png"
    img.save(shot)
    res = CliRunner().invoke(app, ["import", str(shot), "-o", str(tmp_path / "x.json")])
    assert res.exit_code == 0 and "par not known" in res.output and "--par" in res.output
    assert load_level(tmp_path / "x.json").par is None


def test_cli_overlay_must_be_png(tmp_path):
    level = load_level(LEVELS / "tri-8b3c-s100.json")
    shot = tmp_path / "shot.png"
    game_shot(level, game_palette(level, 0)).save(shot)
    res = CliRunner().invoke(app, ["import", str(shot), "-o", str(tmp_path / "x.json"), "--overlay",
                                   str(tmp_path / "check.jpg")])
    assert res.exit_code == 2 and "*.png" in res.stderr and "Traceback" not in res.output
    assert not (tmp_path / "x.json").exists()


needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")


@needs_tesseract
def test_every_level_command_takes_a_screenshot_and_keeps_its_par(tmp_path):
    """solve, show, info, convert, hint, count and validate read a game screenshot as they read a .json,
    with the par read from its footer."""
    level = load_level(LEVELS / "tri-8b3c-s100.json")
    shot = tmp_path / "shot.jpg"
    game_shot(level, game_palette(level, 0), par=level.par, jpeg=90).save(shot)
    runner = CliRunner()
    for args in (["solve"], ["show"], ["info"], ["hint"], ["count"]):
        res = runner.invoke(app, [*args, str(shot)])
        assert res.exit_code == 0, (args, res.output)
        assert "unknown file type" not in res.output
    assert f"par       {level.par}" in runner.invoke(app, ["info", str(shot)]).output
    res = runner.invoke(app, ["convert", str(shot), "-o", str(tmp_path / "level.json")])
    assert res.exit_code == 0, res.output
    got = load_level(tmp_path / "level.json")
    assert got.labels == level.labels and got.par == level.par
    folder = tmp_path / "pack"
    folder.mkdir()
    shot.rename(folder / "shot.jpg")
    res = runner.invoke(app, ["validate", str(folder)])
    assert res.exit_code == 0 and "correct" in res.output and "no par" not in res.output, res.output


@needs_tesseract
def test_an_uploaded_screenshot_keeps_its_par():
    """The play page opens an uploaded game screenshot with the par its footer shows (not "PAR -")."""
    import io

    from kamicp.formats.upload import load_upload

    level = load_level(LEVELS / "tri-20b4c-s103.json")
    buf = io.BytesIO()
    game_shot(level, game_palette(level, 1), par=level.par).save(buf, "PNG")
    got = load_upload("shot.png", buf.getvalue())
    assert got.par == level.par and got.labels == level.labels and got.name == "shot"
