"""The katamino command: pack pentominoes into a rectangle, prove it impossible, or count the ways; or
solve every puzzle of a book of challenges (the game's lines) with a table and pictures."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, fail, out, plural, print_json, spinner
from kamicp.cli.exits import EXIT_INTERRUPTED, EXIT_NEGATIVE, EXIT_OK, EXIT_UNKNOWN
from kamicp.cli.options import ForceOpt, JsonOpt, TimeLimit
from kamicp.cli.signals import interruptible
from kamicp.katamino import KataminoResult, KataminoStatus, Puzzle, Rule, shorthand, solve_katamino
from kamicp.katamino.book import Book, solve_book
from kamicp.katamino.files import SAMPLER, bundled_book, read_katamino_file
from kamicp.katamino.picture import check_line_files, outline_text, write_line_pictures, write_solution_picture
from kamicp.render.files import check_writable, picture_kind
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import signal_of

STATUS_STYLE = {KataminoStatus.SOLVED: "green", KataminoStatus.IMPOSSIBLE: "red", KataminoStatus.UNKNOWN: "yellow"}
MARK = {KataminoStatus.SOLVED: "✓", KataminoStatus.IMPOSSIBLE: "✗", KataminoStatus.UNKNOWN: "?"}


class KataminoEngineChoice(StrEnum):
    """The katamino command's --engine choices (kamicp.katamino.solver's KATAMINO_ENGINES and AUTO)."""

    AUTO = "auto"
    FAST = "fast"
    CPSAT = "cpsat"
    DLX = "dlx"


def _bundled_if_named(path: Path) -> Path:
    """`sampler`, when no file has that name: the example book kamicp ships (from any folder)."""
    if str(path) == SAMPLER and not path.exists():
        book = bundled_book()
        if book is None:
            raise fail("the example book is not installed with this copy of kamicp")
        return book
    return path


def _source(path: Path | None, board: str | None, pieces: str | None, rule: Rule) -> Puzzle | Book:
    if path is not None and (board or pieces):
        raise fail("give a PUZZLE or BOOK file, or --board with --pieces, not both")
    if path is None and not (board and pieces):
        raise fail("give a PUZZLE or BOOK file, or --board ROWSxCOLS and --pieces LETTERS")
    with bad_input():
        if path is None:
            return shorthand(board or "", pieces or "", rule)
        found = read_katamino_file(_bundled_if_named(path))
    if rule is Rule.FREE:
        return found.with_rule(rule) if isinstance(found, Book) else replace(found, rule=rule)
    return found


def _deadline(time_limit: float | None) -> Deadline:
    """When the command's time limit ends (it counts from here: the solve and the printing share it)."""
    with bad_input():
        return Deadline.after(time_limit)


def _print(result: KataminoResult, all_solutions: bool, deadline: Deadline = NEVER,
           printed: list[int] | None = None) -> int:
    """Print the result; with --all every solution until the deadline, counted in `printed` as they go (an
    interrupt then says how many). Returns how many were printed."""
    p = result.puzzle
    printed = [0] if printed is None else printed
    out.print(f"{p.name or 'katamino'}: {p.describe()}", markup=False)
    shown = result.solutions if all_solutions else result.solutions[:1]
    for k, grid in enumerate(shown, start=1):
        if all_solutions and deadline.expired():  # (drawing 9,356 solutions took 40 s past a 1 s limit)
            break
        if all_solutions:
            out.print(f"solution {k}", markup=False)
        out.print(outline_text(grid))
        printed[0] += 1
    if result.count is not None:
        exact = "" if result.complete else "at least "
        out.print(f"{exact}{plural(result.count, 'solution')}, {exact}{result.distinct} up to the board's "
                  f"{result.symmetries} symmetries", markup=False)
    out.print(Text(f"{result.status.value}: {result.reason}", style=f"bold {STATUS_STYLE[result.status]}"))
    out.print(f"total {result.seconds:.3f} s, engine {result.engine}", markup=False)
    return printed[0]


def _exit_code(status: KataminoStatus) -> int:
    return {KataminoStatus.SOLVED: EXIT_OK, KataminoStatus.IMPOSSIBLE: EXIT_NEGATIVE}.get(status, EXIT_UNKNOWN)


def _one_puzzle(puzzle: Puzzle, engine: str, count: bool, all_solutions: bool, time_limit: float | None,
                svg: Path | None, png: Path | None, as_json: bool, force: bool) -> int:
    deadline = _deadline(time_limit)
    pictures = [(p, kind) for p, kind in ((svg, "svg"), (png, "png")) if p is not None]
    with bad_input():
        for path, kind in pictures:
            if picture_kind(path) != kind:
                raise fail(f"{path}: --{kind} needs a .{kind} file name")
        check_writable([p for p, _ in pictures], force=force)
    try:
        with bad_input(), spinner(not as_json) as progress:
            if progress:
                progress(f"{puzzle.name or 'katamino'}: {'counting' if count or all_solutions else 'solving'}")
            result = solve_katamino(puzzle, engine=engine, count=count, all_solutions=all_solutions,
                                    deadline=deadline.within(None))  # (its own clock times the solve)
    except KeyboardInterrupt as e:
        so_far = " (the count so far is kept only under --time-limit)" if count else ""
        err.print(f"interrupted: {puzzle.name or 'katamino'} not decided{so_far}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_INTERRUPTED[signal_of(e)]) from None
    if as_json:
        print_json(result.to_dict())
    else:
        printed = [0]
        try:
            _print(result, all_solutions, deadline, printed)
        except KeyboardInterrupt as e:  # (the generic line said 'no solution' after 1,698 were printed)
            err.print(f"interrupted: {printed[0]} of the {len(result.solutions)} solutions printed", markup=False)
            raise typer.Exit(EXIT_INTERRUPTED[signal_of(e)]) from None
        if all_solutions and printed[0] < len(result.solutions):
            err.print(f"time limit: {printed[0]} of the {len(result.solutions)} solutions printed", markup=False)
            return EXIT_UNKNOWN
    if result.solutions and pictures:
        with bad_input():
            for path, _ in pictures:
                write_solution_picture(path, result.solutions[0], caption=f"{puzzle.name}: {puzzle.describe()}",
                                       force=force)
        (err if as_json else out).print(f"wrote {', '.join(str(p) for p, _ in pictures)}", markup=False)
    return _exit_code(result.status)


# --- books ---------------------------------------------------------------------------------------------
def _cell(result: KataminoResult | None, count: bool) -> Text:
    if result is None:
        return Text("")
    style = STATUS_STYLE[result.status]
    if count and result.distinct is not None:
        text = f"{result.distinct}" if result.complete else f">={result.distinct}"
        return Text(text, style=style)
    return Text(MARK[result.status], style=style)


def book_table(book: Book, results: dict[int, list[KataminoResult]], count: bool) -> Group:
    """One row per challenge, one column per width: solved, impossible, unknown (or the counts); a title
    line above and a key below."""
    widths = sorted({w for c in book.challenges for w in c.widths})
    what = "solutions up to the board's symmetries" if count else "✓ solved  ✗ proven impossible  ? unknown"
    rule = "the I lies lengthwise" if all(c.rule is Rule.KATAMINO for c in book.challenges) else "free packing"
    table = Table()
    table.add_column("line", overflow="fold")
    table.add_column("pieces")
    for w in widths:
        table.add_column(str(w), justify="right")
    for k, challenge in enumerate(book.challenges):
        if k not in results:
            continue
        by_width = {r.puzzle.cols: r for r in results[k]}
        table.add_row(Text(challenge.name), challenge.pieces, *(_cell(by_width.get(w), count) for w in widths))
    return Group(Text(f"{book.name or 'book'}: 5 x w boards, {rule}", style="bold"), table, Text(what))


def _line_picture(book: Book, k: int, results: list[KataminoResult]) -> Group:
    challenge = book.challenges[k]
    panels = []
    notes = []
    for r in results:
        caption = f"5x{r.puzzle.cols} {r.puzzle.pieces}"
        if r.solutions:
            panels.append(Group(Text(caption, style="bold"), outline_text(r.solutions[0])))
        else:
            notes.append(Text(f"{caption} {r.status.value}: {r.reason}", style=STATUS_STYLE[r.status]))
    head = Text(f"{challenge.name}  {challenge.pieces}  from width {challenge.start}", style="bold underline")
    return Group(head, Columns(panels, padding=(1, 3)), *notes)


def _panels(results: list[KataminoResult]) -> list[tuple[str, tuple[str, ...], bool]]:
    out_panels = []
    for r in results:
        p = r.puzzle
        grid = r.solutions[0] if r.solutions else tuple("o" * p.cols for _ in range(p.rows))
        label = f"5 x {p.cols}: {p.pieces}" + ("" if r.solutions else f" ({r.status.value})")
        out_panels.append((label, grid, bool(r.solutions)))
    return out_panels


def _book_json(book: Book, results: dict[int, list[KataminoResult]], finished: bool) -> dict:
    return {"book": book.name, "complete": finished, "challenges": [
        {"name": c.name, "pieces": c.pieces, "start": c.start, "rule": c.rule.value,
         "puzzles": [r.to_dict() for r in results.get(k, [])]}
        for k, c in enumerate(book.challenges) if k in results]}


def _solve_book(book: Book, engine: str, count: bool, time_limit: float | None, as_json: bool,
                draw: bool, pictures: Path | None, force: bool) -> int:
    if pictures is not None:
        with bad_input():
            check_line_files(pictures, [c.name for c in book.challenges], force=force)
    deadline = _deadline(time_limit)
    results: dict[int, list[KataminoResult]] = {}
    done = 0
    try:
        with bad_input(), spinner(not as_json) as progress:
            for k, result in solve_book(book, engine=engine, count=count, deadline=deadline):
                results.setdefault(k, []).append(result)
                done += 1
                if progress:
                    progress(f"{book.challenges[k].name}: 5 x {result.puzzle.cols} ({done}/{book.size} puzzles)")
    except KeyboardInterrupt as e:
        signum = signal_of(e)
        _report_book(book, results, count, as_json, draw=False, finished=False)
        err.print(f"interrupted: {done} of {book.size} puzzles solved (the table above)", markup=False)
        raise typer.Exit(EXIT_INTERRUPTED[signum]) from None
    puzzles = book.size
    _report_book(book, results, count, as_json, draw, finished=done == puzzles, deadline=deadline)
    if done < puzzles:  # (the time limit ended the book: the puzzles not reached are not decided)
        err.print(f"time limit: {done} of {puzzles} puzzles solved (the table above)", markup=False)
    if pictures is not None:
        with bad_input():
            written = write_line_pictures(pictures, [(book.challenges[k].name, _panels(rs))
                                                     for k, rs in sorted(results.items())], force=force)
        (err if as_json else out).print(f"wrote {len(written)} pictures into {pictures}", markup=False)
    statuses = [r.status for rs in results.values() for r in rs]
    return EXIT_UNKNOWN if KataminoStatus.UNKNOWN in statuses or done < puzzles else EXIT_OK


def _report_book(book: Book, results: dict[int, list[KataminoResult]], count: bool, as_json: bool, draw: bool,
                 finished: bool, deadline: Deadline = NEVER) -> None:
    if as_json:
        print_json(_book_json(book, results, finished))
        return
    if draw:
        for drawn, k in enumerate(sorted(results)):
            if deadline.expired():  # (the time limit holds for the pictures too: the table still follows)
                err.print(f"time limit: pictures of {drawn} of {len(results)} lines drawn", markup=False)
                break
            out.print(_line_picture(book, k, results[k]))
            out.print()
    out.print(book_table(book, results, count))
    rs = [r for line in results.values() for r in line]
    tally = {s: sum(r.status is s for r in rs) for s in KataminoStatus}
    seconds = sum(r.seconds for r in rs)
    out.print(f"{plural(len(rs), 'puzzle')}: {tally[KataminoStatus.SOLVED]} solved, "
              f"{tally[KataminoStatus.IMPOSSIBLE]} proven impossible, {tally[KataminoStatus.UNKNOWN]} unknown; "
              f"{seconds:.2f} s, engine {rs[0].engine if rs else '-'}",
              markup=False)


@app.command("katamino")
def katamino_cmd(
    puzzle_path: Annotated[Path | None, typer.Argument(
        metavar="PUZZLE|BOOK", show_default=False,
        help='Puzzle JSON {"rows", "cols", "pieces", "blocked"}, or a book of challenges {"challenges": '
             '[{"pieces", "start"}, ...]}; `sampler`: the example book kamicp ships.')] = None,
    board: Annotated[str | None, typer.Option("--board", help="Board size ROWSxCOLS, e.g. 5x6.")] = None,
    pieces: Annotated[str | None, typer.Option("--pieces", help="Piece letters (FILNPTUVWXYZ), e.g. LPUVYN.")] = None,
    free: Annotated[bool, typer.Option("--free", help="Free pentomino packing: the I may lie either way "
                                       "(default: the game's rule, the I lies lengthwise).")] = False,
    all_solutions: Annotated[bool, typer.Option("--all", help="Print every solution (one puzzle).")] = False,
    count: Annotated[bool, typer.Option("--count", help="Count the solutions, also up to the board's "
                                        "symmetries (per puzzle of a book).")] = False,
    engine: Annotated[KataminoEngineChoice, typer.Option("--engine", help="auto (fast when the compiled core is "
                                                   "built), fast (bitboard search), cpsat (the exact-cover "
                                                   "model) or dlx (Algorithm X).")] = KataminoEngineChoice.AUTO,
    time_limit: TimeLimit = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Write the (first) solution as SVG.")] = None,
    png: Annotated[Path | None, typer.Option("--png", help="Write the (first) solution as PNG.")] = None,
    pictures: Annotated[Path | None, typer.Option("--pictures", metavar="DIR", help="Book: write one SVG and PNG per "
                                                  "challenge into DIR.")] = None,
    draw: Annotated[bool, typer.Option("--draw/--no-draw", help="Book: draw every solution, or only the "
                                       "table.")] = True,
    as_json: JsonOpt = False,
    force: ForceOpt = False,
) -> None:
    """Pack distinct pentominoes exactly into a board, or prove it impossible; --count counts the ways. A
    BOOK of challenges is solved puzzle by puzzle, with a table and pictures."""
    found = _source(puzzle_path, board, pieces, Rule.FREE if free else Rule.KATAMINO)
    with interruptible():
        if isinstance(found, Book):
            if all_solutions or svg or png:
                raise fail("--all, --svg and --png are for one puzzle; a book writes pictures with --pictures")
            code = _solve_book(found, engine.value, count, time_limit, as_json, draw, pictures, force)
        else:
            if pictures is not None:
                raise fail("--pictures is for a book; one puzzle's picture is written with --svg/--png")
            code = _one_puzzle(found, engine.value, count, all_solutions, time_limit, svg, png, as_json, force)
    raise typer.Exit(code)
