"""Screenshot import on a folder of REAL game screenshots scored against a truth file: cells right, exact
boards, colour counts, the par read right / declined / wrong, and the time per picture.

    .venv/bin/python benchmarks/real_shots.py ../shared/shots-dev --out benchmarks/results/real-shots

The folder holds the pictures and (by default) `truth.json`: {"shots": [{"file", "par", "colours",
"rows"}, ...]} with `rows` the true board on kamicp's triangle lattice, `A` = the footer's first swatch,
`B` the second, ..., `.` a hole (the shared development set's format). `--scale F --jpeg Q` read copies
rescaled and recompressed in memory instead (how robust the reader is beyond the files as they are).
Nothing from the folder is copied anywhere: the script writes only its table (OUT.md) and JSON
(OUT.json), with the command that made them.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's kamicp

from benchmarks.report import Out, command_line, write  # noqa: E402
from kamicp.board.level import HOLE, Level  # noqa: E402
from kamicp.errors import KamiError  # noqa: E402
from kamicp.formats.screenshot import level_from_image, open_image, read_screenshot  # noqa: E402
from tests.helpers.pictures import jpeg_copy  # noqa: E402

app = typer.Typer(add_completion=False)


def grid_of(level: Level, shape: tuple[int, int]) -> list[str]:
    colour = dict(zip(level.labels, level.colours, strict=True))
    return ["".join(colour.get((r, c), HOLE) for c in range(shape[1])) for r in range(shape[0])]


def degraded(path: Path, scale: float, jpeg: int | None):
    """The picture rescaled and JPEG-compressed again, in memory (a copy as a messenger app might send)."""
    from PIL import Image

    img = open_image(path)
    if scale != 1.0:
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)
    return jpeg_copy(img, jpeg) if jpeg else img


def score(folder: Path, entry: dict, scale: float = 1.0, jpeg: int | None = None) -> dict:
    """One picture's import against its truth (of a rescaled or recompressed copy when asked)."""
    truth = entry["rows"]
    shape = (len(truth), len(truth[0]))
    cells = shape[0] * shape[1]
    row = {"file": entry["file"], "cells": cells, "right": 0, "exact": False, "colours": None,
           "colours_true": entry["colours"], "par": None, "par_true": entry.get("par"), "error": ""}
    t0 = time.perf_counter()
    try:
        if scale == 1.0 and not jpeg:
            shot = read_screenshot(folder / entry["file"])
        else:
            shot = level_from_image(degraded(folder / entry["file"], scale, jpeg), source=entry["file"])
    except KamiError as e:
        row.update(seconds=time.perf_counter() - t0, error=str(e))
        return row
    row["seconds"] = time.perf_counter() - t0
    if shot.level.shape != shape:
        row["error"] = f"grid {shot.level.shape}, want {shape}"
        return row
    got = grid_of(shot.level, shape)
    row["right"] = sum(a == b for ga, gb in zip(got, truth, strict=True) for a, b in zip(ga, gb, strict=True))
    row["exact"] = row["right"] == cells
    row["colours"] = shot.report.colours
    row["par"] = shot.report.par
    row["par_note"] = shot.report.par_note
    return row


def table(rows: list[dict]) -> str:
    lines = ["| file | cells right | exact | colours (true) | par read (shown) | s |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        par = "declined" if r["par"] is None else str(r["par"])
        lines.append(f"| {r['file']} | {r['right']}/{r['cells']} | {'yes' if r['exact'] else 'no'} | "
                     f"{r['colours']} ({r['colours_true']}) | {par} ({r['par_true']}) | {r.get('seconds', 0):.2f} |"
                     + (f" {r['error']}" if r["error"] else ""))
    n = len(rows)
    right = sum(r["right"] for r in rows) / max(1, sum(r["cells"] for r in rows))
    par_ok = sum(r["par"] == r["par_true"] for r in rows)
    par_wrong = sum(r["par"] is not None and r["par"] != r["par_true"] for r in rows)
    lines += ["", f"{100 * right:.1f} % of cells right; {sum(r['exact'] for r in rows)}/{n} exact boards; "
              f"{sum(r['colours'] == r['colours_true'] for r in rows)}/{n} colour counts; par right on "
              f"{par_ok}/{n}, declined on {n - par_ok - par_wrong}, wrong on {par_wrong}"]
    return "\n".join(lines) + "\n"


@app.command()
def main(folder: Annotated[Path, typer.Argument(help="Folder of real screenshots.")],
         truth: Annotated[Path | None, typer.Option(help="Truth file (default: FOLDER/truth.json).")] = None,
         out: Out = Path("real-shots"),
         scale: Annotated[float, typer.Option(help="Read copies rescaled by this factor (in memory).")] = 1.0,
         jpeg: Annotated[int | None, typer.Option(help="Read copies JPEG-compressed at this quality.")] = None,
         ) -> None:
    entries = json.loads((truth or folder / "truth.json").read_text())["shots"]
    rows = []
    for entry in entries:
        rows.append(score(folder, entry, scale, jpeg))
        print(rows[-1]["file"], rows[-1]["right"], rows[-1]["par"], flush=True)
    argv = [str(folder), "--out", str(out), *(["--truth", str(truth)] if truth else []),
            *(["--scale", f"{scale:g}"] if scale != 1.0 else []), *(["--jpeg", str(jpeg)] if jpeg else [])]
    write(out, command_line(__file__, argv), table(rows), {"rows": rows})


if __name__ == "__main__":
    app()
