"""Game files: the Kami 2 `.puz` asset and the Kami 1 `PuzzleData` XML (formats README sections 2, 3)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.board.lattice import lattice
from kamicp.board.level import Level, Move
from kamicp.designer.official import check_official, summarize
from kamicp.errors import FormatError
from kamicp.formats import load_level, write_json
from kamicp.formats.puz import decode_rle, level_from_puz
from kamicp.formats.xml_format import level_from_xml
from tests.helpers.gamefiles import BENCH, TINY_PUZ, example_files, puz, same_board

# TINY_PUZ (tests.helpers.gamefiles) is a tiny synthetic Kami 2 board; this is a tiny Kami 1 board
TINY_XML = """<PuzzleData name="tiny" width="3" height="2" numColours="3" colours="123111"
    gold="2" silver="3" bronze="4">
  <Solution length="2">
    <Turn x="0" y="0" colour="2"/>
    <Turn x="0" y="0" colour="3"/>
  </Solution>
</PuzzleData>
"""


# --- the game-file examples ---------------------------------------------------------------------


def test_game_examples_are_there():
    assert [p.suffix for p in example_files()].count(".puz") >= 3
    assert [p.suffix for p in example_files()].count(".xml") >= 2


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_example_is_the_bench_level_and_its_official_solution_replays_in_par(path):
    level = load_level(path)
    bench = load_level(BENCH / f"{path.stem}.json")
    assert level.geometry == bench.geometry
    assert same_board(level, bench)
    report = check_official(level)
    assert report is not None and report.valid, report
    assert report.length == level.par
    assert report.equals_par


@pytest.mark.parametrize("path", [p for p in example_files() if p.suffix == ".puz"], ids=lambda p: p.name)
def test_puz_example_has_the_upright_29_by_10_game_layout(path):
    level = load_level(path)
    bench = load_level(BENCH / f"{path.stem}.json")
    assert level.shape == bench.shape == (29, 10)
    assert level.labels == bench.labels
    rename = {}
    for ours, theirs in zip(level.colours, bench.colours, strict=True):
        assert rename.setdefault(ours, theirs) == theirs


def test_xml_example_keeps_medals_and_square_layout():
    path = next(p for p in example_files() if p.suffix == ".xml")
    level = load_level(path)
    assert level.geometry == "square" and level.shape == (10, 16)
    gold = level.medals_map["gold"]
    assert level.par == gold
    assert [m for m, _ in level.medals] == ["gold", "silver", "bronze"]
    assert level.medals_map["silver"] > gold


# --- .puz ------------------------------------------------------------------------------------


def test_rle_decoding():
    assert decode_rle("0X0312", "f") == "00012"
    assert decode_rle("3a", "f") == "333"
    assert decode_rle("3c1", "f") == "333331"
    assert decode_rle("0X29", "f") == "0" * 29


def test_tiny_puz_board_par_and_solution():
    level = level_from_puz(TINY_PUZ, "tiny.puz")
    assert level.geometry == "triangle" and level.size == 7
    assert level.par == 2
    assert sorted(level.colour_keys) == ["1", "2"]
    assert len(level.official) == 2
    report = check_official(level)
    assert report.valid and report.equals_par


def _puz_adjacency(tiles: str, width: int) -> set[frozenset[int]]:
    """The puz adjacency by the spec, between non-hole tile indices."""
    def t(r, c, s):
        return r * 2 * width + 2 * c + s

    rows = len(tiles) // (2 * width)
    pairs = set()
    for r in range(rows):
        for c in range(width):
            cand = [(t(r, c, 0), t(r, c, 1))]
            if c + 1 < width:
                cand.append((t(r, c, 1), t(r, c + 1, 0)))
            if r + 1 < rows:
                cand.append((t(r, c, 1), t(r + 1, c, 0)))
            pairs |= {frozenset(p) for p in cand if tiles[p[0]] != "0" and tiles[p[1]] != "0"}
    return pairs


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_puz_embedding_keeps_exactly_the_puz_adjacency(width, rows, data):
    n = 2 * width * rows
    tiles = data.draw(st.text(alphabet="0123", min_size=n, max_size=n).filter(lambda s: s.strip("0")))
    real = [t for t, ch in enumerate(tiles) if ch != "0"]
    # The solution taps every real tile once: it tells us which cell each tile became.
    text = f"01|Default|0|0|{width}|{n}|{tiles}|1||0|" + "".join(f"{t}B" for t in real)
    level = level_from_puz(text, "gen.puz")
    cell_of = {t: m.cell for t, m in zip(real, level.official, strict=True)}
    assert sorted(cell_of.values()) == list(range(level.size))
    assert all(level.colours[cell_of[t]] == tiles[t] for t in real)
    tile_of = {c: t for t, c in cell_of.items()}
    ours = {frozenset((tile_of[i], tile_of[j])) for i, j in level.edges}
    assert ours == _puz_adjacency(tiles, width)
    # Drawn as the game does: side 1 points right, side 0 left; the layout is trimmed to at most one
    # spare row (fewer than 10 rows of tiles: not a story level, which fills the game's 29 x 10 screen).
    tri = lattice("triangle")
    for t in real:
        r, c = level.labels[cell_of[t]]
        assert tri.points_right(r, c) == (t % 2 == 1)
    rows_used = {lab[0] for lab in level.labels}
    assert min(rows_used) <= 1 and min(lab[1] for lab in level.labels) == 0


def assert_names_file_and_field(path, text, where, words):
    """Loading `text` from `path` fails with a FormatError naming the file, the field and the problem."""
    path.write_text(text)
    with pytest.raises(FormatError) as info:
        load_level(path)
    e = info.value
    assert e.source == str(path)
    assert e.where == where
    assert words in str(e)
    assert str(path) in str(e)


@pytest.mark.parametrize(("text", "where", "words"), [
    (puz(tiles="12Xa1122"), "field 'tiles'", "two digits"),
    (puz(tiles="a2201122"), "field 'tiles'", "run count"),
    (puz(tiles="1220112Y"), "field 'tiles'", "not a tile digit"),
    (puz(tiles="1220112"), "field 'tiles'", "decodes to 7 tiles"),
    (puz(tiles="00000000"), "field 'tiles'", "no triangles"),
    (puz(L="9"), "field 'L'", "whole number of rows"),
    (puz(L="16"), "field 'tiles'", "field 'L' says 16"),
    (puz(W="0"), "field 'W'", "at least 1"),
    (puz(W="two"), "field 'W'", "integer"),
    (puz(par="x"), "field 'par'", "integer"),
    (puz(par=""), "field 'par'", "empty"),
    (puz(version="02"), "field 'version'", "unsupported"),
    ("01|Default|0|0|2|8|12201122|2", "line 1", "missing field 'unused'"),
    (puz(solution="8B"), "field 'solution'", "off the board"),
    (puz(solution="3B"), "field 'solution'", "hole"),
    (puz(solution="0A"), "field 'solution'", "colour letter 'A'"),
    (puz(solution="0b"), "field 'solution'", "colour letter 'b'"),
    (puz(solution="0K"), "field 'solution'", "colour letter 'K'"),
    (puz(solution="0B4"), "field 'solution'", "<tile index><capital letter>"),
    (puz(solution="B"), "field 'solution'", "<tile index><capital letter>"),
    ("", None, "empty"),
    (TINY_PUZ + "\n" + TINY_PUZ, None, "one line"),
])
def test_corrupt_puz_names_file_and_field(tmp_path, text, where, words):
    assert_names_file_and_field(tmp_path / "bad.puz", text, where, words)


def test_puz_solution_that_fails_is_reported_not_rejected():
    level = level_from_puz(puz(solution="0C"), "f.puz")
    report = check_official(level)
    assert not report.valid and "one-colour" in report.error
    assert report.length == 1 and report.equals_par is False
    level = level_from_puz(puz(solution="0J"), "f.puz")  # colour 9 is not on this board
    assert "known-colour" in check_official(level).error


def test_empty_puz_solution_means_no_official_solution():
    level = level_from_puz(puz(solution=""), "f.puz")
    assert level.official is None and check_official(level) is None


def test_puz_refuses_a_square_geometry(tmp_path):
    path = tmp_path / "tiny.puz"
    path.write_text(TINY_PUZ)
    with pytest.raises(FormatError, match="--geometry"):
        load_level(path, geometry="square")
    assert load_level(path, geometry="triangle").size == 7


def test_format_option_overrides_the_extension(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text(TINY_PUZ)
    assert load_level(path, "puz").size == 7
    path = tmp_path / "tiny.dat"
    path.write_text(TINY_XML)
    assert load_level(path, "xml").size == 6


# --- PuzzleData XML ---------------------------------------------------------------------------


def test_tiny_xml_board_medals_and_solution():
    level = level_from_xml(TINY_XML, "tiny.xml")
    assert level.geometry == "square" and level.shape == (2, 3)
    assert level.name == "tiny"
    assert level.colours == tuple("123111")
    assert level.par == 2
    assert level.medals == (("gold", 2), ("silver", 3), ("bronze", 4))
    assert level.official == (Move(0, "2"), Move(0, "3"))
    assert check_official(level).valid


def test_xml_turn_x_is_the_column_and_y_the_row():
    text = TINY_XML.replace('<Turn x="0" y="0" colour="2"/>', '<Turn x="2" y="1" colour="1"/>')
    level = level_from_xml(text, "t.xml")
    assert level.labels[level.official[0].cell] == (1, 2)


def xml(old: str, new: str) -> str:
    assert old in TINY_XML
    return TINY_XML.replace(old, new)


@pytest.mark.parametrize(("text", "where", "words"), [
    (xml('colours="123111"', ""), "attribute 'colours'", "missing"),
    (xml('colours="123111"', 'colours="12311"'), "attribute 'colours'", "has 5 digits"),
    (xml('colours="123111"', 'colours="12311x"'), "attribute 'colours'", "not a colour digit"),
    (xml('width="3"', ""), "attribute 'width'", "missing"),
    (xml('width="3"', 'width="three"'), "attribute 'width'", "integer"),
    (xml('height="2"', 'height="0"'), "attribute 'height'", "at least 1"),
    (xml('numColours="3"', 'numColours="2"'), "attribute 'numColours'", "uses 3 colours"),
    (xml('gold="2"', 'gold="-1"'), "attribute 'gold'", "integer"),
    (xml('length="2"', 'length="3"'), "Solution attribute 'length'", "2 <Turn>"),
    (xml('x="0" y="0" colour="2"', 'x="3" y="0" colour="2"'), "Solution turn 1", "off the 3 x 2 board"),
    (xml('x="0" y="0" colour="2"', 'x="0" y="2" colour="2"'), "Solution turn 1", "off the"),
    (xml('x="0" y="0" colour="2"', 'x="0" colour="2"'), "Solution turn 1 attribute 'y'", "missing"),
    (xml('x="0" y="0" colour="2"', 'x="0" y="0" colour="red"'), "Solution turn 1 attribute 'colour'", "integer"),
    (xml('x="0" y="0" colour="2"', 'x="0" y="0" colour="12"'), "Solution turn 1 attribute 'colour'", "0-9"),
    (xml("</PuzzleData>", ""), "line 8", "not well-formed"),
    ('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<PuzzleData width="1" height="1" colours="&a;"/>',
     "line 2", "DOCTYPE"),
    ("<Levels><PuzzleData/><PuzzleData/></Levels>", None, "found 2"),
])
def test_corrupt_xml_names_file_and_field(tmp_path, text, where, words):
    assert_names_file_and_field(tmp_path / "bad.xml", text, where, words)


def test_xml_without_solution_or_medals():
    text = '<PuzzleData width="2" height="1" colours="12"/>'
    level = level_from_xml(text, "m.xml", name="m")
    assert level.name == "m" and level.par is None and level.medals == () and level.official is None
    assert summarize(level).official is None


def test_xml_puzzle_inside_a_wrapper_element():
    level = level_from_xml(f"<Levels>{TINY_XML}</Levels>", "w.xml")
    assert level.size == 6


# --- Level fields and the JSON round trip -------------------------------------------------------


def test_with_par_keeps_official_solution_and_medals():
    level = level_from_xml(TINY_XML, "tiny.xml")
    other = level.with_par(7)
    assert other.par == 7 and other.official == level.official and other.medals == level.medals


def test_json_keeps_medals_and_official_solution(tmp_path):
    level = level_from_xml(TINY_XML, "tiny.xml")
    path = tmp_path / "tiny.json"
    write_json(level, path)
    data = json.loads(path.read_text())
    assert data["medals"] == {"gold": 2, "silver": 3, "bronze": 4}
    assert data["official"] == [{"tap": [0, 0], "colour": "2"}, {"tap": [0, 0], "colour": "3"}]
    again = load_level(path)
    assert again == level


def test_json_graph_level_official_solution(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"geometry": "graph", "nodes": {"a": "R", "b": "G"}, "edges": [["a", "b"]],
                                "par": 1, "official": [{"tap": "a", "color": "G"}]}))
    level = load_level(path)
    assert level.official == (Move(0, "G"),)
    assert check_official(level).valid


@pytest.mark.parametrize(("extra", "where"), [
    ({"medals": {"gold": "3"}}, "field 'medals'"),
    ({"medals": [3]}, "field 'medals'"),
    ({"official": {"tap": [0, 0]}}, "field 'official'"),
    ({"official": [{"tap": [5, 5], "color": "A"}]}, "field 'official'"),
    ({"official": [{"tap": [0, 0]}]}, "field 'official'"),
    ({"official": [{"tap": "x", "color": "A"}]}, "field 'official'"),
])
def test_bad_json_medals_or_official(tmp_path, extra, where):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"geometry": "square", "rows": ["AB"], **extra}))
    with pytest.raises(FormatError) as info:
        load_level(path)
    assert info.value.where == where and info.value.source == str(path)


def test_summary_of_a_plain_level():
    level = Level.from_rows(["AAB", "BBB"], "square", par=1)
    s = summarize(level)
    assert (s.cells, s.regions, s.colours, s.par, s.medals, s.official) == (6, 2, ("A", "B"), 1, (), None)


def test_a_story_puz_fills_the_game_screen_rows_as_columns_right_to_left():
    """10 rows of 2W = 40 tiles (a story file): file row r is screen column 9 - r and its tile k is
    screen row 20 - 2 lowX - (k + r), running upwards; side 1 points right."""
    low_x, width = -9, 20
    tiles = ["0"] * (2 * width * 10)
    for r in range(10):
        for k in range(2 * width):
            if 0 <= 38 - k - r <= 28:
                tiles[r * 2 * width + k] = "2" if r == 0 else "1"
    tiles[3 * 2 * width + 38 - 5 - 3] = "3"  # screen (5, 6)
    level = level_from_puz(f"01|Default|{low_x}|-5|{width}|{len(tiles)}|{''.join(tiles)}|1||0|", "story.puz")
    assert level.shape == (29, 10) and level.size == 290
    colour = dict(zip(level.labels, level.colours, strict=True))
    assert {colour[(row, 9)] for row in range(29)} == {"2"}
    assert colour[(5, 6)] == "3" and sum(c == "3" for c in level.colours) == 1
