"""The kamicp command line: a thin layer over the library that prints and picks exit codes.

Exit codes: 0 success (solved, proven, par correct); 1 the answer is negative (no solution within N,
a shorter solution exists, par wrong); 2 bad input; 3 time limit reached without an answer.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kamicp.errors import KamiError
from kamicp.formats import load_level, write_json
from kamicp.level import Level
from kamicp.official import LevelSummary, summarize
from kamicp.render.files import check_steps_dir, check_writable, write_picture, write_steps
from kamicp.render.terminal import board_view, legend, swatch
from kamicp.rules import replay
from kamicp.solver import NO_SOLUTION, OPTIMAL, TECHNIQUES, Result, options_without, prove_under, solve, validate

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Solve Kami-style flood puzzles provably optimally. "
    "Exit codes: 0 success, 1 negative answer, 2 bad input, 3 time limit without an answer.",
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


class Engine(StrEnum):
    cpsat = "cpsat"
    search = "search"
    auto = "auto"


class Geometry(StrEnum):
    triangle = "triangle"
    square = "square"


LevelArg = Annotated[Path, typer.Argument(metavar="LEVEL", help="Level file (.json, .puz, .xml, or a text grid "
                                          "with --geometry).",
                                          show_default=False)]
MaxSteps = Annotated[int | None, typer.Option("--max-steps", min=0, help="Look for solutions of at most N moves.")]
TimeLimit = Annotated[float | None, typer.Option("--time-limit", min=0.001,
                                                 help="Seconds for the whole command; then 'unknown'.")]
Workers = Annotated[int | None, typer.Option("--workers", min=1, help="CP-SAT worker threads.")]
EngineOpt = Annotated[Engine, typer.Option("--engine", help="cpsat (the model), search (IDA*) or auto (both race, "
                                           "first proof wins).")]
NoOpt = Annotated[list[str] | None, typer.Option("--no", metavar="TECHNIQUE", help="Switch a proof technique off "
                                                 f"(repeatable): {', '.join(TECHNIQUES)}.")]
Seed = Annotated[int, typer.Option("--seed", help="Random seed passed to CP-SAT.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
FormatOpt = Annotated[str | None, typer.Option("--format", help="Level format (json, text, puz, xml); "
                                                "default: by extension.")]
GeometryOpt = Annotated[Geometry | None, typer.Option("--geometry", help="Geometry of a text grid.")]
StepsDirOpt = Annotated[Path | None, typer.Option("--steps-dir", help="Write one SVG and PNG per move "
                                                  "(step-01.svg, ...) and strip.svg/.png into DIR.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    err.print(f"error: {message}", markup=False, soft_wrap=True)
    return typer.Exit(code)


@contextmanager
def bad_input():
    """Turn every KamiError into a one-line message and exit code 2."""
    try:
        yield
    except KamiError as e:
        raise fail(str(e)) from None


def _load(path: Path, fmt: str | None, geometry: Geometry | None) -> Level:
    with bad_input():
        return load_level(path, fmt, geometry.value if geometry else None)


@contextmanager
def _progress(enabled: bool):
    """A spinner on stderr naming the horizon being solved (only on a terminal)."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with err.status("solving") as status:
        yield lambda msg: status.update(msg)


def _moves_table(level: Level, result: Result) -> Table:
    table = Table(title=f"{len(result.moves)} moves", title_justify="left", show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("tap" if level.geometry == "graph" else "tap (row, col)")
    table.add_column("colour")
    for k, move in enumerate(result.moves, start=1):
        table.add_row(str(k), level.format_label(move.cell), swatch(level, move.color))
    return table


def _proof_table(result: Result) -> Table:
    table = Table(title="proof", title_justify="left", show_edge=False)
    table.add_column("moves", justify="right")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    table.add_column("by")
    words = {"infeasible": "impossible (proven)", "feasible": "solved", "unknown": "unknown (time limit)"}
    rows = result.proof_by_horizon()
    for i, h in enumerate(rows):
        if h.outcome == "implied":
            if i + 1 < len(rows) and rows[i + 1].outcome == "implied":
                continue  # one row for a run of implied horizons, at its top
            low = i
            while low > 0 and rows[low - 1].outcome == "implied":
                low -= 1
            span = str(h.steps) if low == i else f"{rows[low].steps}-{h.steps}"
            table.add_row(span, f"impossible: implied by {h.steps + 1} (a solved board stays solved by one "
                          "more move)", "-", h.engine)
        elif h.outcome == "bound":
            b = result.bound
            ring = " + 1 by the ring rule" if b.ring else ""
            table.add_row(f"≤ {h.steps}", f"impossible: lower bound {b.value} (radius {b.radius}{ring}, "
                          f"{b.colors} colours needing {b.colour_part} moves, "
                          f"{b.islands} island{'s' if b.islands > 1 else ''})", "-", "bound")
        else:
            table.add_row(str(h.steps), words[h.outcome], f"{h.seconds:.3f}", h.engine)
    return table


def _summary(result: Result) -> str:
    if result.status == OPTIMAL:
        n = len(result.moves)
        why = "shorter ones are proven impossible" if n else "the board is already one colour"
        return f"optimal: {n} moves ({why})"
    if result.status == NO_SOLUTION:
        tail = f"; the best solution found has {result.upper_bound} moves" if result.upper_bound else ""
        return f"no solution within {result.max_steps} moves (proven){tail}"
    best = f", best solution found {result.upper_bound} moves" if result.upper_bound is not None else ""
    return f"unknown: time limit reached; optimum is at least {result.lower_bound}{best}"


def _print_result(level: Level, result: Result, *, show_moves: bool = True) -> None:
    out.print(f"[bold]{level.name or 'level'}[/]: {result.regions} regions, {result.colors} colours, "
              f"lower bound {result.bound.value}")
    if result.moves and show_moves:
        out.print(_moves_table(level, result))
    out.print(_proof_table(result))
    out.print(f"[bold]{_summary(result)}[/]")
    out.print(f"total {result.seconds:.3f} s, engine {result.engine}")


def _exit_for(result: Result) -> int:
    return {OPTIMAL: EXIT_OK, NO_SOLUTION: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)


@app.command("solve")
def solve_cmd(
    level_path: LevelArg,
    max_steps: MaxSteps = None,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    engine: EngineOpt = Engine.auto,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    steps_dir: StepsDirOpt = None,
    force: ForceOpt = False,
    no: NoOpt = None,
) -> None:
    """Print a shortest solution (taps and colours) with the proof that nothing shorter exists."""
    level = _load(level_path, fmt, geometry)
    if steps_dir is not None:
        with bad_input():
            check_steps_dir(steps_dir, force=force)
    with bad_input(), _progress(not as_json) as progress:
        result = solve(level, max_steps=max_steps, time_limit=time_limit, workers=workers,
                       engine=engine.value, seed=seed, progress=progress, options=options_without(no or []))
    if as_json:
        out.print_json(json.dumps(result.to_dict(level)))
    else:
        # A solution over --max-steps is only shown as a count, not as the answer.
        _print_result(level, result, show_moves=result.status != NO_SOLUTION)
    if steps_dir is not None and result.status != NO_SOLUTION and (result.moves or result.status == OPTIMAL):
        with bad_input():
            written = write_steps(steps_dir, level, result.moves, force=force)
        (err if as_json else out).print(f"wrote {len(written)} pictures to {steps_dir}", markup=False)
    raise typer.Exit(_exit_for(result))


@app.command("prove")
def prove_cmd(
    level_path: LevelArg,
    under: Annotated[int, typer.Option("--under", min=1, help="Prove no solution has fewer than N moves.")],
    time_limit: TimeLimit = None,
    workers: Workers = None,
    engine: EngineOpt = Engine.auto,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Prove that LEVEL has no solution with fewer than N moves, or show one that has."""
    level = _load(level_path, fmt, geometry)
    with bad_input(), _progress(not as_json) as progress:
        result = prove_under(level, under, time_limit=time_limit, workers=workers, engine=engine.value,
                             seed=seed, progress=progress)
    if as_json:
        data = result.to_dict(level)
        data["under"] = under
        data["proven"] = result.status == NO_SOLUTION
        out.print_json(json.dumps(data))
    elif result.status == NO_SOLUTION:
        _print_result(level, result, show_moves=False)
        out.print(f"[bold green]proven: no solution with fewer than {under} moves[/]")
    elif result.status == OPTIMAL:
        _print_result(level, result)
        out.print(f"[bold red]not proven: this solution has {len(result.moves)} moves, fewer than {under}[/]")
    else:
        _print_result(level, result, show_moves=False)
    code = {NO_SOLUTION: EXIT_OK, OPTIMAL: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)
    raise typer.Exit(code)


VERDICT_TEXT = {
    "correct": "correct (achievable, minimal)",
    "not-minimal": "not minimal: shorter exists",
    "unachievable": "not achievable",
    "unknown": "unknown (time limit)",
}


@app.command("validate")
def validate_cmd(
    level_paths: Annotated[list[Path], typer.Argument(help="One or more level files.", show_default=False)],
    par: Annotated[int | None, typer.Option("--par", min=0, help="Par to check (default: the file's).")] = None,
    slack: Annotated[int, typer.Option("--slack", min=0, help="Search up to par + K moves to say how far off.")] = 2,
    time_limit: Annotated[float | None, typer.Option("--time-limit", min=0.001, help="Seconds per level.")] = None,
    workers: Workers = None,
    engine: EngineOpt = Engine.auto,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Check each level's par: achievable, minimal, or how far off (a table for several files)."""
    levels = []
    problems = []
    for path in level_paths:
        try:
            level = load_level(path, fmt, geometry.value if geometry else None)
        except KamiError as e:
            problems.append(str(e))
            continue
        if par is None and level.par is None:
            problems.append(f"{path}: no par in the file (give --par)")
        levels.append(level)
    if problems:
        for p in problems:
            err.print(f"error: {p}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    checks = []
    with bad_input(), _progress(not as_json) as progress:
        for level in levels:
            if progress:
                progress(f"{level.name}: solving")
            checks.append(validate(level, par, slack=slack, time_limit=time_limit, workers=workers,
                                   engine=engine.value, seed=seed))
    if as_json:
        out.print_json(json.dumps([
            {"level": c.level, "par": c.par, "verdict": c.verdict, "optimum": c.optimum,
             "result": c.result.to_dict(level)} for c, level in zip(checks, levels, strict=True)]))
    else:
        table = Table(show_edge=False)
        for col in ("level", "par", "optimum", "bounds", "verdict", "seconds"):
            table.add_column(col, justify="right" if col in ("par", "optimum", "seconds") else "left")
        for c in checks:
            r = c.result
            opt = str(c.optimum) if c.optimum is not None else "?"
            if r.status == NO_SOLUTION:
                opt = f"> {r.max_steps}"
            upper = "" if r.upper_bound is None else str(r.upper_bound)
            style = {"correct": "green", "unknown": "yellow"}.get(c.verdict, "red")
            verdict = Text(VERDICT_TEXT[c.verdict], style=style)
            table.add_row(c.level, str(c.par), opt, f"{r.lower_bound}..{upper}", verdict, f"{r.seconds:.2f}")
        out.print(table)
    if any(c.verdict == "unknown" for c in checks):
        raise typer.Exit(EXIT_UNKNOWN)
    raise typer.Exit(EXIT_OK if all(c.verdict == "correct" for c in checks) else EXIT_NEGATIVE)


@app.command("show")
def show_cmd(
    level_path: LevelArg,
    solution: Annotated[bool, typer.Option("--solution", help="Solve, then show the board after each move.")] = False,
    time_limit: TimeLimit = None,
    engine: EngineOpt = Engine.auto,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    svg_path: Annotated[Path | None, typer.Option("--svg", help="Also write the picture (with --solution: "
                                                  "the strip of all steps) as SVG.")] = None,
    png_path: Annotated[Path | None, typer.Option("--png", help="Also write the picture as PNG.")] = None,
    force: ForceOpt = False,
) -> None:
    """Draw the board in the terminal in its colours (and, with --solution, every step)."""
    level = _load(level_path, fmt, geometry)
    pictures = [(p, kind) for p, kind in ((svg_path, "svg"), (png_path, "png")) if p is not None]
    with bad_input():
        check_writable([p for p, _ in pictures], force=force)
    title = f"{level.name or 'level'} ({level.geometry}, {level.size} cells"
    title += f", par {level.par})" if level.par is not None else ")"
    out.print(f"[bold]{title}[/]")
    out.print(legend(level))
    boards = replay(level, [])
    if not solution:
        out.print(board_view(boards[0], plain=out.color_system is None))
        for path, kind in pictures:
            with bad_input():
                out.print(f"wrote {write_picture(path, level, kind=kind, force=force)}", markup=False)
        raise typer.Exit(EXIT_OK)
    with bad_input(), _progress(True) as progress:
        result = solve(level, time_limit=time_limit, engine=engine.value, progress=progress)
    boards = replay(level, result.moves)
    out.print("start")
    out.print(board_view(boards[0], plain=out.color_system is None))
    for k, (move, board) in enumerate(zip(result.moves, boards[1:], strict=True), start=1):
        line = Text(f"move {k}: tap {level.format_label(move.cell)} → ")
        line.append_text(swatch(level, move.color))
        out.print(line)
        out.print(board_view(board, mark=move.cell, plain=out.color_system is None))
    out.print(f"[bold]{_summary(result)}[/]")
    for path, kind in pictures:
        if not result.moves and result.status != OPTIMAL:
            err.print(f"no solution found: {path} not written", markup=False)
            continue
        with bad_input():
            out.print(f"wrote {write_picture(path, level, result.moves, kind=kind, force=force)}", markup=False)
    raise typer.Exit(_exit_for(result))


def _level_facts(level: Level, facts: LevelSummary) -> list[tuple[str, Text]]:
    """(label, value) rows describing a level: what `info` and `convert` print."""
    shape = ""
    if facts.shape:
        shape = f", {facts.shape[0]} rows x {facts.shape[1]} columns"
    colours = Text(f"{len(facts.colors)}: ")
    for k, key in enumerate(facts.colors):
        colours.append_text(Text("  ") if k else Text()).append_text(swatch(level, key))
    medals = ", ".join(f"{name} {n}" for name, n in facts.medals) or "none"
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
        rows.append(("official", Text(report.describe(), style=style)))
        taps = Text()
        for k, move in enumerate(report.moves, start=1):
            where = level.format_label(move.cell) if 0 <= move.cell < level.size else f"cell {move.cell}"
            taps.append(f"{k}. tap {where} → ")
            taps.append_text(swatch(level, move.color))
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
    level = _load(level_path, fmt, geometry)
    facts = summarize(level)
    # an official solution that does not replay is a negative answer about the file (exit 1), not bad input
    code = EXIT_NEGATIVE if facts.official is not None and not facts.official.valid else EXIT_OK
    if as_json:
        out.print_json(json.dumps(facts.to_dict(level)))
        raise typer.Exit(code)
    out.print(f"[bold]{level.name or level_path.stem}[/] ({level_path})", soft_wrap=True)
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
    level = _load(level_path, fmt, geometry)
    with bad_input():
        write_json(level, output, overwrite=force)
    out.print(f"converted {level_path} → {output}", markup=False, soft_wrap=True)
    out.print(_facts_table(level, summarize(level)))
    raise typer.Exit(EXIT_OK)


@app.command("import")
def import_cmd(
    shot_path: Annotated[Path, typer.Argument(metavar="SHOT", show_default=False,
                                              help="Screenshot of a board (PNG, JPEG, ...).")],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="OUT.json", show_default=False,
                                         help="Where to write the kamicp JSON level.")],
    geometry: Annotated[Geometry, typer.Option("--geometry", help="triangle (Kami 2) or square (Kami 1).")
                        ] = Geometry.triangle,
    rows: Annotated[int | None, typer.Option("--rows", min=1, help="Rows (default: 29 triangles, 10 squares).")
                    ] = None,
    cols: Annotated[int | None, typer.Option("--cols", min=1, help="Columns (default: 10 triangles, 16 squares).")
                    ] = None,
    box: Annotated[str | None, typer.Option("--box", metavar="L,T,R,B", help="The board's pixel box, when it "
                                            "does not sit on a uniform margin (e.g. a game's buttons below).")
                   ] = None,
    force: ForceOpt = False,
) -> None:
    """Read a level from a screenshot: find the board, sample every cell, cluster the colours, write
    the level, and print what was seen (check the uncertain cells)."""
    if output.suffix.lower() != ".json":
        raise fail(f"{output}: the output is kamicp JSON: name it *.json")
    try:
        from kamicp.formats.screenshot import parse_box, read_screenshot
    except ImportError:  # pragma: no cover - Pillow missing
        raise fail("screenshot import needs Pillow (pip install pillow)") from None
    with bad_input():
        shot = read_screenshot(shot_path, geometry.value, rows, cols, box=parse_box(box) if box else None)
        write_json(shot.level, output, overwrite=force)
    rep = shot.report
    (left, top, right, bottom), (w, h) = rep.box, rep.image_size
    out.print(f"{shot_path}: board at ({left}, {top})-({right}, {bottom}) of {w} x {h} pixels", markup=False,
              soft_wrap=True)
    cells = rep.shape[0] * rep.shape[1] - rep.holes
    out.print(f"{rep.geometry}, {rep.shape[0]} x {rep.shape[1]}: {cells} cells, {rep.holes} holes", markup=False)
    counts = dict(rep.counts)
    colours = Text(f"{rep.colors} colours: ")
    for k, (key, hexcode) in enumerate(rep.palette):
        colours.append_text(Text("   " if k else "")).append_text(swatch(shot.level, key))
        colours.append(f" {hexcode} ({counts[key]} cells)")
    out.print(colours)
    if rep.uncertain:
        out.print(f"[bold yellow]{len(rep.uncertain)} uncertain cells[/] (check them against the screenshot):")
        for u in rep.uncertain:
            out.print(f"  ({u.label[0]}, {u.label[1]}) {u.key}: {u.reason} (ΔE {u.delta_e:g})", markup=False)
    else:
        out.print("no uncertain cells")
    for note in rep.warnings:
        err.print(f"warning: {note}", markup=False, soft_wrap=True)
    out.print(f"wrote {output}", markup=False)
    raise typer.Exit(EXIT_OK)


def main() -> None:  # pragma: no cover - entry point
    app()
