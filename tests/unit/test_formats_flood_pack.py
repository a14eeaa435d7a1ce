"""Flood-It pack files (kamicp/formats/flood_pack.py): many boards in one file, one a line or in blocks of
rows, `FILE#K` naming one board, and the pars file of `validate --pars`; on boards the tests generate."""

from __future__ import annotations

import random

import pytest

from kamicp.errors import FormatError
from kamicp.formats import load_level, load_levels, split_selection
from kamicp.formats.flood_pack import levels_from_pack, pars_from_text

KEYS = "123456789abcdef"


def boards(count: int, side: int, colours: int, seed: int = 1) -> list[list[str]]:
    rng = random.Random(seed)
    return [["".join(rng.choice(KEYS[:colours]) for _ in range(side)) for _ in range(side)] for _ in range(count)]


def test_one_board_a_line_reads_each_board_in_order():
    grids = boards(5, 6, 12)
    levels = levels_from_pack("\n".join("".join(g) for g in grids) + "\n", "p", "pack.txt")
    assert [lv.name for lv in levels] == [f"pack.txt#{k}" for k in range(1, 6)]
    for level, grid in zip(levels, grids, strict=True):
        assert level.shape == (6, 6) and level.par is None
        assert [level.colours[level.index((r, c))] for r in range(6) for c in range(6)] == list("".join(grid))


def test_blocks_of_rows_separated_by_blank_lines():
    grids = boards(3, 5, 6, seed=2)
    text = "\n\n".join("\n".join(g) for g in grids) + "\n"
    levels = levels_from_pack(text, "p", "golf.txt")
    assert len(levels) == 3 and all(lv.shape == (5, 5) for lv in levels)
    assert levels[2].colours[levels[2].index((4, 4))] == grids[2][4][4]
    single = levels_from_pack("\n".join(grids[0]), "p", "one.txt")  # one block alone: N lines of N
    assert len(single) == 1 and single[0].shape == (5, 5)


@pytest.mark.parametrize("text, needle", [
    ("1234\n12345\n", "line 2: 5 cells is not a square board"),
    ("12 34\n", "line 1: ' ' is not a colour"),
    ("", "no boards"),
    ("12\n34\n\n123\n45\n", "board 2 (line 4): row 2 has 2 cells"),
])
def test_a_bad_pack_names_the_line(text, needle):
    with pytest.raises(FormatError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        levels_from_pack(text, "p", "bad.txt")


def test_file_hash_k_names_one_board(tmp_path):
    grids = boards(4, 4, 5, seed=3)
    path = tmp_path / "pack.txt"
    path.write_text("\n".join("".join(g) for g in grids) + "\n")
    assert split_selection(f"{path}#3") == (path, 3) and split_selection(path) == (path, None)
    third = load_level(f"{path}#3")  # the selection implies the pack format
    assert third.name == "pack.txt#3" and third == load_levels(path, "floodpack")[2]
    with pytest.raises(FormatError, match="no board 5: the pack holds boards 1 to 4"):
        load_level(f"{path}#5")
    with pytest.raises(FormatError, match="a pack of 4 boards: name one"):
        load_level(path, "floodpack")
    with pytest.raises(FormatError, match="names a board of a pack file"):
        load_level(f"{path}#1", "text")
    odd = tmp_path / "odd#2"  # a file whose own name ends in #K is that file
    odd.write_text("AB\nBA\n")
    assert split_selection(odd) == (odd, None)


def test_pars_are_numbers_or_solutions():
    assert pars_from_text("# pars\n12\n\n6fdfb12a45a5\n1213141516171819\n7\n", "pars") == [12, 12, 16, 7]
    with pytest.raises(FormatError, match="line 1: expected one par or one solution"):
        pars_from_text("12 13\n", "pars")


def test_the_cell_limit_is_per_board_not_per_pack(monkeypatch):
    monkeypatch.setenv("KAMICP_MAX_CELLS", "40")
    text = "\n".join("".join(g) for g in boards(3, 6, 4)) + "\n"  # 3 x 36 cells: more than 40 in all
    assert len(levels_from_pack(text, "p", "pack.txt")) == 3
    with pytest.raises(FormatError, match=r"board 2 \(line 2\): 49 cells is over the limit of 40"):
        levels_from_pack("".join(boards(1, 6, 4)[0]) + "\n" + "".join(boards(1, 7, 4)[0]) + "\n", "p", "pack.txt")


def test_a_pack_of_too_many_boards_is_refused_before_any_level_is_built():
    from kamicp.formats.flood_pack import MAX_BOARDS

    with pytest.raises(FormatError, match=f"{MAX_BOARDS + 1} boards is over the limit of {MAX_BOARDS}"):
        levels_from_pack("1\n" * (MAX_BOARDS + 1), "p", "many.txt")
