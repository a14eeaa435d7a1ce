"""The 99problems Flood-It board reader (kamicp/formats/flood99.py) on boards the tests generate."""

from __future__ import annotations

import pytest

from kamicp import load_level
from kamicp.errors import FormatError
from kamicp.formats.flood99 import flood99_text, level_from_flood99, looks_like_flood99
from tests.helpers.boards import flood_square


@pytest.mark.parametrize("seed", range(5))
def test_generated_boards_read_back(tmp_path, seed):
    level = flood_square(6 + seed, 3 + seed % 4, seed)
    path = tmp_path / f"{level.shape[0]}_{level.shape[1]}_{len(level.colour_keys):02d}_{seed:03d}"
    path.write_text(flood99_text(level, optimum=7))
    back = load_level(path)  # found by its name
    assert back.shape == level.shape and back.par == 7 and back.name == path.name
    assert back.edges == level.edges
    rename = dict(zip(level.colour_keys, back.colour_keys, strict=True))
    assert tuple(rename[c] for c in level.colours) == back.colours


def test_comments_any_whitespace_and_ten_colours():
    text = "# a comment\n# another\n2 5 10\n1 2 3 4 5\n6 7 8 9\t10\n\n0\n"
    level = level_from_flood99(text, "t")
    assert level.shape == (2, 5) and level.par is None
    assert level.colours == tuple("123456789A")


def test_names_that_are_and_are_not_the_format(tmp_path):
    from pathlib import Path

    assert looks_like_flood99(Path("12_12_06_001"))
    assert not looks_like_flood99(Path("12_12_06_001.txt")) and not looks_like_flood99(Path("board"))


@pytest.mark.parametrize(("text", "message"), [
    ("", "header"),
    ("# only a comment\n", "header"),
    ("2 2\n", "header"),
    ("2 x 3\n1 2 3 1\n4\n", "columns"),
    ("2 2 3\n1 2 3\n", "3 cell colours, but 2 x 2 = 4 cells"),
    ("2 2 3\n1 2 3 4\n4\n", "cell 4: must be at most 3"),
    ("2 2 3\n1 2 0 1\n4\n", "cell 3: must be at least 1"),
    ("2 2 3\n1 2 3 1\n", "optimum is missing"),
    ("2 2 3\n1 2 3 1\n4 5\n", "unexpected '5'"),
    ("2 2 3\n1 2 3 1\n-4\n", "optimum"),
    ("0 2 3\n\n0\n", "rows"),
    ("2 2 99\n1 2 3 1\n4\n", "over the 35"),
    ("99999 99999 3\n1\n", "over the limit"),
])
def test_bad_input_is_one_clear_error(text, message):
    with pytest.raises(FormatError) as info:
        level_from_flood99(text, "bad_board")
    assert message in str(info.value) and "bad_board" in str(info.value)
