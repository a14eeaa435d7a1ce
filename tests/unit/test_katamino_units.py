"""Katamino's units one at a time: the book format (fields named in every error), a challenge's puzzles,
the compiled bitboard search's binding (checked input, the stop flag Ctrl-C sets) and the pictures
(outlines and letters from the letter grid alone)."""

from __future__ import annotations

import json

import pytest

from kamicp.errors import FormatError, UsageError
from kamicp.katamino import LETTERS, Book, Puzzle, Rule, shorthand
from kamicp.katamino.bitboard import BitSearch, available, cell_order
from kamicp.katamino.book import MAX_CHALLENGES, book_from_data
from kamicp.katamino.files import read_book, read_katamino_file
from kamicp.katamino.picture import edges, label_cells, outline_text, panels_scene, slug
from kamicp.prover.search import compiled_core
from kamicp.render.svg import scene_svg
from kamicp.runtime.interrupt import attach, stop_everything
from tests.helpers import PUZZLES

needs_core = pytest.mark.skipif(not available(), reason="compiled core not built")


def test_a_challenge_is_its_line_of_puzzles():
    book = book_from_data({"name": "b", "challenges": [{"name": "one", "pieces": "lnvup", "start": 3}]})
    (line,) = book.challenges
    assert (line.pieces, list(line.widths), book.size) == ("LNVUP", [3, 4, 5], 3)
    assert [(p.rows, p.cols, p.pieces, p.rule) for p in line.puzzles()] == [
        (5, 3, "LNV", Rule.KATAMINO), (5, 4, "LNVU", Rule.KATAMINO), (5, 5, "LNVUP", Rule.KATAMINO)]
    assert book.with_rule(Rule.FREE).challenges[0].puzzle(4).rule is Rule.FREE
    free = book_from_data({"rule": "free", "challenges": [{"pieces": "IL", "start": 1},
                                                          {"pieces": "IL", "start": 2, "rule": "katamino"}]})
    assert [c.rule for c in free.challenges] == [Rule.FREE, Rule.KATAMINO]
    assert [c.name for c in free.challenges] == ["1", "2"]


@pytest.mark.parametrize(("data", "message"), [
    ([], "must be a JSON object"),
    ({"challenges": []}, "field 'challenges': must be a non-empty list"),
    ({"challenges": "LNV"}, "field 'challenges': must be a non-empty list"),
    ({"challenges": [{"pieces": "LNV", "start": 3}, 7]}, "challenge 2: must be a JSON object"),
    ({"challenges": [{"start": 3}]}, "challenge 1 field 'pieces': is missing"),
    ({"challenges": [{"pieces": "LNV"}]}, "challenge 1 field 'start': is missing"),
    ({"challenges": [{"pieces": "LNQ", "start": 3}]}, "challenge 1 field 'pieces': unknown piece 'Q'"),
    ({"challenges": [{"pieces": "LNL", "start": 3}]}, "challenge 1 field 'pieces': piece 'L' is given twice"),
    ({"challenges": [{"pieces": ["L"], "start": 3}]}, "challenge 1 field 'pieces': must be a string"),
    ({"challenges": [{"pieces": "LNV", "start": 4}]}, "challenge 1 field 'start': must be a width from 1"),
    ({"challenges": [{"pieces": "LNV", "start": True}]}, "challenge 1 field 'start'"),
    ({"challenges": [{"pieces": "LNV", "start": 3, "name": 5}]}, "challenge 1 field 'name': must be a string"),
    ({"challenges": [{"pieces": "LNV", "start": 3, "rule": "x"}]}, "challenge 1 field 'rule'"),
    ({"rule": "loose", "challenges": [{"pieces": "LNV", "start": 3}]}, "field 'rule'"),
    ({"challenges": [{"pieces": "LNV", "start": 3}] * (MAX_CHALLENGES + 1)}, "at most 10000"),
])
def test_book_errors_name_the_challenge_and_field(tmp_path, data, message):
    path = tmp_path / "book.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=message) as info:
        read_book(path)
    assert str(path) in str(info.value)


def test_the_reader_tells_books_from_puzzles(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"rows": 5, "cols": 3, "pieces": "LNV"}))
    assert isinstance(read_katamino_file(path), Puzzle)
    path.write_text(json.dumps({"pieces": "LNV", "start": 3}))
    found = read_katamino_file(path)
    assert isinstance(found, Book) and found.name == "x" and found.challenges[0].name == "1"
    shipped = read_book(PUZZLES / "katamino" / "book.json")
    assert len(shipped.challenges) >= 20
    assert {len(c.pieces) for c in shipped.challenges} == set(range(3, 13))


@needs_core
def test_the_binding_checks_its_input():
    with pytest.raises(ValueError, match="cells: 1..64"):
        compiled_core.pack(65, [0] * 65, 1, [], [])
    with pytest.raises(ValueError, match="one mask per cell"):
        compiled_core.pack(2, [2], 1, [], [])
    with pytest.raises(ValueError, match="outside the cells"):
        compiled_core.pack(2, [2, 1], 1, [4], [0])
    with pytest.raises(ValueError, match="of no piece"):
        compiled_core.pack(2, [2, 1], 1, [3], [1])
    with pytest.raises(TypeError):
        compiled_core.pack(2, [2, 1], 1, [3], [0], 5)  # settings are keyword-only
    assert compiled_core.pack(2, [2, 1], 1, [3], [0], keep=5) == ("complete", 1, 2, [[0]])


@needs_core
def test_the_search_numbers_cells_along_the_short_side_and_stops_on_the_flag():
    wide = shorthand("2x5", "L")
    assert cell_order(wide)[:4] == (0, 5, 1, 6)
    puzzle = shorthand("6x10", LETTERS, Rule.FREE)
    search = BitSearch(puzzle, puzzle.placements)
    attach(search)  # as solve_katamino does: Ctrl-C's stop_everything reaches the search
    stop_everything()
    try:
        stopped = search.run()
    finally:
        stop_everything(False)
    assert stopped.end == "timeout" and stopped.nodes <= 2 ** 14
    assert search.run(limit=3, keep=2).end == "limit"


def test_outlines_and_letters_come_from_the_grid():
    grid = ("LLLLN", "LPPNN", "PPPN.")
    outline = set(edges(grid))
    assert ((0, 0), (0, 1)) in outline and ((0, 1), (1, 1)) not in outline  # the border; inside the L
    assert ((2, 1), (2, 2)) not in outline and ((1, 1), (1, 2)) in outline  # inside the P; between L and P
    assert ((1, 1), (2, 1)) in outline  # between the L's foot and the P
    assert ((2, 4), (3, 4)) in outline  # around the blocked cell
    labels = label_cells(grid)
    assert sorted(labels) == ["L", "N", "P"] and all(grid[r][c] == k for k, (r, c) in labels.items())
    text = outline_text(grid).plain
    assert sorted(ch for ch in text if ch.isalpha()) == ["L", "N", "P"]
    assert text.splitlines()[0] == "┌───────────────┬───┐"
    svg = scene_svg(panels_scene([("5 x 3", grid, True)]))
    assert svg.count('class="letter"') == 3 and svg.count('class="cell"') == 14
    assert svg.count('class="edge"') == len(outline)


def test_a_puzzle_names_its_rule():
    assert Puzzle(5, 3, "LNV", rule="free").rule is Rule.FREE  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="rule must be 'katamino' or 'free'"):
        Puzzle(5, 3, "LNV", rule="loose")  # type: ignore[arg-type]


def test_picture_names_are_safe():
    assert slug("a/b c") == "a-b-c" and slug("../..") == "challenge" and slug("é") == "challenge"
