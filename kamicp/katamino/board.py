"""Solutions as letter grids, the rules check every printed solution passes, the board's symmetries,
and the quick impossibility proofs.

The rules check works on the letter grid alone (connected cells per letter, congruent to the piece), so
it shares no logic with the engines, which pick placements.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx

from kamicp.errors import RuleError
from kamicp.katamino.pieces import Rule, congruent, i_direction, lies_lengthwise
from kamicp.katamino.puzzle import Placement, Puzzle

BLOCKED = "."
Grid = tuple[str, ...]  # one string per row: a piece letter per cell, '.' for a blocked cell
Perm = tuple[int, ...]  # a symmetry: cell -> image cell


def grid_of(puzzle: Puzzle, placements: Iterable[Placement]) -> Grid:
    cells = [BLOCKED] * puzzle.size
    for p in placements:
        for cell in p.cells:
            cells[cell] = p.letter
    return tuple("".join(cells[r * puzzle.cols:(r + 1) * puzzle.cols]) for r in range(puzzle.rows))


def check_solution(puzzle: Puzzle, grid: Sequence[str]) -> None:
    """Raise RuleError unless `grid` places each piece of the puzzle once, congruent to its shape, on
    exactly the free cells (and, under the game's rule, the I lengthwise)."""
    if len(grid) != puzzle.rows or any(len(row) != puzzle.cols for row in grid):
        raise RuleError("board-size", f"the grid is not {puzzle.rows} x {puzzle.cols}")
    cells: dict[str, set[tuple[int, int]]] = {}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ((r, c) in puzzle.blocked) != (ch == BLOCKED):
                what = "covers a blocked cell" if ch != BLOCKED else "leaves a free cell empty"
                raise RuleError("exact-cover", f"cell ({r}, {c}) {what}")
            if ch != BLOCKED:
                cells.setdefault(ch, set()).add((r, c))
    if sorted(cells) != sorted(puzzle.pieces):
        raise RuleError("piece-set", f"pieces used {''.join(sorted(cells))}, given {''.join(sorted(puzzle.pieces))}")
    for letter, found in cells.items():
        if not congruent(found, letter):
            raise RuleError("piece-shape", f"the cells of {letter!r} are not a copy of the {letter} pentomino")
    if "I" in cells and puzzle.rule is Rule.KATAMINO and not lies_lengthwise(cells["I"], puzzle.rows, puzzle.cols):
        way = "horizontally" if i_direction(puzzle.rows, puzzle.cols) == "rows" else "vertically"
        raise RuleError("i-lengthwise", f"the I must lie along the board's long side ({way}) under the game's rule")


def symmetries(puzzle: Puzzle) -> tuple[Perm, ...]:
    """The symmetries of the rectangle (4; 8 for a square) that map the blocked cells onto themselves (and,
    when the game's rule fixes the I's direction, keep it), as cell permutations; the identity first."""
    R, C = puzzle.rows, puzzle.cols
    maps = [lambda r, c: (r, c), lambda r, c: (R - 1 - r, C - 1 - c),
            lambda r, c: (R - 1 - r, c), lambda r, c: (r, C - 1 - c)]
    turns_i = "I" in puzzle.pieces and puzzle.rule is Rule.KATAMINO and i_direction(R, C) != "any"
    if R == C and not turns_i:
        maps += [lambda r, c: (c, r), lambda r, c: (C - 1 - c, R - 1 - r),
                 lambda r, c: (c, R - 1 - r), lambda r, c: (C - 1 - c, r)]
    out = []
    for f in maps:
        if {f(r, c) for r, c in puzzle.blocked} == puzzle.blocked:
            out.append(tuple(f(r, c)[0] * C + f(r, c)[1] for r in range(R) for c in range(C)))
    return tuple(out)


def image(grid: Grid, perm: Perm, cols: int) -> Grid:
    """The grid moved by a symmetry: the letter at cell i goes to perm[i]."""
    flat = "".join(grid)
    cells = [""] * len(flat)
    for i, ch in enumerate(flat):
        cells[perm[i]] = ch
    joined = "".join(cells)
    return tuple(joined[r:r + cols] for r in range(0, len(joined), cols))


def orbit(grid: Grid, group: Sequence[Perm], cols: int) -> set[Grid]:
    return {image(grid, g, cols) for g in group}


def canonical(grid: Grid, group: Sequence[Perm], cols: int) -> Grid:
    """The smallest grid of the solution's orbit: equal for two solutions iff a symmetry maps one onto the other."""
    return min(orbit(grid, group, cols))


def impossibility(puzzle: Puzzle) -> str | None:
    """A reason why the puzzle has no solution that needs no search, or None.

    Each reason is a sound proof: the pieces cover 5 cells each, every free cell must be covered, every
    piece must be placed, and a piece lies within one connected area of free cells."""
    area, need = len(puzzle.free), 5 * len(puzzle.pieces)
    if area != need:
        return f"area {area} != 5 x {len(puzzle.pieces)} pieces = {need}"
    placed = {p.letter for p in puzzle.placements}
    for letter in puzzle.pieces:
        if letter not in placed:
            lengthwise = " lying lengthwise (the game's rule)" if letter == "I" and puzzle.rule is Rule.KATAMINO else ""
            return f"piece {letter} fits nowhere on the board{lengthwise}"
    covered = {cell for p in puzzle.placements for cell in p.cells}
    for cell in puzzle.free:
        if cell not in covered:
            return f"cell ({cell // puzzle.cols}, {cell % puzzle.cols}) cannot be covered by any piece"
    graph = nx.grid_2d_graph(puzzle.rows, puzzle.cols)
    graph.remove_nodes_from(puzzle.blocked)
    for part in nx.connected_components(graph):
        if len(part) % 5:
            r, c = min(part)
            return f"the free area at ({r}, {c}) has {len(part)} cells, not a multiple of 5"
    return None
