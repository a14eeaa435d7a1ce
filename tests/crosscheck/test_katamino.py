"""Katamino: pieces, the three engines (compiled bitboard search, CP-SAT, Algorithm X) against each other
on random boards under both rules, the counting arguments against plain enumeration, the game's rule
(the I lies lengthwise: 19 four-piece sets on 5 x 4, 7 three-piece sets on 5 x 3), impossibility
reasons, the rules check and the reader."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.errors import FormatError, RuleError, UsageError
from kamicp.katamino import (
    LETTERS,
    KataminoStatus,
    Puzzle,
    Rule,
    asymmetric_piece,
    check_solution,
    i_direction,
    impossibility,
    orientations,
    shorthand,
    solve_katamino,
    symmetries,
    usable_engines,
)
from kamicp.katamino.dlx import AlgorithmX
from kamicp.katamino.files import read_katamino
from tests.helpers import bench_script

ENGINES = usable_engines()  # the fast one only when the compiled core is built
FAST = ENGINES[0]  # the fast engine, or CP-SAT without the core
needs_core = pytest.mark.skipif("fast" not in ENGINES, reason="compiled core not built")


def test_the_twelve_pentominoes_have_63_orientations():
    counts = {letter: len(orientations(letter)) for letter in LETTERS}
    assert counts == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1,
                      "Y": 8, "Z": 4}
    for letter in LETTERS:
        for shape in orientations(letter):
            assert len(shape) == 5


def test_the_i_lies_lengthwise_under_the_game_rule():
    # a 5-row board is a slice of the game's tray: the I lies along its rows, even when it cannot fit
    assert [i_direction(5, w) for w in (3, 4, 5, 12)] == ["rows"] * 4
    assert [i_direction(r, c) for r, c in ((12, 5), (6, 10), (10, 6), (6, 6))] == ["cols", "rows", "cols", "any"]
    game = shorthand("5x6", "ILPUVY")
    assert {p.cells[1] - p.cells[0] for p in game.placements if p.letter == "I"} == {1}
    free = shorthand("5x6", "ILPUVY", Rule.FREE)
    assert {p.cells[1] - p.cells[0] for p in free.placements if p.letter == "I"} == {1, 6}


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
    return Puzzle(rows, cols, used, blocked, rule=Rule.FREE)


def _random_puzzles(seed: int, count: int) -> list[Puzzle]:
    """Half 5 x N boards with N random pieces under a random rule (many impossible), half packed boards
    under free packing (solvable)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        if k % 2 == 0:
            n = rng.randint(2, 6)
            out.append(Puzzle(5, n, "".join(rng.sample(LETTERS, n)), rule=rng.choice(list(Rule))))
        else:
            out.append(_packed_puzzle(rng))
    return out


def _plain_count(puzzle: Puzzle) -> int:
    """Every exact cover, counted without the symmetry reduction."""
    rows = [(*p.cells, p.letter) for p in puzzle.placements]
    return sum(1 for _ in AlgorithmX([*puzzle.free, *puzzle.pieces], rows).solutions())


@pytest.mark.parametrize("seed", range(4))
def test_the_three_engines_count_the_same(seed):
    for puzzle in _random_puzzles(seed, 12):
        results = [solve_katamino(puzzle, engine=engine, count=True) for engine in ENGINES]
        assert all(r.complete for r in results)
        a = results[0]
        assert a.count > 0 or not puzzle.blocked  # packed boards have the packing as a solution
        assert len({(r.status, r.count, r.distinct) for r in results}) == 1, (puzzle, results)
        assert a.count == (0 if impossibility(puzzle) else _plain_count(puzzle)), puzzle
        for engine in ENGINES:
            one = solve_katamino(puzzle, engine=engine)
            assert (one.status == KataminoStatus.SOLVED) == (a.count > 0)
            for grid in (*one.solutions, *(s for r in results for s in r.solutions)):
                check_solution(puzzle, grid)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(rows=st.integers(2, 6), cols=st.integers(2, 8), pieces=st.lists(st.sampled_from(LETTERS), min_size=1,
       max_size=5, unique=True), holes=st.sets(st.tuples(st.integers(0, 5), st.integers(0, 7)), max_size=12),
       rule=st.sampled_from(list(Rule)))
def test_the_three_engines_agree_on_any_board(rows, cols, pieces, holes, rule):
    """Any rectangle, any blocked cells, any pieces, either rule: the same answer from every engine, and a
    count equal to plain enumeration."""
    blocked = frozenset((r, c) for r, c in holes if r < rows and c < cols)
    if rows * cols - len(blocked) != 5 * len(pieces):  # make the area fit by blocking the last free cells
        free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in blocked]
        extra = len(free) - 5 * len(pieces)
        if extra < 0:
            return
        blocked |= frozenset(free[len(free) - extra:]) if extra else frozenset()
    puzzle = Puzzle(rows, cols, "".join(pieces), blocked, rule=rule)
    results = [solve_katamino(puzzle, engine=engine, count=True) for engine in ENGINES]
    assert len({(r.status, r.count, r.distinct) for r in results}) == 1, (puzzle, results)
    assert results[0].count == (0 if impossibility(puzzle) else _plain_count(puzzle))
    for r in results:
        for grid in r.solutions:
            check_solution(puzzle, grid)


@pytest.mark.parametrize("seed", range(3))
def test_fast_counts_with_an_asymmetric_piece_match_plain_enumeration(seed):
    """The fast count (one asymmetric piece kept to one placement per orbit, |G| x the restricted count)
    against Algorithm X without any restriction, on 5 x N boards with blocked cells."""
    rng = random.Random(100 + seed)
    for _ in range(8):
        n = rng.randint(3, 6)
        pieces = rng.choice("FLNPY") + "".join(rng.sample([x for x in LETTERS if x not in "FLNPY"], n - 1))
        blocked = frozenset(rng.sample([(r, c) for r in range(5) for c in range(n + 1)], 5))
        puzzle = Puzzle(5, n + 1, pieces, blocked, rule=rng.choice(list(Rule)))
        assert asymmetric_piece(puzzle) is not None
        fast = solve_katamino(puzzle, engine=FAST, count=True)
        slow = solve_katamino(puzzle, engine="dlx", count=True)
        assert (fast.count, fast.distinct) == (slow.count, slow.distinct), puzzle
        assert fast.count == (0 if impossibility(puzzle) else _plain_count(puzzle))


@pytest.mark.parametrize("n,rule,solvable", [(3, Rule.KATAMINO, 7), (4, Rule.KATAMINO, 19), (3, Rule.FREE, 7),
                                             (4, Rule.FREE, 26)])
def test_piece_sets_that_fill_5_by_n(n, rule, solvable):
    """The game's booklet: 19 four-piece sets fill 5 x 4 and 7 three-piece sets fill 5 x 3 (the I lies
    lengthwise); with a free I, 26 fill 5 x 4. Each set decided by the fast engine and by Algorithm X."""
    found = []
    for combo in combinations(LETTERS, n):
        puzzle = Puzzle(5, n, "".join(combo), rule=rule)
        fast, dlx = (solve_katamino(puzzle, engine=e).status for e in (FAST, "dlx"))
        assert fast == dlx != KataminoStatus.UNKNOWN, puzzle
        if fast == KataminoStatus.SOLVED:
            found.append(puzzle.pieces)
    assert len(found) == solvable
    assert (rule is Rule.FREE) or not any("I" in p for p in found)  # the I lies across a 5 x 3 or 5 x 4 board


@pytest.mark.parametrize("engine", ENGINES)
def test_all_lists_every_solution_once(engine):
    puzzle = shorthand("5x6", "LPUVYN")
    result = solve_katamino(puzzle, engine=engine, all_solutions=True)
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
        assert result.status == KataminoStatus.IMPOSSIBLE and result.count == 0 and reason in result.reason


def test_uncoverable_cell_is_a_reason():
    # (0, 0) is cut off by blocked cells: no piece can reach it.
    puzzle = Puzzle(3, 6, "LPU", frozenset({(0, 1), (1, 0), (1, 1)}))
    assert impossibility(puzzle) == "cell (0, 0) cannot be covered by any piece"


def test_searched_impossibility_is_proven_by_both_engines():
    puzzle = shorthand("5x6", "LPUVYX")
    assert impossibility(puzzle) is None
    for engine in ("cpsat", "dlx"):
        result = solve_katamino(puzzle, engine=engine)
        assert result.status == KataminoStatus.IMPOSSIBLE and "proven" in result.reason


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


def test_rules_check_knows_the_i_rule():
    free = shorthand("5x6", "IFLPUW", Rule.FREE)  # an upright I beside a packing of 5 x 5
    upright = next(g for g in solve_katamino(free, all_solutions=True).solutions
                   if len({r for r, row in enumerate(g) if "I" in row}) == 5)
    check_solution(free, upright)
    with pytest.raises(RuleError, match="i-lengthwise"):
        check_solution(shorthand("5x6", "IFLPUW"), upright)


@pytest.mark.parametrize("engine", ENGINES)
def test_timeout_gives_unknown_with_a_lower_bound(engine):
    # 6 x 10: a count takes the fast engine far longer than this limit
    result = solve_katamino(shorthand("6x10", LETTERS, Rule.FREE), engine=engine, count=True, time_limit=0.01)
    assert result.status == KataminoStatus.UNKNOWN and not result.complete
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
    assert (puzzle.pieces, len(puzzle.free), puzzle.name, puzzle.rule) == ("LPU", 15, "good", Rule.KATAMINO)
    good.write_text(json.dumps({"rows": 3, "cols": 6, "pieces": "lpu", "rule": "free"}))
    assert read_katamino(good).rule is Rule.FREE
    good.write_text(json.dumps({"rows": 3, "cols": 6, "pieces": "lpu", "rule": "loose"}))
    with pytest.raises(FormatError, match="field 'rule': must be \"katamino\" or \"free\""):
        read_katamino(good)


def test_shorthand_errors():
    for board, pieces in (("5by6", "LPU"), ("5x6", "LPQ"), ("5x6", "LLP"), ("0x6", "L"), ("5x6", "")):
        with pytest.raises(UsageError):
            shorthand(board, pieces)


@pytest.mark.parametrize("board,pieces,rule", [
    ("5x3", "LNV", Rule.KATAMINO), ("5x4", "FLUY", Rule.KATAMINO), ("5x4", "FIPU", Rule.FREE),
    ("5x5", "FLPUW", Rule.KATAMINO), ("5x5", "FILUY", Rule.KATAMINO), ("5x5", "FILUY", Rule.FREE),
    ("3x5", "PUV", Rule.KATAMINO), ("4x5", "ILNV", Rule.KATAMINO), ("4x5", "ILNV", Rule.FREE)])
def test_symmetric_boards_counts_match_plain_enumeration(board, pieces, rule):
    puzzle = shorthand(board, pieces, rule)
    results = [solve_katamino(puzzle, engine=engine, count=True) for engine in ENGINES]
    assert len({r.count for r in results}) == 1 and results[0].count == _plain_count(puzzle) > 0
    assert len({r.distinct for r in results}) == 1
    a = results[0]
    assert a.distinct * a.symmetries >= a.count >= a.distinct
    if "I" in pieces and rule is Rule.KATAMINO and puzzle.rows == puzzle.cols:
        assert a.symmetries == 4  # the diagonal mirrors would turn the I across


@pytest.mark.parametrize("puzzle,count,symmetries", [
    (Puzzle(3, 3, "X", frozenset({(0, 0), (0, 2), (2, 0), (2, 2)})), 1, 8),  # one solution, its own mirror
    (Puzzle(3, 5, "IU", frozenset({(0, 0), (1, 0), (0, 2), (0, 4), (1, 4)})), 1, 2),
    (Puzzle(4, 5, "IUTX", frozenset(), rule=Rule.FREE), 0, 4)])
def test_counts_without_an_asymmetric_piece(puzzle, count, symmetries):
    """No F, L, N, P or Y: every engine lists the restricted solutions and counts orbits (a symmetric
    solution's orbit is smaller than the group)."""
    results = [solve_katamino(puzzle, engine=engine, count=True) for engine in ENGINES]
    assert {(r.count, r.distinct, r.symmetries) for r in results} == {(count, count, symmetries)}
    assert count == _plain_count(puzzle)


@needs_core
def test_benchmark_script_runs(tmp_path, capsys):
    module = bench_script("katamino")
    out = tmp_path / "k"
    book = tmp_path / "book.json"
    book.write_text(json.dumps({"challenges": [{"pieces": "LNVUP", "start": 3}]}))
    module.main(["--counts", "3x20", "--cap", "30", "--no-sets", "--book", str(book), "--out", str(out)])
    data = json.loads(out.with_suffix(".json").read_text())
    assert [r["board"] for r in data["counts"]] == ["3x20"]
    assert all(data["counts"][0][e]["distinct"] == 2 for e in ENGINES)
    assert data["books"][0]["puzzles"] == 3
    assert "| 3x20 | 8 | 2 |" in out.with_suffix(".md").read_text()
