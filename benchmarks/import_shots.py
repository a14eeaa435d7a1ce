"""Screenshot import on synthetic Kami 2 game screenshots: time per picture and cells read wrongly.

    .venv/bin/python benchmarks/import_shots.py --seeds 3 --out benchmarks/results/import-shots

For every size of tests/helpers/shots.py (SIZES) and every seed, a tests/data level gets holes punched and a
game palette (with a pale colour), is drawn by tests/helpers/shots.py and imported; a cell counts as wrong when
its key (or hole) differs from the level's. Only the import is timed, not the drawing.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages: kamicp, tests.helpers

from benchmarks.report import Out, command_line, write  # noqa: E402
from kamicp import load_level  # noqa: E402
from kamicp.board.level import HOLE, Level  # noqa: E402
from kamicp.formats.screenshot import level_from_image  # noqa: E402
from tests.helpers.shots import SIZES, game_palette, game_shot, with_holes  # noqa: E402

LEVELS = ["tri-20b4c-s103", "tri-32b5c-s106", "tri-28b4c-s105", "tri-18b4c-s113"]
app = typer.Typer(add_completion=False)


def wrong_cells(level: Level, palette: dict[str, str], got: Level) -> int:
    rename = {key: "ABCDEFGHIJ"[n] for n, key in enumerate(palette)}

    def key(lv: Level, lab: tuple[int, int], mapping: dict[str, str] | None) -> str:
        if lab not in lv.labels:
            return HOLE
        k = lv.colours[lv.index(lab)]
        return mapping[k] if mapping else k

    return sum(key(level, (r, c), rename) != key(got, (r, c), None) for r in range(29) for c in range(10))


@app.command()
def main(seeds: Annotated[int, typer.Option(help="Pictures per size and level.")] = 2,
         out: Out = Path("import-shots")) -> None:
    rows = []
    for size, kwargs in SIZES.items():
        times, wrong, uncertain, pars = [], 0, 0, 0
        for seed in range(seeds):
            for k, name in enumerate(LEVELS):
                level = with_holes(load_level(ROOT / "tests" / "data" / "levels" / f"{name}.json"), 100 + seed + k)
                palette = game_palette(level, seed + k)
                img = game_shot(level, palette, seed=seed, par=3 + seed + k, **kwargs)
                t0 = time.perf_counter()
                shot = level_from_image(img)
                times.append(time.perf_counter() - t0)
                wrong += wrong_cells(level, palette, shot.level)
                uncertain += len(shot.report.uncertain)
                pars += shot.report.par == 3 + seed + k
        rows.append({"size": size, "pictures": len(times), "median_s": statistics.median(times),
                     "max_s": max(times), "wrong_cells": wrong, "uncertain_cells": uncertain, "par_read": pars})
        print(rows[-1], flush=True)
    lines = ["| size | pictures | median s | max s | cells wrong (of 290 each) | "
             "uncertain cells | par read |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['size']} | {r['pictures']} | {r['median_s']:.2f} | {r['max_s']:.2f} | {r['wrong_cells']} | "
              f"{r['uncertain_cells']} | {r['par_read']}/{r['pictures']} |" for r in rows]
    write(out, command_line(__file__, ["--seeds", str(seeds), "--out", str(out)]), "\n".join(lines), {"rows": rows})


if __name__ == "__main__":
    app()
