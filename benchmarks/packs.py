"""A designer's pack validated sequentially, with --jobs 2 and on a local Dask cluster, in one run.

    .venv/bin/python benchmarks/packs.py [--levels 120] [--time-limit 30] [--out benchmarks/results/packs]

The pack is regenerated deterministically (fixed seeds) with puzzles/make_puzzles.py's blob boards:
triangle and square boards of 6-32 blobs (easy, medium and harder in turn) and 3-5 colours. Each
level's par is the greedy solution's length (a designer's first guess), one level in five one move less: the
verdicts are a mix of correct, beatable and unachievable pars. Every mode validates the same files with
the same settings (the pack defaults: --engine auto, one CP-SAT worker); the table gives the wall time,
its ratio to the sequential run and whether the verdicts are identical, then --resume on the finished
store (nothing solved again). Writes OUT.md and OUT.json.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages: kamicp, puzzles.make_puzzles

from benchmarks.report import RESULTS, command_line, options, write  # noqa: E402
from kamicp import Level  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.packs import PackSettings, PackStore, load_pack, run_pack, summarize  # noqa: E402
from kamicp.prover.upper import greedy  # noqa: E402
from puzzles.make_puzzles import PALETTE, blob_rows  # noqa: E402


def design(k: int) -> tuple[str, int, int, int, int]:
    """The k-th level's (geometry, rows, cols, blobs, colours): mixed sizes, fixed by k."""
    rng = random.Random(1000 + k)
    geometry = "triangle" if k % 2 == 0 else "square"
    rows, cols = (29, 10) if geometry == "triangle" else (10, 16)
    tier = (k // 2) % 3  # easy, medium, harder in turn
    blobs = rng.randint(*((6, 14), (14, 24), (24, 32))[tier])
    return geometry, rows, cols, blobs, rng.randint(3, 5)


def generate(folder: Path, count: int) -> list[Path]:
    """Write `count` levels to `folder` (the same files for the same count, every time)."""
    paths = []
    for k in range(count):
        geometry, rows, cols, blobs, colours = design(k)
        grid = blob_rows(geometry, rows, cols, blobs, colours, 5000 + k)
        level = Level.from_rows(grid, geometry)
        regions = regions_of(level)
        par = len(greedy(regions.adj, regions.colours, len(regions.palette)))
        if k % 5 == 4:
            par -= 1  # a designer's par one move too ambitious (or just right: the greedy is not optimal)
        name = f"pack-{k:03d}-{geometry[:3]}-{blobs}b{colours}c"
        data = {"name": name, "geometry": geometry, "rows": grid, "par": par,
                "palette": {key: PALETTE[key] for key in sorted(set("".join(grid)))}}
        path = folder / f"{name}.json"
        path.write_text(json.dumps(data) + "\n")
        paths.append(path)
    return paths


def timed_run(items, settings: PackSettings, store_path: Path, **kwargs) -> tuple[float, list, int]:
    skipped = []
    with PackStore(store_path) as store:
        start = time.perf_counter()
        rows = run_pack(items, settings, store=store, on_row=lambda r, s: skipped.append(s), **kwargs)
        return time.perf_counter() - start, rows, sum(skipped)


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out=RESULTS / "packs", raw=True)
    ap.add_argument("--levels", type=int, default=120)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--no-dask", action="store_true", help="leave out the Dask run")
    args = ap.parse_args(argv)
    settings = PackSettings(time_limit=args.time_limit)
    modes = [("sequential (--jobs 1)", {"jobs": 1}), ("--jobs 2", {"jobs": 2})]
    if not args.no_dask:
        modes.append(("--dask local, 2 workers", {"jobs": 2, "dask": "local"}))
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        items = load_pack(generate(Path(tmp), args.levels))
        base = None
        for k, (mode, kwargs) in enumerate(modes):
            store = Path(tmp) / f"store-{k}.sqlite"
            seconds, rows, skipped = timed_run(items, settings, store, **kwargs)
            verdicts = [str(r.verdict) for r in rows]
            base = base or (seconds, verdicts)
            records.append({"mode": mode, "seconds": seconds, "ratio": base[0] / seconds,
                            "same_verdicts": verdicts == base[1], "summary": summarize(rows).line(),
                            "verdicts": verdicts, "skipped": skipped})
            print(f"{mode}: {seconds:.1f} s, {summarize(rows).line()}", flush=True)
            if k == 1:  # --resume on this finished store
                seconds, rows, skipped = timed_run(items, settings, store, resume=True, **kwargs)
                verdicts = [str(r.verdict) for r in rows]
                records.append({"mode": "--jobs 2 --resume (finished store)", "seconds": seconds,
                                "ratio": base[0] / seconds, "same_verdicts": verdicts == base[1],
                                "summary": summarize(rows, skipped).line(), "verdicts": verdicts,
                                "skipped": skipped})
                print(f"resume: {seconds:.2f} s, {skipped} skipped", flush=True)
    lines = [f"{args.levels} generated levels, --time-limit {args.time_limit:g} per level, engine auto.", "",
             "| mode | wall s | speed-up vs sequential | same verdicts | levels skipped | summary |",
             "|---|---:|---:|---|---:|---|"]
    for r in records:
        lines.append(f"| {r['mode']} | {r['seconds']:.2f} | {r['ratio']:.2f}x | "
                     f"{'yes' if r['same_verdicts'] else 'NO'} | {r['skipped']} | {r['summary']} |")
    write(args.out, command_line(__file__, argv), "\n".join(lines), {"records": records})


if __name__ == "__main__":
    main()
