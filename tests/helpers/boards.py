"""Random small boards for cross-checks: triangle, square and graph levels, with holes and islands."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, apply_move

KEYS = "ABCD"


@st.composite
def grid_levels(draw, geometry: str | None = None, max_rows: int = 4, max_cols: int = 4,
                max_colours: int = 4, holes: bool = True) -> Level:
    geometry = geometry or draw(st.sampled_from(["triangle", "square"]))
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(2 if rows == 1 else 1, max_cols))
    k = draw(st.integers(2, max_colours))
    alphabet = KEYS[:k] + ("." if holes else "")
    cells = draw(st.lists(st.sampled_from(alphabet), min_size=rows * cols, max_size=rows * cols))
    if all(ch == "." for ch in cells):
        cells[0] = "A"
    grid = ["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)]
    return Level.from_rows(grid, geometry, name=f"random-{geometry}")


@st.composite
def graph_levels(draw, max_nodes: int = 8, max_colours: int = 4) -> Level:
    n = draw(st.integers(1, max_nodes))
    k = draw(st.integers(2, max_colours))
    colours = draw(st.lists(st.sampled_from(KEYS[:k]), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=2 * n, unique=True)) if pairs else []
    nodes = {str(i + 1): c for i, c in enumerate(colours)}
    edges = [(str(i + 1), str(j + 1)) for i, j in chosen]
    return Level.from_graph(nodes, edges, name="random-graph")


def levels(**kwargs) -> st.SearchStrategy[Level]:
    return st.one_of(grid_levels(**kwargs), graph_levels())


def random_grid(rng, geometry: str, rows: int, cols: int, colours: int, hole_rate: float = 0.1,
                blobbiness: float = 0.5) -> Level:
    """A random grid where each cell copies an already placed neighbour with probability `blobbiness`
    (so regions span several cells, as in real levels) and some cells are holes."""
    grid = [["."] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if rng.random() < hole_rate:
                continue
            placed = [grid[r2][c2] for r2, c2 in ((r - 1, c), (r, c - 1)) if r2 >= 0 and c2 >= 0]
            placed = [p for p in placed if p != "."]
            if placed and rng.random() < blobbiness:
                grid[r][c] = rng.choice(placed)
            else:
                grid[r][c] = KEYS[rng.randrange(colours)]
    if all(ch == "." for row in grid for ch in row):
        grid[0][0] = "A"
    return Level.from_rows(["".join(row) for row in grid], geometry, name=f"random-{geometry}")


def random_graph(rng, nodes: int, colours: int, edge_rate: float) -> Level:
    """A random graph level; sparse ones fall apart into islands."""
    names = [str(i + 1) for i in range(nodes)]
    edges = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if rng.random() < edge_rate]
    return Level.from_graph({n: KEYS[rng.randrange(colours)] for n in names}, edges, name="random-graph")


def flood_square(n: int, colours: int, seed: int, par: int | None = None) -> Level:
    """A random n x n square board (the Flood-It shape) in the first `colours` letters."""
    rng = random.Random(seed)
    rows = ["".join(rng.choice("ABCDEF"[:colours]) for _ in range(n)) for _ in range(n)]
    return Level.from_rows(rows, "square", name=f"flood-{n}-{colours}-s{seed}", par=par)


def random_moves(rng: random.Random, level: Level, count: int) -> list[Move]:
    """Up to `count` random legal moves (any cell, any other colour), stopping early on a solved board."""
    board, moves = Board.start(level), []
    for _ in range(count):
        if board.solved:
            break
        cell = rng.randrange(level.size)
        colour = rng.choice([k for k in level.colour_keys if k != board.colours[cell]])
        moves.append(Move(cell, colour))
        board = apply_move(board, moves[-1])
    return moves


def random_mixed(seed: int, triangle: tuple[int, int], square: tuple[int, int], nodes: tuple[int, int],
                 edge_rates: tuple[float, ...]) -> Level:
    """A random level by `seed % 3`: a triangle grid, a square grid (sides drawn from the given ranges,
    3-4 colours) or a graph (nodes from the range, 2-4 colours, one of `edge_rates`, so it may have islands)."""
    rng = random.Random(seed)
    kind = seed % 3
    if kind == 0:
        return random_grid(rng, "triangle", rng.randint(*triangle), rng.randint(*triangle), rng.randint(3, 4))
    if kind == 1:
        return random_grid(rng, "square", rng.randint(*square), rng.randint(*square), rng.randint(3, 4))
    return random_graph(rng, rng.randint(*nodes), rng.randint(2, 4), rng.choice(edge_rates))


def mixed_small_board(rng: random.Random, i: int, graph_nodes: int = 7) -> Level:
    """The i-th of a cycle of triangle grids, square grids (with holes, so some have islands) and random graphs
    of 3..graph_nodes nodes, 2-4 colours (the pivot relation's cross-checks)."""
    kind = i % 3
    if kind == 0:
        return random_grid(rng, "triangle", rng.randint(2, 3), rng.randint(2, 4), rng.randint(2, 4), hole_rate=0.1)
    if kind == 1:
        return random_grid(rng, "square", rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 4), hole_rate=0.15)
    return random_graph(rng, rng.randint(3, graph_nodes), rng.randint(2, 4), rng.choice([0.3, 0.45, 0.6]))
