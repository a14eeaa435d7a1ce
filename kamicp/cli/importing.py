"""The screenshot import command: a level read from a picture of the board."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, fail, out, plural
from kamicp.cli.exits import EXIT_OK
from kamicp.cli.options import ForceOpt, Geometry
from kamicp.formats import write_json
from kamicp.render.files import check_writable
from kamicp.render.terminal import swatch

if TYPE_CHECKING:  # Pillow is needed only when the command runs
    from kamicp.formats.screenshot import ImportReport, Screenshot


@app.command("import")
def import_cmd(
    shot_path: Annotated[Path, typer.Argument(metavar="SHOT", show_default=False,
                                              help="Screenshot of a board (PNG, JPEG, ...).")],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="OUT.json", show_default=False,
                                         help="Where to write the kamicp JSON level.")],
    geometry: Annotated[Geometry | None, typer.Option("--geometry", help="triangle (Kami 2) or square (Kami 1); "
                                                      "default: a game screenshot's, else the board's shape.")
                        ] = None,
    rows: Annotated[int | None, typer.Option("--rows", min=1, help="Rows (default: 29 triangles, 10 squares).")
                    ] = None,
    cols: Annotated[int | None, typer.Option("--cols", min=1, help="Columns (default: 10 triangles, 16 squares).")
                    ] = None,
    box: Annotated[str | None, typer.Option("--box", metavar="L,T,R,B", help="The board's pixel box, when it "
                                            "does not sit on a uniform margin (other things around it).")
                   ] = None,
    overlay: Annotated[Path | None, typer.Option("--overlay", metavar="CHECK.png", help="Also draw the lattice "
                                                 "and each cell's key over the screenshot, to check by eye.")
                       ] = None,
    par: Annotated[int | None, typer.Option("--par", min=0, help="The level's par (moves allowed), when the "
                                            "screenshot does not show it readably.")] = None,
    force: ForceOpt = False,
) -> None:
    """Read a level from a screenshot (a Kami 2 game screenshot, or a board on a margin): find the board,
    read the palette and every cell, write the level, and print what was seen (check the uncertain
    cells; --overlay draws what was read)."""
    _check_output_names(output, overlay)
    shot = _import_screenshot(shot_path, output, geometry, rows, cols, box, overlay, par, force)
    _print_import(shot_path, shot, par)
    out.print(f"wrote {output}" + (f" and {overlay}" if overlay is not None else ""), markup=False)
    raise typer.Exit(EXIT_OK)


def _check_output_names(output: Path, overlay: Path | None) -> None:
    """The outputs are named for what they hold, checked before any reading so a typo costs nothing."""
    if output.suffix.lower() != ".json":
        raise fail(f"{output}: the output is kamicp JSON: name it *.json")
    if overlay is not None and overlay.suffix.lower() != ".png":
        raise fail(f"{overlay}: the overlay is a PNG picture: name it *.png")


def _import_screenshot(shot_path: Path, output: Path, geometry: Geometry | None, rows: int | None, cols: int | None,
                       box: str | None, overlay: Path | None, par: int | None, force: bool) -> Screenshot:
    """Read the screenshot and write the level (with --par, else the par seen in the picture, if any)
    and the overlay. Pillow is imported here, so that only this command needs it."""
    try:
        from kamicp.formats.screenshot import open_image, parse_box, read_screenshot
        from kamicp.render.overlay import write_overlay
    except ImportError:  # pragma: no cover - Pillow missing
        raise fail("screenshot import needs Pillow (pip install pillow)") from None
    with bad_input():
        check_writable([p for p in (output, overlay) if p is not None], force=force)
        shot = read_screenshot(shot_path, geometry.value if geometry else None, rows, cols,
                               box=parse_box(box) if box else None)
        rep = shot.report
        level = shot.level
        if par is not None or rep.par is not None:
            level = level.with_par(par if par is not None else rep.par)
        write_json(level, output, overwrite=force)
        if overlay is not None:
            write_overlay(overlay, open_image(shot_path), rep.box, rep.overlay_cells(), force=force)
    return shot


def _print_import(shot_path: Path, shot: Screenshot, par: int | None) -> None:
    """What the import saw, for the user to check against the picture: where the board is, its size,
    the colours, the uncertain cells, the par and any warnings."""
    rep = shot.report
    (left, top, right, bottom), (w, h) = rep.box, rep.image_size
    kind = "game screenshot" if rep.layout == "game" else "picture"
    out.print(f"{shot_path}: {kind}, board at ({left}, {top})-({right}, {bottom}) of {w} x {h} pixels",
              markup=False, soft_wrap=True)
    cells = rep.shape[0] * rep.shape[1] - rep.holes
    out.print(f"{rep.geometry}, {rep.shape[0]} x {rep.shape[1]}: {cells} cells, {rep.holes} holes", markup=False)
    _print_colours(shot)
    _print_uncertain(rep)
    _print_par(rep.par, rep.par_note, par)
    for note in rep.warnings:
        err.print(f"warning: {note}", markup=False, soft_wrap=True)


def _print_colours(shot: Screenshot) -> None:
    """The palette on one line, each colour as a swatch with its hex code and cell count."""
    rep = shot.report
    counts = dict(rep.counts)
    colours = Text(f"{plural(rep.colours, 'colour')}: ")
    for k, (key, hexcode) in enumerate(rep.palette):
        colours.append_text(Text("   " if k else "")).append_text(swatch(shot.level, key))
        colours.append(f" {hexcode} ({counts[key]} cells)")
    out.print(colours)


def _print_uncertain(rep: ImportReport) -> None:
    """The cells to check by eye and why, or that there are none (said, so silence is never ambiguous)."""
    if rep.uncertain:
        out.print(f"[bold yellow]{len(rep.uncertain)} uncertain cells[/] (check them against the screenshot):")
        for u in rep.uncertain:
            out.print(f"  ({u.label[0]}, {u.label[1]}) {u.key}: {u.reason} (ΔE {u.delta_e:g})", markup=False)
    else:
        out.print("no uncertain cells")




def _print_par(seen: int | None, note: str, given: int | None) -> None:
    """Where the level's par came from: --par, the picture (and how), or nowhere (said, never guessed)."""
    if given is not None:
        if seen is not None and seen != given:
            err.print(f"warning: the picture shows {seen} moves, --par says {given}: --par is used", markup=False)
        out.print(f"par {given} (--par)", markup=False)
    elif seen is not None:
        out.print(f"par {seen}, read from the footer ({note})", markup=False)
    else:
        out.print("par not known" + (f" ({note})" if note else "") + ": give it with --par", markup=False)
