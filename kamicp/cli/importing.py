"""The screenshot import command: a level read from a picture of the board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from kamicp.cli.common import EXIT_OK, ForceOpt, Geometry, app, bad_input, err, fail, out
from kamicp.formats import write_json
from kamicp.render.terminal import swatch


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


