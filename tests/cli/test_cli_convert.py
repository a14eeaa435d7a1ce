"""`kamicp convert` and `kamicp info` on game files: output, round trips, exit codes, no overwrites."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kamicp.board.regions import region_graph
from kamicp.cli import app
from kamicp.formats import load_level
from tests.helpers.gamefiles import BENCH, TINY_PUZ, example_files, same_board

TINY_XML = ('<PuzzleData name="tiny" width="3" height="2" numColours="3" colours="123111" gold="2" silver="3" '
            'bronze="4"><Solution length="2"><Turn x="0" y="0" colour="2"/><Turn x="0" y="0" colour="3"/>'
            '</Solution></PuzzleData>')


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(app, [str(a) for a in args], terminal_width=200)


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_convert_round_trips_to_the_same_region_graph(runner, tmp_path, path):
    target = tmp_path / f"{path.stem}.json"
    result = run(runner, "convert", path, "-o", target)
    assert result.exit_code == 0, result.output
    original = load_level(path)
    converted = load_level(target)
    g1, g2 = region_graph(original), region_graph(converted)
    assert sorted(g1.nodes(data="color")) == sorted(g2.nodes(data="color"))
    assert set(g1.edges) == set(g2.edges)
    assert converted.official == original.official and converted.medals == original.medals
    assert same_board(converted, load_level(BENCH / f"{path.stem}.json"))
    assert f"par       {original.par}" in result.output
    assert "solves the board, equals par" in result.output
    assert str(target) in result.output


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_info_reports_par_medals_and_official_replay(runner, path):
    result = run(runner, "info", path)
    assert result.exit_code == 0, result.output
    level = load_level(path)
    assert f"{level.par} moves, solves the board, equals par {level.par}" in result.output
    geometry = "triangle, 29 rows x 10 columns" if path.suffix == ".puz" else "square, 10 rows x 16 columns"
    assert geometry in result.output
    if path.suffix == ".xml":
        assert f"gold {level.par}, silver" in result.output


def test_info_json(runner, tmp_path):
    path = tmp_path / "tiny.xml"
    path.write_text(TINY_XML)
    result = run(runner, "info", path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["medals"] == {"gold": 2, "silver": 3, "bronze": 4}
    assert data["regions"] == 3 and data["cells"] == 6 and data["geometry"] == "square"
    assert data["official"]["valid"] and data["official"]["equals_par"]
    assert data["official"]["moves"][0] == {"tap": [0, 0], "colour": "2"}


def test_info_reports_a_failing_official_solution(runner, tmp_path):
    path = tmp_path / "wrong.puz"
    path.write_text(TINY_PUZ.replace("1B1C", "1B"))
    result = run(runner, "info", path)
    assert result.exit_code == 1, result.output  # reported, and a negative answer about the file
    assert "does not solve the board" in result.output and "one-colour" in result.output
    assert run(runner, "info", path, "--json").exit_code == 1


def test_convert_refuses_to_overwrite_without_force(runner, tmp_path):
    source = tmp_path / "tiny.puz"
    source.write_text(TINY_PUZ)
    target = tmp_path / "out.json"
    target.write_text("mine")
    result = run(runner, "convert", source, "-o", target)
    assert result.exit_code == 2
    assert "exists already" in result.output and "--force" in result.output
    assert target.read_text() == "mine"
    result = run(runner, "convert", source, "-o", target, "--force")
    assert result.exit_code == 0, result.output
    assert load_level(target).size == 7


def test_convert_with_format_option_and_text_grid(runner, tmp_path):
    source = tmp_path / "tiny.dat"
    source.write_text(TINY_XML)
    assert run(runner, "convert", source, "-o", tmp_path / "a.json").exit_code == 2  # unknown extension
    result = run(runner, "convert", source, "-o", tmp_path / "a.json", "--format", "xml")
    assert result.exit_code == 0, result.output
    assert load_level(tmp_path / "a.json").medals_map == {"gold": 2, "silver": 3, "bronze": 4}
    grid = tmp_path / "g.txt"
    grid.write_text("AB\nBA\n")
    result = run(runner, "convert", grid, "-o", tmp_path / "g.json", "--geometry", "square")
    assert result.exit_code == 0, result.output
    assert "official  none" in result.output


@pytest.mark.parametrize(("name", "text", "words"), [
    ("bad.puz", TINY_PUZ.replace("12201122", "12Xa1122"), "field 'tiles'"),
    ("bad.puz", TINY_PUZ.replace("|2||", "|two||"), "field 'par'"),
    ("bad.puz", TINY_PUZ.replace("1B1C", "1B9C"), "field 'solution'"),
    ("bad.puz", TINY_PUZ.replace("1B1C", "1A"), "field 'solution'"),
    ("bad.xml", TINY_XML.replace('colours="123111" ', ""), "attribute 'colours'"),
    ("bad.xml", TINY_XML.replace('colours="123111"', 'colours="1231"'), "attribute 'colours'"),
    ("bad.xml", TINY_XML.replace('x="0" y="0" colour="2"', 'x="5" y="0" colour="2"'), "Solution turn 1"),
])
@pytest.mark.parametrize("command", ["convert", "info", "show"])
def test_corrupt_game_file_is_one_line_and_exit_2(runner, tmp_path, name, text, words, command):
    source = tmp_path / name
    source.write_text(text)
    args = [command, source] + (["-o", tmp_path / "out.json"] if command == "convert" else [])
    result = run(runner, *args)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {source}: {words}")
    assert result.output.count("\n") == 1
    assert "Traceback" not in result.output
    assert not (tmp_path / "out.json").exists()


def test_convert_wrong_geometry_or_output_name(runner, tmp_path):
    source = tmp_path / "tiny.puz"
    source.write_text(TINY_PUZ)
    result = run(runner, "convert", source, "-o", tmp_path / "o.json", "--geometry", "square")
    assert result.exit_code == 2 and "--geometry" in result.output
    result = run(runner, "convert", source, "-o", tmp_path / "o.txt")
    assert result.exit_code == 2 and "*.json" in result.output
    assert not (tmp_path / "o.txt").exists()
    result = run(runner, "convert", tmp_path / "missing.puz", "-o", tmp_path / "o.json")
    assert result.exit_code == 2 and "no such file" in result.output


def test_game_files_work_with_solve(runner, tmp_path):
    source = tmp_path / "tiny.puz"
    source.write_text(TINY_PUZ)
    result = run(runner, "solve", source, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["optimum"] == 2
