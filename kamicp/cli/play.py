"""The playing commands: hint (the best next move from any position) and play (the level in a browser)."""

from __future__ import annotations

import signal
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from kamicp.board.level import Level, Move
from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, fail, out, plural, print_json
from kamicp.cli.exits import EXIT_OK, EXIT_UNKNOWN
from kamicp.cli.options import EngineChoice, EngineOpt, FormatOpt, GeometryOpt, JsonOpt, LevelArg, TimeLimit, load
from kamicp.cli.progress import following
from kamicp.designer.hint import Hint, HintStatus, hint, parse_moves
from kamicp.errors import KamiError, Terminated
from kamicp.prover.request import Budget
from kamicp.render.terminal import swatch
from kamicp.runtime.extras import missing_extra

FIRST_LEVEL = "tri-dawn.json"  # `kamicp play` without a level starts here (the bundled levels' first)
MovesOpt = Annotated[str, typer.Option("--moves", help="Moves played so far: the JSON `solve --json` prints, or "
                                       "'r,c:COLOUR;r,c:COLOUR' (graph levels: 'ID:COLOUR;ID:COLOUR').")]


def _print_hint(level: Level, h: Hint) -> None:
    if h.status is HintStatus.SOLVED:
        out.print(f"{level.name}: the board is solved, in {plural(h.played, 'move')}", markup=False)
        if h.par is not None:  # (over: nothing is "still possible" on a solved board)
            over = h.played - h.par
            out.print(f"par {h.par}: " + (f"made, {plural(-over, 'move')} under" if over < 0 else "made"
                                          if over == 0 else f"missed by {plural(over, 'move')}"))
        return
    elif h.move is None:
        out.print(f"{level.name}: no move found in time; at least {plural(h.lower_bound, 'more move')} needed",
                  markup=False)
    else:
        out.print(f"{level.name} after {plural(h.played, 'move')}: tap {level.format_label(h.move.cell)} → ", end="",
                  markup=False)
        out.print(swatch(level, h.move.colour))
        if h.remaining is not None:
            out.print(f"optimal: {plural(h.remaining, 'more move')} from here (shorter ones are proven impossible)")
        else:
            upper = "?" if h.upper_bound is None else str(h.upper_bound)
            out.print(f"unknown: {h.lower_bound}..{upper} more moves (the time limit cut the proof short; "
                      "this move starts the best solution found)")
    if h.par is not None:
        verdict = {True: "still possible", False: "no longer possible", None: "undecided (time limit)"}
        out.print(f"par {h.par}: {verdict[h.par_still_possible]}")


def _moves_option(level: Level, moves: str) -> tuple[Move, ...]:
    """The moves of --moves, or one line naming the option (the message alone said 'move 1: ...')."""
    try:
        return parse_moves(level, moves)
    except KamiError as e:
        raise fail(f"--moves: {e}") from None


@app.command("hint")
def hint_cmd(
    level_path: LevelArg,
    moves: MovesOpt = "",
    time_limit: TimeLimit = None,
    engine: EngineOpt = EngineChoice.AUTO,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Play MOVES, then give an optimal next move and the proven optimum from that position."""
    level = load(level_path, fmt, geometry)
    played = _moves_option(level, moves)
    with bad_input(), following(not as_json, None) as follow:
        live = follow.status is not None  # (the live line on a terminal only)
        answer = hint(level, played, budget=Budget.start(time_limit, engine=engine.value, watch=follow.watch if live
                                                         else None, progress=follow.progress if live else None))
    if as_json:
        print_json(answer.to_dict(level))
    else:
        _print_hint(level, answer)
    raise typer.Exit(EXIT_UNKNOWN if answer.status is HintStatus.UNKNOWN else EXIT_OK)


PlayLevelArg = Annotated[Path | None, typer.Argument(
    metavar="[LEVEL]", show_default=False,
    help="Level file (.json, .puz, .xml, a screenshot .png/.jpg, a Flood-It board named "
         "rows_cols_colours_index, FILE#K for board K of a pack file, or a text grid with --geometry); none: a "
         "bundled level (the page offers the "
         "others).")]


@app.command("play")
def play_cmd(
    level_path: PlayLevelArg = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port on 127.0.0.1 (0: a free one).")] = 0,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Only print the URL.")] = False,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.1, help="Seconds per hint or solve.")] = 20.0,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Play LEVEL in the browser: tap to paint, undo, restart, proven hints and the optimal solution."""
    try:
        from kamicp.play.server import bundled_levels, create_app
        from kamicp.play.serving import bind, port_of, serve
    except ImportError:
        raise fail(str(missing_extra("play", "play"))) from None
    library = bundled_levels()
    if level_path is None:
        if not library:
            raise fail("give a LEVEL file (no bundled levels were found beside this installation)")
        level_path = next((p for p in library if p.name == FIRST_LEVEL), library[0])
    level = load(level_path, fmt, geometry)
    with bad_input():
        sock = bind(port)

    def ready(url: str) -> None:
        out.print(f"playing {level.name or level_path} at {url}  (Ctrl-C stops)", markup=False)
        if not no_browser:
            webbrowser.open(url)

    previous = signal.signal(signal.SIGTERM, _terminated)  # (uvicorn passes SIGTERM on as it does Ctrl-C)
    try:
        serve(create_app(level, time_limit=time_limit, library=library, port=port_of(sock)), sock, ready)
    except KeyboardInterrupt:  # uvicorn has shut down cleanly and passes the signal on: that is how play ends
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
    err.print("stopped")


def _terminated(_signum: int, _frame: object) -> None:
    raise Terminated
