"""How a proof's cost grows with regions and horizon: the compiled search's nodes and CPU seconds per refuted
horizon, and the whole `auto` proof, on level files and/or a generated series of increasing size.

    .venv/bin/python benchmarks/growth.py --sizes 30,40,50,60,70,80 --seeds 800,801 --horizon-seconds 60 \\
        --auto-seconds 120 --out benchmarks/results/growth [LEVEL.json ...]

Generated levels are `benchmarks/generate.py`'s triangle boards (29 x 10, 5 colours, `-proper`: every blob its own
region, not mirrored), one per size and seed, written to `--levels-dir` so that `kamicp solve` can read them.
Per level: regions, colours, the root bound of `solve` (with the cluster gathering cost), the best plan of the
beam and the rollouts (an upper bound `U`, replayed by the rules engine), then the compiled search with the
pruning of `solve` (one search object for every horizon, as in `solve`) from the root bound up to `U - 1`, each
horizon at most `--horizon-seconds`, stopping at the first one it does not refute; then `kamicp solve` (the
default `auto`) in a child process with `--time-limit --auto-seconds`, its wall and CPU seconds (children
included) and its answer. Node counts do not depend on the machine's load; CPU seconds a little (caches);
wall seconds a lot, so the load average is recorded.

The fit is a least-squares line through log10(nodes) of every refuted horizon above the root bound against
regions and depth (horizon - root bound): a summary of the levels measured, not a law.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gap import best_plan  # noqa: E402
from generate import PALETTE, ROWS, level_row, make  # noqa: E402

from benchmarks.report import command_line, options  # noqa: E402
from benchmarks.report import write as write_results  # noqa: E402
from kamicp.board.level import Move  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.board.rules import verify  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import bound_report  # noqa: E402
from kamicp.prover.config import BoundOptions, SearchOptions  # noqa: E402
from kamicp.prover.search import SearchTimeout, make_search  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402


def generated(sizes: list[int], seeds: list[int], out: Path) -> list[Path]:
    """One non-mirrored `-proper` level per size and seed, written to `out` (the names say how they were made)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for blobs in sizes:
        for seed in seeds:
            level = make(blobs, False, seed)
            path = out / f"{level.name}.json"
            data = {"name": level.name, "geometry": "triangle", "rows": [level_row(level, r) for r in range(ROWS)],
                    "palette": PALETTE}
            path.write_text(json.dumps(data, indent=1) + "\n")
            paths.append(path)
    return paths


def search_costs(regions, k: int, start: int, stop: int, seconds: float) -> list[dict]:
    """The compiled search of `solve` from horizon `start` to `stop`, each within `seconds` of wall time, until
    one is not refuted: per horizon its outcome, nodes, wall and CPU seconds."""
    opts = SearchOptions()
    search = make_search(regions.adj, regions.colours, k, compiled=opts.compiled, por=opts.por, gather=opts.gather,
                         ring=opts.ring, por_adjacent=opts.por_adjacent, clusters=opts.clusters)
    rows, before = [], 0
    for steps in range(start, stop + 1):
        t0, c0 = time.monotonic(), time.process_time()
        try:
            outcome = "infeasible" if search.within(steps, Deadline.slice(seconds)) is None else "feasible"
        except SearchTimeout:
            outcome = "timeout"
        rows.append({"horizon": steps, "outcome": outcome, "nodes": search.nodes - before,
                     "seconds": round(time.monotonic() - t0, 2), "cpu": round(time.process_time() - c0, 2)})
        before = search.nodes
        if outcome != "infeasible":
            break
    return rows


def auto_proof(path: Path, seconds: float) -> dict:
    """`kamicp solve --json --time-limit seconds` (the default `auto`) in a child process: its answer, wall
    seconds and the CPU seconds of it and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    cli = str(Path(sys.executable).parent / "kamicp")
    done = subprocess.run([cli, "solve", "--json", "--time-limit", str(seconds), str(path)],
                          capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    record = {"exit": done.returncode, "wall": round(wall, 2), "cpu": round(cpu, 2)}
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {**record, "status": "error", "error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return {**record, "status": answer["status"], "lower": answer["lower_bound"], "upper": answer["upper_bound"],
            "solver_seconds": answer["seconds"]}


def measure(path: Path, horizon_seconds: float, upper_seconds: float, auto_seconds: float) -> dict:
    level = load_level(path)
    regions = regions_of(level)
    k = len(regions.palette)
    root = bound_report(regions.adj, regions.colours, k, clusters=BoundOptions().clusters).value
    plan = best_plan(regions, k, upper_seconds)
    if plan is not None:
        verify(level, [Move(regions.cells[rep][0], regions.palette[c]) for rep, c in plan])
    upper = len(plan) if plan else None
    rows = search_costs(regions, k, root, (upper - 1) if upper else 40, horizon_seconds)
    record = {"level": level.name, "path": str(path), "regions": regions.size, "colours": k, "root_bound": root,
              "upper": upper, "horizons": rows}
    record["auto"] = auto_proof(path, auto_seconds) if auto_seconds > 0 else None
    return record


def optimum(r: dict) -> int | None:
    """The proven optimum: by `auto`, or by the search (refuted up to U - 1 with a U-move plan)."""
    a = r["auto"]
    if a and a["status"] == "optimal":
        return a["upper"]
    refuted = [h["horizon"] for h in r["horizons"] if h["outcome"] == "infeasible"]
    if r["upper"] is not None and (refuted and refuted[-1] == r["upper"] - 1 or r["root_bound"] == r["upper"]):
        return r["upper"]
    return None


def _refuted(r: dict) -> list[dict]:
    return [h for h in r["horizons"] if h["outcome"] == "infeasible"]


def _ratios(r: dict) -> str:
    done = _refuted(r)
    return " ".join(f"{b['nodes'] / max(a['nodes'], 1):.0f}x" for a, b in zip(done, done[1:], strict=False))


def _auto_cell(r: dict) -> str:
    a = r["auto"]
    if a is None:
        return ""
    if a["status"] == "optimal":
        return f"optimal {a['upper']}: {a['wall']:.1f} s ({a['cpu']:.1f} CPU)"
    if a["status"] == "error":
        return f"error: {a['error']}"
    return f"{a['status']} {a['lower']}..{a['upper']} after {a['wall']:.0f} s ({a['cpu']:.0f} CPU)"


def level_table(records: list[dict]) -> str:
    lines = ["| level | regions | colours | root bound | U | optimum | search: nodes per horizon (CPU s) "
             "| nodes(h)/nodes(h-1) | `auto`: answer, wall (CPU) s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        per = ", ".join(f"{h['horizon']}: {h['nodes']:,} ({h['cpu']:.1f}"
                        f"{'' if h['outcome'] == 'infeasible' else ', ' + h['outcome']})" for h in r["horizons"])
        opt = optimum(r)
        lines.append(f"| {r['level']} | {r['regions']} | {r['colours']} | {r['root_bound']} | {r['upper']} "
                     f"| {'' if opt is None else opt} | {per} | {_ratios(r)} | {_auto_cell(r)} |")
    return "\n".join(lines) + "\n"


def points(records: list[dict]) -> list[tuple[int, int, int, int, float]]:
    """(regions, depth above the root bound, horizon, nodes, CPU s) of every horizon the search refuted with at
    least one node."""
    return [(r["regions"], h["horizon"] - r["root_bound"], h["horizon"], h["nodes"], h["cpu"])
            for r in records for h in _refuted(r) if h["nodes"] > 0]


def fit(records: list[dict]) -> dict | None:
    """log10(nodes) = a + b * regions + c * depth, least squares over `points` (None with fewer than 4)."""
    pts = points(records)
    if len(pts) < 4:
        return None
    x = np.array([[1.0, p[0], p[1]] for p in pts])
    y = np.log10([p[3] for p in pts])
    (a, b, c), *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ np.array([a, b, c])
    return {"a": float(a), "b": float(b), "c": float(c), "points": len(pts),
            "rms_log10": float(np.sqrt(np.mean(resid ** 2)))}


def last_table(records: list[dict]) -> str:
    """The last horizon the search refuted, per level, by the gap (proven optimum - root bound)."""
    lines = ["| gap (optimum - root bound) | level | regions | last horizon refuted by the search | its nodes "
             "| its CPU s |", "|---|---|---|---|---|---|"]
    rows = []
    for r in records:
        opt, done = optimum(r), _refuted(r)
        if opt is None or not done:
            continue
        rows.append((opt - r["root_bound"], r["regions"], r, done[-1]))
    for gap, regions, r, h in sorted(rows, key=lambda t: (t[0], t[1])):
        mark = "" if h["horizon"] == optimum(r) - 1 else f" (of {optimum(r) - 1} needed)"
        lines.append(f"| {gap} | {r['level']} | {regions} | {h['horizon']}{mark} | {h['nodes']:,} | {h['cpu']:.2f} |")
    return "\n".join(lines) + "\n"


def fit_text(records: list[dict]) -> str:
    f = fit(records)
    if f is None:
        return "Too few refuted horizons for a fit.\n"
    return (f"Fit over {f['points']} refuted horizons of {len(records)} levels (not a law): log10(nodes) = "
            f"{f['a']:.2f} + {f['b']:.4f} x regions + {f['c']:.2f} x (horizon - root bound), i.e. x{10 ** f['c']:.0f} "
            f"per horizon and x{10 ** (10 * f['b']):.2f} per 10 regions at the same depth; rms residual "
            f"{f['rms_log10']:.2f} in log10 (x{10 ** f['rms_log10']:.1f}).\n")


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="*", help="level files measured after the generated series")
    ap.add_argument("--sizes", default="", help="comma-separated blob counts of a generated series (e.g. 30,40,50)")
    ap.add_argument("--seeds", default="800,801", help="comma-separated seeds, one level per size and seed")
    ap.add_argument("--levels-dir", default=None, help="where the generated levels are written (default: a "
                    "temporary directory)")
    ap.add_argument("--horizon-seconds", type=float, default=60.0, help="wall seconds per horizon of the search")
    ap.add_argument("--upper-seconds", type=float, default=6.0, help="seconds for the beam and the rollouts")
    ap.add_argument("--auto-seconds", type=float, default=120.0, help="time limit of `kamicp solve` (0: skip it)")
    ap.add_argument("--merge", nargs="+", default=None, metavar="JSON", help="measure nothing: the tables and the "
                    "fit of the records of these earlier outputs together (written to --out)")
    args = ap.parse_args(argv)
    command = command_line(__file__, argv)
    if args.merge:
        records = [r for f in args.merge for r in json.loads(Path(f).read_text())["records"]]
        write(args.out, command, records, echo=True)
        return
    sizes = [int(s) for s in args.sizes.split(",") if s]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    with tempfile.TemporaryDirectory() as tmp:
        paths = generated(sizes, seeds, Path(args.levels_dir or tmp)) if sizes else []
        paths += [Path(p) for p in args.levels]
        records = []
        for path in paths:
            load = os.getloadavg()[0]
            records.append({**measure(path, args.horizon_seconds, args.upper_seconds, args.auto_seconds),
                            "load": round(load, 2)})
            print(level_table(records[-1:]).splitlines()[-1], flush=True)
            write(args.out, command, records)  # after each level: a long run stopped early keeps what it measured
    write(args.out, command, records, echo=True)


def report(records: list[dict]) -> str:
    loads = [r["load"] for r in records]
    return (level_table(records) + "\n" + last_table(records) + "\n" + fit_text(records)
            + f"\nLoad average (1 min) at the start of each level: {min(loads):.1f}-{max(loads):.1f} on "
            f"{os.cpu_count()} cores.\n")


def write(out: str | None, command: str, records: list[dict], echo: bool = False) -> None:
    write_results(out, command, report(records), {"records": records, "fit": fit(records)}, echo=echo)


if __name__ == "__main__":
    main()
