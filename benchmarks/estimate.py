"""How well the estimate of an open horizon's cost predicts it (kamicp/prover/estimate.py): the compiled search
of `solve` runs horizon by horizon from the root bound, and before each horizon the estimate is made from the
earlier horizons only (as in a race where that horizon is the open one), then compared with what the horizon
really cost.

    .venv/bin/python benchmarks/estimate.py --horizon-seconds 300 --out benchmarks/results/estimate LEVEL.json ...

Per level: regions, colours, root bound, and per horizon (until the first one not refuted or timed out):
Knuth's calibrated estimate, the growth estimate nodes(h-1)^2/nodes(h-2), the estimate (`estimate_open`:
their geometric mean, or the one that exists), the seconds it predicts at the rate of the earlier horizons,
and the real nodes and seconds. A level's "final" horizon is its last refuted one: the prediction made at its
start, with only the earlier horizons' data, is the one the issue's "prediction made at 10 % of the run"
asks for (the share of the run already spent is in the table). Node counts do not depend on the load; seconds
do, so the load average is recorded.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from growth import generated  # noqa: E402

from benchmarks.report import command_line, options  # noqa: E402
from benchmarks.report import write as write_results  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import bound_report  # noqa: E402
from kamicp.prover.config import BoundOptions, SearchOptions  # noqa: E402
from kamicp.prover.estimate import HorizonCost, combine, growth, knuth_parts, rate  # noqa: E402
from kamicp.prover.search import SearchTimeout, make_search  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402

SCORED_NODES = 100_000  # a horizon smaller than this is not worth an estimate (it is over in a second)


def predict(search, horizon: int, history: list[HorizonCost], seconds: float, seed: int = 0) -> dict:
    """The estimate of `horizon` from `history`, with its parts and the time it took."""
    t0 = time.monotonic()
    parts = knuth_parts(search, horizon, history, Deadline.slice(seconds), seed=seed)
    knuth = None if parts is None else parts[0] * parts[1]
    grown = growth(horizon, history)
    speed = rate(history)
    est = None if speed is None else combine(horizon, knuth, grown, speed)
    return {"knuth_raw": None if parts is None else parts[0], "calibration": None if parts is None else parts[1],
            "knuth": knuth, "growth": grown, "rate": speed, "estimate": None if est is None else est.to_dict(),
            "estimate_seconds": round(time.monotonic() - t0, 3)}


def solve_search(path: Path):
    """The level's name, regions, root bound and the compiled search of `solve`."""
    level = load_level(path)
    regions = regions_of(level)
    k = len(regions.palette)
    root = bound_report(regions.adj, regions.colours, k, clusters=BoundOptions().clusters).value
    opts = SearchOptions()
    search = make_search(regions.adj, regions.colours, k, compiled=opts.compiled, por=opts.por, gather=opts.gather,
                         ring=opts.ring, por_adjacent=opts.por_adjacent, clusters=opts.clusters)
    return level, regions, k, root, search


def measure(path: Path, horizon_seconds: float, probe_seconds: float) -> dict:
    level, regions, k, root, search = solve_search(path)
    rows, history, before = [], [], 0
    for horizon in range(root, root + 30):
        row = {"horizon": horizon, **predict(search, horizon, history, probe_seconds)}
        t0 = time.monotonic()
        try:
            outcome = "infeasible" if search.within(horizon, Deadline.slice(horizon_seconds)) is None else "feasible"
        except SearchTimeout:
            outcome = "timeout"
        row.update(outcome=outcome, nodes=search.nodes - before, seconds=round(time.monotonic() - t0, 2))
        before = search.nodes
        rows.append(row)
        print(f"  {level.name} {horizon}: {_cells(row, sum(h.seconds for h in history))}", flush=True)
        if outcome != "infeasible":
            break
        history.append(HorizonCost(horizon, row["nodes"], row["seconds"]))
    return {"level": level.name, "path": str(path), "regions": regions.size, "colours": k, "root_bound": root,
            "horizons": rows, "load": round(os.getloadavg()[0], 2)}


def _ratio(predicted: float | None, actual: float) -> float | None:
    return None if predicted is None or actual <= 0 else predicted / actual


def _x(r: float | None) -> str:
    return "" if r is None else f"{r:.2f}x"


def _n(v: float | None) -> str:
    return "" if v is None else f"{v:,.0f}"


def _cells(h: dict, spent: float) -> str:
    est = h["estimate"]
    done = h["outcome"] == "infeasible"
    share = spent / (spent + h["seconds"]) if spent + h["seconds"] > 0 else 0.0
    actual = f"{h['nodes']:,}" if done else f"> {h['nodes']:,} ({h['outcome']})"
    secs = f"{h['seconds']:.1f}" if done else f"> {h['seconds']:.1f}"
    if est is None:
        return f"| | | | | | {actual} | {secs} | | {share:.0%} |"
    knuth = "" if h["knuth"] is None else f"{_n(h['knuth_raw'])} x {h['calibration']:.2f} = {_n(h['knuth'])}"
    return (f"| {knuth} | {_n(h['growth'])} | {est['method']} | {_n(est['nodes'])} | {est['seconds']:.1f} "
            f"| {actual} | {secs} | {_x(_ratio(est['nodes'], h['nodes']) if done else None)} "
            f"{_x(_ratio(est['seconds'], h['seconds']) if done else None)} | {share:.0%} |")


def scored(records: list[dict]) -> list[tuple[dict, dict]]:
    """(level, horizon) of every refuted horizon of at least SCORED_NODES with an estimate."""
    return [(r, h) for r in records for h in r["horizons"]
            if h["outcome"] == "infeasible" and h["nodes"] >= SCORED_NODES and h["estimate"]]


def finals(records: list[dict]) -> list[tuple[dict, dict]]:
    """Each level's last refuted horizon, where it is scored."""
    out = []
    for r in records:
        done = [h for h in r["horizons"] if h["outcome"] == "infeasible"]
        if done and (r, done[-1]) in scored([r]):
            out.append((r, done[-1]))
    return out


def table(records: list[dict]) -> str:
    lines = ["| level | regions | horizon | Knuth: raw x calibration = calibrated | growth | method "
             "| estimate: nodes | seconds | actual nodes | actual seconds | ratio nodes, seconds | run spent before |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        spent = 0.0
        for h in r["horizons"]:
            lines.append(f"| {r['level']} | {r['regions']} | {h['horizon']} {_cells(h, spent)}")
            spent += h["seconds"]
    return "\n".join(lines) + "\n"


def _within(pairs: list[tuple[dict, dict]], key, factor: float) -> str:
    """How many predictions lie within `factor` of the actual, of those the predictor made."""
    made = [q for _, h in pairs if (q := key(h)) is not None]
    return f"{sum(1 for q in made if 1 / factor <= q <= factor)}/{len(made)}"


def _spread(pairs: list[tuple[dict, dict]], key) -> str:
    made = sorted(q for _, h in pairs if (q := key(h)) is not None)
    return f"{made[0]:.2f}x-{made[-1]:.2f}x" if made else ""


def summary(records: list[dict]) -> str:
    """Within 3x and 10x, of the finals and of every scored horizon, for the estimate and each part alone (of
    the horizons where that part could be made)."""
    parts = {"estimate (nodes)": lambda h: _ratio(h["estimate"]["nodes"], h["nodes"]),
             "estimate (seconds)": lambda h: _ratio(h["estimate"]["seconds"], h["seconds"]),
             "Knuth calibrated alone (nodes)": lambda h: _ratio(h["knuth"], h["nodes"]),
             "Knuth raw, no calibration (nodes)": lambda h: _ratio(h.get("knuth_raw"), h["nodes"]),
             "growth alone (nodes)": lambda h: _ratio(h["growth"], h["nodes"])}
    lines = ["| predictor | final horizons: within 3x | within 10x | range of predicted/actual "
             "| every horizon >= 100k nodes: within 3x | within 10x |", "|---|---|---|---|---|---|"]
    fin, every = finals(records), scored(records)
    for name, key in parts.items():
        lines.append(f"| {name} | {_within(fin, key, 3)} | {_within(fin, key, 10)} | {_spread(fin, key)} "
                     f"| {_within(every, key, 3)} | {_within(every, key, 10)} |")
    return "\n".join(lines) + "\n"


def reseeded(records: list[dict], seeds: int, probe_seconds: float) -> list[dict]:
    """The final horizons' estimates made again with seeds 1..`seeds` (the probes read no table, so a fresh
    search object probes the same tree as the one that ran): how much the luck of the probes moves them."""
    rows = []
    for r, h in finals(records):
        *_, search = solve_search(_level_path(r))
        history = [HorizonCost(x["horizon"], x["nodes"], x["seconds"]) for x in r["horizons"]
                   if x["horizon"] < h["horizon"]]
        for seed in range(1, seeds + 1):
            est = predict(search, h["horizon"], history, probe_seconds, seed=seed * 1000)["estimate"]
            rows.append({"level": r["level"], "horizon": h["horizon"], "seed": seed, "probe_seconds": probe_seconds,
                         "ratio": _ratio(est["nodes"], h["nodes"]) if est else None})
    return rows


def _level_path(record: dict) -> Path:
    """The record's level file; a generated one (its temporary file gone) made again from its name."""
    path = Path(record["path"])
    if path.exists():
        return path
    found = re.fullmatch(r"gen-tri-(\d+)b5c-proper-s(\d+)", record["level"])
    if found is None:
        raise FileNotFoundError(path)
    out = Path(tempfile.mkdtemp())
    return generated([int(found[1])], [int(found[2])], out)[0]


def reseed_table(rows: list[dict]) -> str:
    lines = ["| probe seconds | level | horizon | predicted/actual nodes over the seeds: min | median | max |",
             "|---|---|---|---|---|---|"]
    keys = sorted({(r["probe_seconds"], r["level"], r["horizon"]) for r in rows})
    for t, level, horizon in keys:
        q = sorted(r["ratio"] for r in rows if (r["probe_seconds"], r["level"], r["horizon"]) == (t, level, horizon)
                   and r["ratio"] is not None)
        if q:
            lines.append(f"| {t} | {level} | {horizon} | {q[0]:.2f}x | {q[len(q) // 2]:.2f}x | {q[-1]:.2f}x |")
    for t in sorted({r["probe_seconds"] for r in rows}):
        q = [r["ratio"] for r in rows if r["probe_seconds"] == t and r["ratio"] is not None]
        n3 = sum(1 for x in q if 1 / 3 <= x <= 3)
        n10 = sum(1 for x in q if 1 / 10 <= x <= 10)
        lines.append(f"| {t} | **all** | | within 3x: {n3}/{len(q)} | within 10x: {n10}/{len(q)} | |")
    return "\n".join(lines) + "\n"


def report(records: list[dict]) -> str:
    loads = [r["load"] for r in records]
    return (table(records) + "\n" + summary(records)
            + f"\nLoad average (1 min) at the end of each level: {min(loads):.1f}-{max(loads):.1f} on "
            f"{os.cpu_count()} cores.\n")


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="*", help="level files, after the generated ones")
    ap.add_argument("--sizes", default="", help="blob counts of generated levels (as growth.py)")
    ap.add_argument("--seeds", default="800,801", help="seeds of the generated levels, one level per size and seed")
    ap.add_argument("--horizon-seconds", type=float, default=300.0, help="wall seconds per horizon of the search")
    ap.add_argument("--probe-seconds", type=float, default=0.3, help="seconds of Knuth's probes per estimate")
    ap.add_argument("--merge", nargs="+", default=None, metavar="JSON", help="measure nothing: the tables of the "
                    "records of these earlier outputs together (written to --out)")
    ap.add_argument("--reseed", type=int, default=0, metavar="N", help="with --merge: only the final horizons' "
                    "estimates again, with N other seeds, at --probe-seconds and at 1 s")
    args = ap.parse_args(argv)
    command = command_line(__file__, argv)
    if args.merge:
        records = [r for f in args.merge for r in json.loads(Path(f).read_text())["records"]]
        if args.reseed:
            rows = [row for t in (args.probe_seconds, 1.0) for row in reseeded(records, args.reseed, t)]
            write_results(args.out, command, reseed_table(rows), {"reseeded": rows}, echo=True)
            return
        write_results(args.out, command, report(records), {"records": records}, echo=True)
        return
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [int(s) for s in args.sizes.split(",") if s]
        seeds = [int(s) for s in args.seeds.split(",") if s]
        paths = generated(sizes, seeds, Path(tmp)) + [Path(p) for p in args.levels]
        for path in paths:
            records.append(measure(path, args.horizon_seconds, args.probe_seconds))
            write_results(args.out, command, report(records), {"records": records})  # a run stopped early keeps it
    write_results(args.out, command, report(records), {"records": records}, echo=True)


if __name__ == "__main__":
    main()
