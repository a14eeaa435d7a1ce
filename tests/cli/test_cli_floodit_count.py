"""`kamicp count --rules pivot` through typer's CliRunner."""

from __future__ import annotations

import json
from collections import Counter

from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.level import Level, Move
from kamicp.rules import Board, apply_move
from tests.helpers.oracle import bfs_pivot_optimum


def brute_pivot_count(level: Level, pivot: int, moves: int) -> int:
    """The move sequences of exactly `moves` pivot moves whose last board, and only that one, is one
    colour: positions are merged by their colours, each carrying how many sequences reach it."""
    layer = Counter({Board.start(level).colors: 1})
    boards = {Board.start(level).colors: Board.start(level)}
    for _ in range(moves):
        nxt: Counter = Counter()
        for colors, ways in layer.items():
            board = boards[colors]
            if board.solved:
                continue  # solved before the end: not a plan of this length
            for color in level.color_keys:
                if color != board.colors[pivot]:
                    child = apply_move(board, Move(pivot, color), pivot=pivot)
                    boards.setdefault(child.colors, child)
                    nxt[child.colors] += ways
        layer = nxt
    return sum(ways for colors, ways in layer.items() if boards[colors].solved)


def test_cli_count_pivot(tmp_path):
    def run(*args: object):
        return CliRunner().invoke(app, [str(a) for a in args])

    path = tmp_path / "flood.txt"
    path.write_text("ABCAB\nBBCAA\nCACBB\nAABCC\nBCABA\n")
    level = Level.from_rows(path.read_text().split(), "square")
    cell = level.index((2, 2))
    res = run("count", path, "--geometry", "square", "--rules", "pivot", "--pivot", "2,2", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    optimum = bfs_pivot_optimum(level, cell, limit=14)[0]
    assert data["optimum"] == optimum and data["complete"]
    assert data["solutions"] == data["classes"] == brute_pivot_count(level, cell, optimum) > 1
    table = run("count", path, "--geometry", "square", "--rules", "pivot")
    assert table.exit_code == 0 and "optimum" in table.stdout and "class 1: (0, 0)" in table.stdout
    limited = run("count", path, "--geometry", "square", "--rules", "pivot", "--limit", "2")
    assert limited.exit_code == 2 and "--limit is for the free rules" in limited.stderr
    blocked = tmp_path / "islands.txt"
    blocked.write_text("AB.A\nBA.B\n")
    none = run("count", blocked, "--geometry", "square", "--rules", "pivot")
    assert none.exit_code == 1 and "no solution (proven)" in none.stdout
