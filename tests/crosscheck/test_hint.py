"""Hints from any position: cross-checked against an exhaustive search from that position, and the moves
formats the CLI reads."""

from __future__ import annotations

import json
import random

import pytest

from kamicp import RuleError, UsageError, load_level, solve
from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, apply_move, replay
from kamicp.designer.hint import HintStatus, hint, parse_moves, position_level
from tests.helpers import PUZZLES
from tests.helpers.boards import random_mixed, random_moves
from tests.helpers.oracle import bfs_optimum


def bfs_from(level: Level, board: Board) -> int | None:
    """Fewest moves from the position `board`, by the exhaustive oracle (the rules engine alone)."""
    found = bfs_optimum(level, start=board)
    return None if found is None else found[0]


def _level(seed: int) -> Level:
    return random_mixed(seed, triangle=(2, 4), square=(2, 4), nodes=(3, 8), edge_rates=(0.2, 0.35, 0.5))


@pytest.mark.parametrize("chunk", range(10))
def test_hint_matches_exhaustive_search_from_random_positions(chunk):
    """300 boards (triangle, square, graph with islands), each from a random position: the remaining
    optimum is the oracle's, the move is legal and keeps it (one fewer from the next position)."""
    for seed in range(chunk * 30, chunk * 30 + 30):
        level = _level(seed)
        rng = random.Random(1000 + seed)
        moves = random_moves(rng, level, rng.randint(0, 4))
        board = replay(level, moves)[-1]
        truth = bfs_from(level, board)
        engine = ("search", "cpsat")[seed % 2]
        h = hint(level, moves, engine=engine)
        assert h.played == len(moves)
        if truth == 0:
            assert h.status is HintStatus.SOLVED and h.move is None and h.remaining == 0, seed
            continue
        assert h.status is HintStatus.OPTIMAL, seed
        assert h.remaining == truth == h.lower_bound == h.upper_bound, seed
        after = apply_move(board, h.move)  # legal by the rules engine
        assert bfs_from(level, after) == truth - 1, seed
        assert set(h.region) == set(board.region_at(h.move.cell)), seed


def test_par_still_possible_follows_the_moves(blog_path):
    level = load_level(blog_path)  # par 5, optimum 5
    assert hint(level).par_still_possible is True
    wasted = hint(level, parse_moves(level, "1:Red"))  # a move that does not help: 1 + 5 > par
    assert wasted.par_still_possible is False and wasted.move is not None and wasted.remaining == 5
    best = solve(level, engine="search").moves
    for k in range(len(best)):
        step = hint(level, best[:k])
        assert step.remaining == len(best) - k and step.par_still_possible is True
    done = hint(level, best)
    assert done.status is HintStatus.SOLVED and done.par_still_possible is True


def test_parse_moves_formats():
    level = load_level(PUZZLES / "tri-harbour.json")
    result = solve(level, engine="search")
    as_json = json.dumps(result.to_dict(level))
    assert parse_moves(level, as_json) == result.moves
    assert parse_moves(level, json.dumps(result.to_dict(level)["moves"])) == result.moves
    text = ";".join(f"{level.labels[m.cell][0]},{level.labels[m.cell][1]}:{m.colour}" for m in result.moves)
    assert parse_moves(level, text) == result.moves
    assert parse_moves(level, "") == ()
    graph = load_level(PUZZLES / "blog-18.json")
    assert parse_moves(graph, "7:Red; 3:purple") == (Move(graph.index("7"), "Red"), Move(graph.index("3"), "Purple"))


@pytest.mark.parametrize(("text", "error", "needle"), [
    ("0,0:Q", RuleError, "known-colour"),
    ("99,0:A", RuleError, "cell-exists"),
    ("0,0", UsageError, "TAP:COLOUR"),
    ("[{\"tap\": 3}]", UsageError, "tap"),
    ("{\"moves\": 3}", UsageError, "list of moves"),
    ("[1,", UsageError, "not valid JSON"),
])
def test_parse_moves_errors(text, error, needle):
    level = load_level(PUZZLES / "tri-harbour.json")
    with pytest.raises(error, match=needle):
        parse_moves(level, text)


def test_illegal_move_names_the_rule():
    level = load_level(PUZZLES / "tri-harbour.json")
    first = level.colours[0]
    with pytest.raises(RuleError) as info:
        hint(level, parse_moves(level, f"0,0:{first}"))
    assert info.value.rule == "colour-changes"


def test_vanished_colours_stay_playable():
    """Positions where a colour has left the board: it is still a legal move (a spare colour of the
    position), and the optimum counts it, as the exhaustive search over every level colour does."""
    checked = 0
    for seed in range(300, 600):
        level = _level(seed)
        rng = random.Random(seed)
        moves = random_moves(rng, level, rng.randint(1, 5))
        board = replay(level, moves)[-1]
        gone = set(level.colour_keys) - set(board.colours)
        if not gone or board.solved:
            continue
        position = position_level(level, board)
        assert set(position.colour_keys) == set(level.colour_keys) and set(position.spare_colours) == gone
        apply_move(Board.start(position), Move(0, sorted(gone)[0]))  # legal, as in the game
        assert hint(level, moves, engine=("search", "cpsat")[seed % 2]).remaining == bfs_from(level, board), seed
        checked += 1
    assert checked >= 30
