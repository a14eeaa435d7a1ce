"""Katamino: pieces, CP-SAT vs Algorithm X on random boards, the counting argument against plain
enumeration, impossibility reasons, the rules check and the reader."""

from __future__ import annotations

import json
import random

import pytest

from kamicp.errors import FormatError, RuleError, UsageError
from kamicp.formats.katamino import read_katamino
from kamicp.katamino import (
    LETTERS,
    Puzzle,
    Status,
    check_solution,
    impossibility,
    orientations,
    shorthand,
    solve_katamino,
    symmetries,
)
from kamicp.katamino.dlx import AlgorithmX
from tests.helpers import bench_script


def test_the_twelve_pentominoes_have_63_orientations():
    counts = {letter: len(orientations(letter)) for letter in LETTERS}
    assert counts == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1,
                      "Y": 8, "Z": 4}
    for letter in LETTERS:
        for shape in orientations(letter):
            assert len(shape) == 5


def _packed_puzzle(rng: random.Random) -> Puzzle:
    """A board known to be solvable: random pieces packed at random, every cell they leave blocked."""
    rows, cols = rng.randint(3, 6), rng.randint(3, 7)
    board = Puzzle(rows, cols, LETTERS)
    taken: set[int] = set()
    used = ""
    for p in rng.sample(board.placements, len(board.placements)):
        if p.letter not in used and not taken & set(p.cells):
            taken |= set(p.cells)
            used += p.letter
            if len(used) == rng.randint(2, 5):
                break
    blocked = frozenset((r, c) for r in range(rows) for c in range(cols) if r * cols + c not in taken)
    return Puzzle(rows, cols, used, blocked)


def _random_puzzles(seed: int, count: int) -> list[Puzzle]:
    """Half 5 x N boards with N random pieces (mostly impossible), half packed boards (solvable)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        if k % 2 == 0:
            n = rng.randint(2, 5)
            out.append(Puzzle(5, n, "".join(rng.sample(LETTERS, n))))
        else:
            out.append(_packed_puzzle(rng))
    return out


def _plain_count(puzzle: Puzzle) -> int:
    """Every exact cover, counted without the symmetry reduction."""
    rows = [(*p.cells, p.letter) for p in puzzle.placements]
    return sum(1 for _ in AlgorithmX([*puzzle.free, *puzzle.pieces], rows).solutions())


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_and_algorithm_x_count_the_same(seed):
    for puzzle in _random_puzzles(seed, 10):
        a = solve_katamino(puzzle, engine="cpsat", count=True)
        b = solve_katamino(puzzle, engine="dlx", count=True)
        assert a.complete and b.complete
        assert a.count > 0 or not puzzle.blocked  # packed boards have the packing as a solution
        assert (a.status, a.count, a.distinct) == (b.status, b.count, b.distinct), puzzle
        assert a.count == (0 if impossibility(puzzle) else _plain_count(puzzle)), puzzle
        one = solve_katamino(puzzle, engine="cpsat")
        assert (one.status == Status.SOLVED) == (a.count > 0)
        for grid in (*a.solutions, *b.solutions, *one.solutions):
            check_solution(puzzle, grid)


def test_all_lists_every_solution_once():
    puzzle = shorthand("5x6", "LPUVYN")
    result = solve_katamino(puzzle, engine="dlx", all_solutions=True)
    assert len(result.solutions) == len(set(result.solutions)) == result.count == _plain_count(puzzle)
    for grid in result.solutions:
        check_solution(puzzle, grid)


def test_symmetry_groups():
    assert len(symmetries(Puzzle(5, 6, "L"))) == 4
    assert len(symmetries(Puzzle(5, 5, "L"))) == 8
    assert len(symmetries(Puzzle(5, 5, "L", frozenset({(0, 0)})))) == 2  # the diagonal mirror only
    assert len(symmetries(Puzzle(5, 5, "L", frozenset({(0, 1)})))) == 1
    assert len(symmetries(Puzzle(5, 6, "L", frozenset({(0, 0), (4, 5)})))) == 2


@pytest.mark.parametrize("puzzle,reason", [
    (Puzzle(5, 5, "LPUV"), "area 25 != 5 x 4 pieces = 20"),
    (Puzzle(2, 5, "LX"), "piece X fits nowhere"),
    (Puzzle(3, 5, "LPU", frozenset({(0, 1), (2, 3)}) | {(1, 4)}), "area 12"),
    (Puzzle(3, 6, "PUV", frozenset({(0, 2), (1, 2), (2, 2)})), "not a multiple of 5"),
    (Puzzle(3, 5, "LPV", frozenset({(0, 1), (1, 0)}) | frozenset()), "area 13"),
])
def test_impossibility_reasons(puzzle, reason):
    assert reason in (impossibility(puzzle) or "")
    for engine in ("cpsat", "dlx"):
        result = solve_katamino(puzzle, engine=engine, count=True)
        assert result.status == Status.IMPOSSIBLE and result.count == 0 and reason in result.reason


def test_uncoverable_cell_is_a_reason():
    # (0, 0) is cut off by blocked cells: no piece can reach it.
    puzzle = Puzzle(3, 6, "LPU", frozenset({(0, 1), (1, 0), (1, 1)}))
    assert impossibility(puzzle) == "cell (0, 0) cannot be covered by any piece"


def test_searched_impossibility_is_proven_by_both_engines():
    puzzle = shorthand("5x6", "LPUVYX")
    assert impossibility(puzzle) is None
    for engine in ("cpsat", "dlx"):
        result = solve_katamino(puzzle, engine=engine)
        assert result.status == Status.IMPOSSIBLE and "proven" in result.reason


def test_rules_check_rejects_broken_solutions():
    puzzle = shorthand("5x6", "LPUVYN")
    grid = solve_katamino(puzzle, engine="dlx").solutions[0]
    check_solution(puzzle, grid)
    flat = list("".join(grid))
    for i in range(len(flat) - 1):  # swapping two different letters breaks both shapes' congruence
        if flat[i] != flat[i + 1]:
            swapped = flat[:]
            swapped[i], swapped[i + 1] = flat[i + 1], flat[i]
            rows = tuple("".join(swapped[r * 6:(r + 1) * 6]) for r in range(5))
            with pytest.raises(RuleError, match="piece-shape"):
                check_solution(puzzle, rows)
    with pytest.raises(RuleError, match="blocked"):
        check_solution(Puzzle(5, 6, "LPUVYN", frozenset({(0, 0)})), grid)
    with pytest.raises(RuleError, match="piece-set"):
        check_solution(shorthand("5x6", "LPUVYF"), grid)
    with pytest.raises(RuleError, match="board-size"):
        check_solution(puzzle, grid[:-1])


def test_timeout_gives_unknown_with_a_lower_bound():
    result = solve_katamino(shorthand("6x10", LETTERS), engine="dlx", count=True, time_limit=0.2)
    assert result.status == Status.UNKNOWN and not result.complete
    assert result.count is not None and result.count <= 4 * 2339


def test_reader_errors_name_the_field(tmp_path):
    cases = {
        "not json": "not valid JSON",
        "[]": "must be a JSON object",
        '{"cols": 5, "pieces": "L"}': "field 'rows': is missing",
        '{"rows": 1, "cols": 5, "pieces": 5}': "field 'pieces'",
        '{"rows": 1, "cols": 5, "pieces": "LQ"}': "field 'pieces': unknown piece 'Q'",
        '{"rows": 1, "cols": 5, "pieces": "LL"}': "given twice",
        '{"rows": 0, "cols": 5, "pieces": "L"}': "field 'rows': must be between 1",
        '{"rows": 1, "cols": 5, "pieces": "L", "blocked": [[1, 0]]}': "outside the 1 x 5 board",
        '{"rows": 1, "cols": 5, "pieces": "L", "blocked": [[0]]}': "field 'blocked': item 1",
        '{"rows": true, "cols": 5, "pieces": "L"}': "field 'rows': must be an integer",
    }
    for k, (text, message) in enumerate(cases.items()):
        path = tmp_path / f"p{k}.json"
        path.write_text(text)
        with pytest.raises(FormatError, match=message) as info:
            read_katamino(path)
        assert str(path) in str(info.value)
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"rows": 3, "cols": 6, "pieces": "lpu", "blocked": [[0, 0], [2, 5], [1, 3]]}))
    puzzle = read_katamino(good)
    assert (puzzle.pieces, len(puzzle.free), puzzle.name) == ("LPU", 15, "good")


def test_shorthand_errors():
    for board, pieces in (("5by6", "LPU"), ("5x6", "LPQ"), ("5x6", "LLP"), ("0x6", "L"), ("5x6", "")):
        with pytest.raises(UsageError):
            shorthand(board, pieces)


@pytest.mark.parametrize("board,pieces", [("5x3", "LNV"), ("5x4", "FLUY"), ("5x4", "FIPU"), ("5x5", "FLPUW"),
                                          ("5x5", "FILUY"), ("3x5", "PUV")])
def test_symmetric_boards_counts_match_plain_enumeration(board, pieces):
    puzzle = shorthand(board, pieces)
    a = solve_katamino(puzzle, engine="cpsat", count=True)
    b = solve_katamino(puzzle, engine="dlx", count=True)
    assert a.count == b.count == _plain_count(puzzle) > 0
    assert a.distinct == b.distinct
    assert a.distinct * a.symmetries >= a.count >= a.distinct


def test_benchmark_script_runs(tmp_path, capsys):
    module = bench_script("katamino")
    out = tmp_path / "k"
    module.main(["--min-n", "3", "--max-n", "3", "--limit", "12", "--counts", "", "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert len(data["sets"]) == 12 and all(r["cpsat"]["status"] == r["dlx"]["status"] for r in data["sets"])
    assert "| 5x3 | 12 |" in out.with_suffix(".md").read_text()
