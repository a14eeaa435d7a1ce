"""The level commands: show, info, convert."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from kamicp.board.level import Level
from kamicp.board.rules import replay
from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, fail, out, plural, print_json, shown, spinner
from kamicp.cli.exits import EXIT_NEGATIVE, EXIT_OK
from kamicp.cli.options import (
    EngineChoice,
    EngineOpt,
    ForceOpt,
    FormatOpt,
    GeometryOpt,
    JsonOpt,
    LevelArg,
    TimeLimit,
    load,
)
from kamicp.cli.report import exit_for, summary
from kamicp.designer.official import LevelSummary, summarize
from kamicp.formats import write_json
from kamicp.prover.solver import OPTIMAL, solve
from kamicp.render.files import check_writable, write_picture
from kamicp.render.safe import printable
from kamicp.render.terminal import board_view, legend, mark_glyph, swatch


@app.command("show")
def show_cmd(
    level_path: LevelArg,
    solution: Annotated[bool, typer.Option("--solution", help="Solve, then show the board after each move.")] = False,
    time_limit: TimeLimit = None,
    engine: EngineOpt = EngineChoice.AUTO,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    svg_path: Annotated[Path | None, typer.Option("--svg", help="Also write the picture (with --solution: "
                                                  "the strip of all steps) as SVG.")] = None,
    png_path: Annotated[Path | None, typer.Option("--png", help="Also write the picture as PNG.")] = None,
    force: ForceOpt = False,
) -> None:
    """Draw the board in the terminal in its colours (and, with --solution, every step)."""
    level = load(level_path, fmt, geometry)
    pictures = [(p, kind) for p, kind in ((svg_path, "svg"), (png_path, "png")) if p is not None]
    with bad_input():
        check_writable([p for p, _ in pictures], force=force)
    title = f"{level.name or 'level'} ({level.geometry}, {level.size} cells"
    title += f", par {level.par})" if level.par is not None else ")"
    out.print(f"[bold]{shown(title)}[/]")
    out.print(legend(level))
    boards = replay(level, [])
    if not solution:
        out.print(board_view(boards[0], plain=out.color_system is None))
        for path, kind in pictures:
            with bad_input():
                out.print(f"wrote {printable(write_picture(path, level, kind=kind, force=force))}", markup=False)
        raise typer.Exit(EXIT_OK)
    with bad_input(), spinner(True) as progress:
        result = solve(level, time_limit=time_limit, engine=engine.value, progress=progress)
    boards = replay(level, result.moves)
    plain = out.color_system is None
    if result.moves:
        tapped = "node" if level.geometry == "graph" else "cell"
        out.print(f"(in each step, {mark_glyph(level, plain)} marks the {tapped} tapped)", markup=False)
    out.print("start")
    out.print(board_view(boards[0], plain=out.color_system is None))
    for k, (move, board) in enumerate(zip(result.moves, boards[1:], strict=True), start=1):
        line = Text(f"move {k}: tap {printable(level.format_label(move.cell))} → ")
        line.append_text(swatch(level, move.colour))
        out.print(line)
        out.print(board_view(board, mark=move.cell, plain=out.color_system is None))
    out.print(f"[bold]{summary(result)}[/]")
    for path, kind in pictures:
        if not result.moves and result.status != OPTIMAL:
            err.print(f"no solution found: {printable(path)} not written", markup=False)
            continue
        with bad_input():
            written = write_picture(path, level, result.moves, kind=kind, force=force)
            out.print(f"wrote {printable(written)}", markup=False)
    raise typer.Exit(exit_for(result))


SWATCHES = 40  # colours `info` shows as swatches; more are counted


def _level_facts(level: Level, facts: LevelSummary) -> list[tuple[str, Text]]:
    """(label, value) rows describing a level: what `info` and `convert` print."""
    shape = ""
    if facts.shape:
        shape = f", {plural(facts.shape[0], 'row')} x {plural(facts.shape[1], 'column')}"
    colours = Text(f"{len(facts.colours)}: ")
    for k, key in enumerate(facts.colours[:SWATCHES]):  # (a level may have 100,000 colours: a summary)
        colours.append_text(Text("  ") if k else Text()).append_text(swatch(level, key))
    if len(facts.colours) > SWATCHES:
        colours.append(f"  ... and {len(facts.colours) - SWATCHES} more")
    medals = printable(", ".join(f"{name} {n}" for name, n in facts.medals) or "none")
    rows = [
        ("geometry", Text(facts.geometry + shape)),
        ("cells", Text(str(facts.cells))),
        ("regions", Text(str(facts.regions))),
        ("colours", colours),
        ("par", Text("none" if facts.par is None else str(facts.par))),
        ("medals", Text(medals)),
    ]
    report = facts.official
    if report is None:
        rows.append(("official", Text("none")))
    else:
        style = "green" if report.valid and report.equals_par is not False else "red"
        rows.append(("official", Text(printable(report.describe()), style=style)))
        taps = Text()
        for k, move in enumerate(report.moves, start=1):
            where = printable(level.format_label(move.cell)) if 0 <= move.cell < level.size else f"cell {move.cell}"
            taps.append(f"{k}. tap {where} → ")
            taps.append_text(swatch(level, move.colour))
            taps.append("\n" if k < report.length else "")
        if report.moves:
            rows.append(("", taps))
    return rows


def _facts_table(level: Level, facts: LevelSummary) -> Table:
    table = Table(show_header=False, show_edge=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column()
    for label, value in _level_facts(level, facts):
        table.add_row(label, value)
    return table


@app.command("info")
def info_cmd(
    level_path: LevelArg,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Describe a level: geometry, cells, regions, colours, par, medals, and the official solution replayed
    (exit code 1 when it does not replay)."""
    level = load(level_path, fmt, geometry)
    facts = summarize(level)
    # an official solution that does not replay is a negative answer about the file (exit 1), not bad input
    code = EXIT_NEGATIVE if facts.official is not None and not facts.official.valid else EXIT_OK
    if as_json:
        print_json(facts.to_dict(level))
        raise typer.Exit(code)
    out.print(f"[bold]{shown(level.name or level_path.stem)}[/] ({shown(level_path)})", soft_wrap=True)
    out.print(_facts_table(level, facts))
    raise typer.Exit(code)


@app.command("convert")
def convert_cmd(
    level_path: Annotated[Path, typer.Argument(metavar="IN", show_default=False,
                                               help="Level file to convert (.puz, .xml, .json, or a text grid "
                                               "with --geometry).")],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="OUT.json", show_default=False,
                                         help="Where to write the kamicp JSON level.")],
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUT if it exists.")] = False,
) -> None:
    """Convert a level (e.g. a game's .puz or .xml file) to kamicp JSON, keeping par, medals and the
    official solution, and print what was converted."""
    if output.suffix.lower() != ".json":
        raise fail(f"{output}: the output is kamicp JSON: name it *.json")
    if not output.parent.is_dir():  # (before reading: a large screenshot or game file is not read in vain)
        raise fail(f"{output}: cannot write: the folder {output.parent} does not exist")
    level = load(level_path, fmt, geometry)
    with bad_input():
        write_json(level, output, overwrite=force)
    out.print(f"converted {printable(level_path)} → {printable(output)}", markup=False, soft_wrap=True)
    out.print(_facts_table(level, summarize(level)))
    raise typer.Exit(EXIT_OK)
