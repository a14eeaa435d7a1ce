"""The 99 Flood-It boards under Kami's free rules: the best bounds of the 10-minute runs, joined with the plans of
a beam run beside them (reads result files; runs nothing).

    .venv/bin/python benchmarks/floodit99_known.py --beam benchmarks/results/beam-floodit99-free \\
        --variant long benchmarks/results/floodit99-free600-*.json benchmarks/results/floodit99-free560-device.json \\
        --out benchmarks/results/floodit99-free-known

RUNS are `benchmarks/floodit99.py --rules free` results (OUT.json): per board, the highest proven lower bound
and the shortest replayed plan over the runs. `--beam` is a `benchmarks/beam.py` result on the same boards
(every plan in it replayed by the rules engine when it was measured); `--variant` names its column to take. A
board's row: its interval from the runs, the beam's plan, and the interval with both (a lower bound proven by
one run and a plan found by another are both facts about the board: the interval is their combination).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, paths, write  # noqa: E402


def runs_by_board(files: list[str]) -> dict[str, dict]:
    """board -> {regions, published, lower, upper, optimum} over every record of the runs (rules free)."""
    known: dict[str, dict] = {}
    for name in files:
        for rec in json.loads(paths(name)[1].read_text())["records"]:
            if rec.get("rules") != "free":
                continue
            row = known.setdefault(rec["board"], {"regions": rec.get("regions"), "published": rec.get("published"),
                                                  "lower": 0, "upper": None})
            lower = rec["optimum"] if rec.get("optimum") is not None else rec.get("lower") or 0
            upper = rec["optimum"] if rec.get("optimum") is not None else rec.get("upper")
            row["lower"] = max(row["lower"], lower)
            if upper is not None:
                row["upper"] = upper if row["upper"] is None else min(row["upper"], upper)
    return known


def rows_of(known: dict[str, dict], beam: dict[str, dict], variant: str) -> list[dict]:
    rows = []
    for board in sorted(known):
        k = known[board]
        plan = beam.get(board, {}).get(variant, {}).get("moves")
        uppers = [x for x in (k["upper"], plan) if x is not None]
        rows.append({"board": board, "regions": k["regions"], "published": k["published"], "lower": k["lower"],
                     "upper_runs": k["upper"], "beam": plan, "upper": min(uppers, default=None)})
    return rows


def table(rows: list[dict], variant: str) -> str:
    out = [f"| board | regions | Flood-It optimum (published) | 10-minute runs | beam `{variant}` "
           "| 10-minute bounds with the beam's plan |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        now = f"{r['lower']}..{r['upper']}" if r["upper"] != r["lower"] else f"**optimal {r['lower']}**"
        runs = f"{r['lower']}..{r['upper_runs']}"
        mark = " (shorter)" if r["beam"] is not None and r["upper_runs"] is not None and r["beam"] < r["upper_runs"] \
            else ""
        out.append(f"| {r['board']} | {r['regions']} | {r['published']} | {runs} | {r['beam']}{mark} | {now} |")
    both = [r for r in rows if r["upper_runs"] is not None and r["upper"] is not None]
    shorter = [r for r in both if r["upper"] < r["upper_runs"]]
    gap_runs = [r["upper_runs"] - r["lower"] for r in both]
    gap_now = [r["upper"] - r["lower"] for r in both]
    out.append(f"\n{len(rows)} boards; the beam's plan is shorter than the runs' best on {len(shorter)} "
               f"(by {sum(r['upper_runs'] - r['upper'] for r in shorter)} moves in all); gap upper - lower: "
               f"median {statistics.median(gap_runs)} -> {statistics.median(gap_now)}, "
               f"total {sum(gap_runs)} -> {sum(gap_now)}.")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("runs", nargs="+", help="floodit99.py results (OUT.json or OUT)")
    ap.add_argument("--beam", required=True, help="a beam.py result on the same boards")
    ap.add_argument("--variant", required=True, help="the beam variant whose column is shown")
    args = ap.parse_args(argv)
    beam = {row["level"]: row for row in json.loads(paths(args.beam)[1].read_text())["rows"]}
    rows = rows_of(runs_by_board(args.runs), beam, args.variant)
    write(args.out, command_line(__file__, argv), table(rows, args.variant), {"rows": rows})


if __name__ == "__main__":
    main()
