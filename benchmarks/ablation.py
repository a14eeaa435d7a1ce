"""Ablation: every proof technique on and off in one run, reported as ratios to the baseline variant.

Each (level, variant) runs `kamicp.prover.solver.solve` in a fresh process, one at a time (the machine is
shared and noisy: compare variants of the same run only). Writes a Markdown table and JSON.

    .venv/bin/python benchmarks/ablation.py --set cpsat --time-limit 20 \\
        --out benchmarks/results/ablation-cpsat  FOLDER/*.json

Variant sets (--set): cpsat, search, engines, or a comma list of variant names (see VARIANTS).
A variant that times out counts with the time limit, so its ratio is a lower bound (marked '>').
"""

from __future__ import annotations

import math
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.config import SolveOptions  # noqa: E402

# name -> (engine, SolveOptions overrides as "part.field": value)
VARIANTS: dict[str, tuple[str, dict]] = {
    "cpsat": ("cpsat", {}),
    "cpsat-no-tight": ("cpsat", {"model.tight_colours": False}),
    "cpsat-no-commute": ("cpsat", {"model.commuting_order": False}),
    "cpsat-no-hints": ("cpsat", {"cpsat.hints": False}),
    "cpsat-radius": ("cpsat", {"model.radius_bound": True}),
    "cpsat-radius3": ("cpsat", {"model.radius_bound": True, "model.radius_window": 3}),
    "cpsat-no-count": ("cpsat", {"model.colour_count_bound": False, "model.tight_colours": False}),
    "cpsat-plain": ("cpsat", {"model.colour_count_bound": False, "model.tight_colours": False,
                              "model.commuting_order": False, "cpsat.hints": False, "cpsat.cubes": 1}),
    "cpsat-w1": ("cpsat", {"model.cpsat_parameters": (("num_workers", 1),)}),
    "cpsat-w4": ("cpsat", {"model.cpsat_parameters": (("num_workers", 4),)}),
    "cpsat-w8": ("cpsat", {"model.cpsat_parameters": (("num_workers", 8),)}),
    "cpsat-lin2": ("cpsat", {"model.cpsat_parameters": (("linearization_level", 2),)}),
    "cpsat-sym": ("cpsat", {"model.cpsat_parameters": (("symmetry_level", 4),)}),
    "search": ("search", {}),
    "search-no-por": ("search", {"search.por": False}),
    "search-no-por-adjacent": ("search", {"search.por_adjacent": False}),
    "search-no-gather": ("search", {"search.gather": False}),
    "search-no-ring": ("search", {"search.ring": False}),
    "search-no-beam": ("search", {"upper.beam": False}),
    "cpsat-no-beam": ("cpsat", {"upper.beam": False}),
    "search-python": ("search", {"search.compiled": False, "search.por": False}),
    "auto": ("auto", {}),
    "auto-sym": ("auto", {"model.symmetry": True}),
    "auto-no-sym": ("auto", {"model.symmetry": False}),
    "cpsat-sym-break": ("cpsat", {"model.symmetry": True}),
    "search-sym": ("search", {"search.symmetry": True}),
    "auto-w2": ("auto", {"_workers": 2}),  # the portfolio's CP-SAT process with two workers
    "auto-no-ledger": ("auto", {"race.ledger": False}),
    "auto-no-cubes": ("auto", {"cpsat.cubes": 1}),
    "cpsat-no-cubes": ("cpsat", {"cpsat.cubes": 1}),
    "auto-no-top-down": ("auto", {"race.top_down": False}),
    "auto-no-rollout": ("auto", {"upper.rollout": False}),
    "auto-no-top-down-no-rollout": ("auto", {"race.top_down": False, "upper.rollout": False}),
    "auto-no-cluster-bound": ("auto", {"bound.clusters": 0}),
    "auto-no-clusters": ("auto", {"bound.clusters": 0, "search.clusters": 0}),
    "auto-no-search-clusters": ("auto", {"search.clusters": 0}),
    "search-no-clusters": ("search", {"search.clusters": 0}),
}
SETS = {
    "cpsat": ["cpsat", "cpsat-no-tight", "cpsat-no-commute", "cpsat-no-hints", "cpsat-plain"],
    "search": ["search", "search-no-por", "search-python"],
    "beam": ["auto", "search", "search-no-beam", "cpsat", "cpsat-no-beam"],
    "engines": ["auto", "search", "cpsat"],
    "params": ["cpsat", "cpsat-w1", "cpsat-w4", "cpsat-w8", "cpsat-lin2", "cpsat-sym"],
}


def run_one(path: str, variant: str, time_limit: float, workers: int | None) -> dict:
    from kamicp.prover.solver import solve

    level = load_level(path)
    engine, overrides = VARIANTS[variant]
    overrides = dict(overrides)
    workers = overrides.pop("_workers", workers)
    options = SolveOptions()
    for key, value in overrides.items():
        part, name = key.split(".")
        options = replace(options, **{part: replace(getattr(options, part), **{name: value})})
    t0 = time.monotonic()
    res = solve(level, time_limit=time_limit, engine=engine, options=options, workers=workers)
    wall = time.monotonic() - t0
    # when a solution of the final length was first known: the upper-bound heuristic's row (its seconds
    # are the time it took) when it already had that length, else the end of the solve
    first = wall
    if res.status == "optimal" and res.proof and res.proof[-1].engine in ("greedy", "beam", "rollout"):
        first = res.proof[-1].seconds
    rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
              resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return {
        "level": level.name or Path(path).stem,
        "variant": variant,
        "status": res.status,
        "optimum": res.optimum,
        "lower_bound": res.lower_bound,
        "upper_bound": res.upper_bound,
        "seconds": round(wall, 3),
        "first_optimal_seconds": round(first, 3) if res.status == "optimal" else None,
        "peak_rss_mb": round(rss / 1024, 1),
        "regions": res.regions,
    }


def fmt_cell(rec: dict, base: dict, limit: float) -> str:
    done = rec["status"] != "unknown"
    t = rec["seconds"] if done else limit
    text = f"{t:.2f}" if done else f"t/o {rec['lower_bound']}..{rec['upper_bound']}"
    if rec is base:
        return text
    bdone = base["status"] != "unknown"
    if not done and not bdone:
        return text
    bt = base["seconds"] if bdone else limit
    ratio = t / max(bt, 1e-3)
    mark = ">" if not done else ("<" if not bdone else "")
    return f"{text} ({mark}{ratio:.2f}x)"


def summarize(records: list[dict], variants: list[str], limit: float) -> list[str]:
    levels = list(dict.fromkeys(r["level"] for r in records))
    by = {(r["level"], r["variant"]): r for r in records}
    base = variants[0]
    lines = [f"| level | regions | {' | '.join(variants)} |", "|---|---|" + "---|" * len(variants)]
    for lv in levels:
        cells = []
        b = by.get((lv, base))
        for v in variants:
            rec = by.get((lv, v))
            cells.append("-" if rec is None or b is None else fmt_cell(rec, b, limit))
        regions = b["regions"] if b else "?"
        lines.append(f"| {lv} | {regions} | {' | '.join(cells)} |")
    # summary rows
    proven = []
    geo = []
    median = []
    peak = []
    for v in variants:
        recs = [by[(lv, v)] for lv in levels if (lv, v) in by]
        proven.append(f"{sum(r['status'] != 'unknown' for r in recs)}/{len(recs)}")
        times = [r["seconds"] if r["status"] != "unknown" else limit for r in recs]
        median.append(f"{statistics.median(times):.2f}" if times else "-")
        peak.append(f"{max((r['peak_rss_mb'] for r in recs), default=0):.0f}")
        ratios = []
        for lv in levels:
            r, b = by.get((lv, v)), by.get((lv, base))
            if r and b and (r["status"] != "unknown" or b["status"] != "unknown"):
                t = r["seconds"] if r["status"] != "unknown" else limit
                bt = b["seconds"] if b["status"] != "unknown" else limit
                ratios.append(max(t, 0.01) / max(bt, 0.01))
        geo.append(f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}x" if ratios else "-")
    common = [lv for lv in levels
              if all((lv, v) in by and by[(lv, v)]["status"] != "unknown" for v in variants)]
    totals = [f"{sum(by[(lv, v)]['seconds'] for lv in common):.2f}" for v in variants]
    lines.append(f"| **proven** | | {' | '.join(proven)} |")
    lines.append(f"| **total s on the {len(common)} levels all prove** | | {' | '.join(totals)} |")
    lines.append(f"| **median s** (t/o = limit) | | {' | '.join(median)} |")
    lines.append(f"| **geo-mean ratio to {base}** | | {' | '.join(geo)} |")
    lines.append(f"| **peak RSS MB** | | {' | '.join(peak)} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out="benchmarks/results/ablation", raw=True)
    ap.add_argument("levels", nargs="+", help="level files")
    ap.add_argument("--set", default="cpsat", help="variant set or comma list of variants")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--workers", type=int, default=None, help="CP-SAT workers (default: all cores)")
    args = ap.parse_args(argv)
    variants = SETS.get(args.set) or args.set.split(",")
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"unknown variant {v!r}; known: {', '.join(VARIANTS)}")
    records: list[dict] = []
    command = command_line(__file__, argv)

    def data() -> dict:
        return {"time_limit": args.time_limit, "variants": variants, "records": records}

    for path in args.levels:
        for v in variants:
            with ProcessPoolExecutor(max_workers=1) as pool:
                rec = pool.submit(run_one, path, v, args.time_limit, args.workers).result()
            records.append(rec)
            print(f"{rec['level']:34s} {v:18s} {rec['status']:8s} {rec['seconds']:7.2f}s "
                  f"lb={rec['lower_bound']} ub={rec['upper_bound']} rss={rec['peak_rss_mb']}MB", flush=True)
            write(args.out, command, f"(running: {len(records)} runs done)", data(), echo=False)
    lines = [f"Time limit {args.time_limit:g} s per run; cells: seconds (ratio to {variants[0]}); "
             "t/o lb..ub = timed out with these proven bounds.", "", *summarize(records, variants, args.time_limit)]
    write(args.out, command, "\n".join(lines), data())


if __name__ == "__main__":
    main()
