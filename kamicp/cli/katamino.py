"""The katamino command: pack pentominoes into a rectangle, prove it impossible, or count the ways."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from kamicp.cli.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_UNKNOWN,
    ForceOpt,
    JsonOpt,
    TimeLimit,
    app,
    bad_input,
    err,
    fail,
    out,
    spinner,
)
from kamicp.formats.katamino import read_katamino
from kamicp.katamino import KataminoResult, Puzzle, Status, shorthand, solve_katamino
from kamicp.katamino.board import BLOCKED, Grid
from kamicp.katamino.picture import PIECE_COLOURS, write_solution_picture
from kamicp.render.files import check_writable, picture_kind


class KataminoEngine(StrEnum):
    cpsat = "cpsat"
    dlx = "dlx"


def _puzzle(path: Path | None, board: str | None, pieces: str | None) -> Puzzle:
    if path is not None and (board or pieces):
        raise fail("give a PUZZLE file or --board with --pieces, not both")
    if path is None and not (board and pieces):
        raise fail("give a PUZZLE file, or --board ROWSxCOLS and --pieces LETTERS")
    with bad_input():
        return read_katamino(path) if path is not None else shorthand(board or "", pieces or "")


def grid_text(grid: Grid) -> Text:
    """The letter grid, each piece on its colour."""
    text = Text()
    for r, row in enumerate(grid):
        if r:
            text.append("\n")
        for ch in row:
            style = "dim" if ch == BLOCKED else f"bold white on {PIECE_COLOURS[ch]}"
            text.append(f"{ch} ", style=style)
    return text


def _print(result: KataminoResult, all_solutions: bool) -> None:
    p = result.puzzle
    out.print(f"{p.name or 'katamino'}: {p.describe()}", markup=False)
    shown = result.solutions if all_solutions else result.solutions[:1]
    for k, grid in enumerate(shown, start=1):
        if all_solutions:
            out.print(f"solution {k}", markup=False)
        out.print(grid_text(grid))
    if result.count is not None:
        exact = "" if result.complete else "at least "
        out.print(f"{exact}{result.count} solutions, {exact}{result.distinct} up to the board's "
                  f"{result.symmetries} symmetries", markup=False)
    colour = {Status.SOLVED: "green", Status.IMPOSSIBLE: "red", Status.UNKNOWN: "yellow"}[result.status]
    out.print(Text(f"{result.status.value}: {result.reason}", style=f"bold {colour}"))
    out.print(f"total {result.seconds:.3f} s, engine {result.engine}", markup=False)


@app.command("katamino")
def katamino_cmd(
    puzzle_path: Annotated[Path | None, typer.Argument(
        metavar="PUZZLE", show_default=False, help='Puzzle JSON {"rows", "cols", "pieces", "blocked"}.')] = None,
    board: Annotated[str | None, typer.Option("--board", help="Board size ROWSxCOLS, e.g. 5x6.")] = None,
    pieces: Annotated[str | None, typer.Option("--pieces", help="Piece letters (FILNPTUVWXYZ), e.g. LPUVYN.")] = None,
    all_solutions: Annotated[bool, typer.Option("--all", help="Print every solution.")] = False,
    count: Annotated[bool, typer.Option("--count", help="Count the solutions, also up to the board's "
                                        "symmetries.")] = False,
    engine: Annotated[KataminoEngine, typer.Option("--engine", help="cpsat (the exact-cover model) or dlx "
                                                   "(Algorithm X).")] = KataminoEngine.cpsat,
    time_limit: TimeLimit = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Write the (first) solution as SVG.")] = None,
    png: Annotated[Path | None, typer.Option("--png", help="Write the (first) solution as PNG.")] = None,
    as_json: JsonOpt = False,
    force: ForceOpt = False,
) -> None:
    """Pack distinct pentominoes exactly into a board, or prove it impossible; --count counts the ways."""
    puzzle = _puzzle(puzzle_path, board, pieces)
    pictures = [(p, kind) for p, kind in ((svg, "svg"), (png, "png")) if p is not None]
    with bad_input():
        for path, kind in pictures:
            if picture_kind(path) != kind:
                raise fail(f"{path}: --{kind} needs a .{kind} file name")
        check_writable([p for p, _ in pictures], force=force)
    with bad_input(), spinner(not as_json) as progress:
        if progress:
            progress(f"{puzzle.name or 'katamino'}: {'counting' if count or all_solutions else 'solving'}")
        result = solve_katamino(puzzle, engine=engine.value, count=count, all_solutions=all_solutions,
                                time_limit=time_limit)
    if as_json:
        out.print_json(json.dumps(result.to_dict()))
    else:
        _print(result, all_solutions)
    if result.solutions and pictures:
        with bad_input():
            for path, _ in pictures:
                write_solution_picture(path, result.solutions[0], force=force)
        (err if as_json else out).print(f"wrote {', '.join(str(p) for p, _ in pictures)}", markup=False)
    raise typer.Exit({Status.SOLVED: EXIT_OK, Status.IMPOSSIBLE: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN))
