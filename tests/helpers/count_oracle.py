"""Brute-force enumeration of every optimal plan, and of their classes, on the rules engine alone.

It shares no code with kamicp.designer.count: positions are cell colourings, moves are (cells of the tapped
region, colour), and two plans are in one class when a chain of swaps of two consecutive moves, each
swap giving a legal plan with the same moves, leads from one to the other (components of that graph).
"""

from __future__ import annotations

from collections import Counter

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, apply_move
from tests.helpers.oracle import region_moves

Step = tuple[tuple[int, ...], str]  # (cells of the tapped region, new colour)


def _moves(board: Board) -> list[tuple[Step, Board]]:
    return [((tuple(region), move.colour), apply_move(board, move)) for region, move in region_moves(board)]


def optimal_plans(level: Level, max_depth: int = 8, max_plans: int = 5000) -> tuple[int, list[tuple[Step, ...]]] | None:
    """(optimum, every optimal plan), or None past `max_depth` moves or `max_plans` plans."""
    start = Board.start(level)
    if start.solved:
        return 0, [()]
    layers: list[dict[tuple[str, ...], Board]] = [{start.colours: start}]
    seen = {start.colours}
    edges: list[dict[tuple[str, ...], list[tuple[Step, tuple[str, ...]]]]] = []
    while not any(b.solved for b in layers[-1].values()):
        if len(layers) > max_depth:
            return None
        nxt: dict[tuple[str, ...], Board] = {}
        out: dict[tuple[str, ...], list[tuple[Step, tuple[str, ...]]]] = {}
        for key, board in layers[-1].items():
            for step, child in _moves(board):
                if child.colours in seen and child.colours not in nxt:
                    continue  # seen in an earlier layer: not on a shortest path
                nxt[child.colours] = child
                out.setdefault(key, []).append((step, child.colours))
        seen.update(nxt)
        layers.append(nxt)
        edges.append(out)
    depth = len(layers) - 1
    good = [set() for _ in layers]
    good[depth] = {k for k, b in layers[depth].items() if b.solved}
    for d in range(depth - 1, -1, -1):
        good[d] = {k for k, out in edges[d].items() if any(c in good[d + 1] for _, c in out)}
    plans: list[tuple[Step, ...]] = []

    def walk(key: tuple[str, ...], d: int, prefix: list[Step]) -> bool:
        if d == depth:
            plans.append(tuple(prefix))
            return len(plans) <= max_plans
        for step, child in edges[d].get(key, []):
            if child in good[d + 1]:
                prefix.append(step)
                ok = walk(child, d + 1, prefix)
                prefix.pop()
                if not ok:
                    return False
        return True

    if not walk(start.colours, 0, []):
        return None
    return depth, plans


def _legal(level: Level, plan: tuple[Step, ...]) -> bool:
    """Does `plan` replay, each move tapping exactly its region, and solve the board?"""
    board = Board.start(level)
    for cells, colour in plan:
        if board.region_at(cells[0]) != list(cells) or board.colours[cells[0]] == colour:
            return False
        board = apply_move(board, Move(cells[0], colour))
    return board.solved


def swap_classes(level: Level, plans: list[tuple[Step, ...]]) -> int:
    """The number of classes of `plans` under swaps of two consecutive moves that stay legal."""
    index = {p: i for i, p in enumerate(plans)}
    parent = list(range(len(plans)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for p, i in index.items():
        for k in range(len(p) - 1):
            q = (*p[:k], p[k + 1], p[k], *p[k + 2:])
            if q != p and _legal(level, q):
                parent[find(i)] = find(index[q])  # (a legal plan of optimum length: one of `plans`)
    return len({find(i) for i in range(len(plans))})


def brute_pivot_count(level: Level, pivot: int, moves: int) -> int:
    """The move sequences of exactly `moves` pivot moves whose last board, and only that one, is one
    colour: positions are merged by their colours, each carrying how many sequences reach it."""
    layer = Counter({Board.start(level).colours: 1})
    boards = {Board.start(level).colours: Board.start(level)}
    for _ in range(moves):
        nxt: Counter = Counter()
        for colours, ways in layer.items():
            board = boards[colours]
            if board.solved:
                continue  # solved before the end: not a plan of this length
            for colour in level.colour_keys:
                if colour != board.colours[pivot]:
                    child = apply_move(board, Move(pivot, colour), pivot=pivot)
                    boards.setdefault(child.colours, child)
                    nxt[child.colours] += ways
        layer = nxt
    return sum(ways for colours, ways in layer.items() if boards[colours].solved)
