"""The "99problems" Flood-It boards (the standard benchmark of exact Flood-It solvers): optimum, proven or
not, time and peak memory per board, totals by size and colours.

    nice .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --time-limit 600 --out benchmarks/results/floodit99
    nice .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --rules free --time-limit 10 \\
        --out benchmarks/results/floodit99-free

BOARDS_DIR holds the boards in their own format (kamicp/formats/flood99.py; the folder is not part of the
repository); an ANCHOR-TIMES.md beside them (| board | optimum | ms |) adds the published times of
ColorFill, and the boards then run in the order of those times (the easiest first). Each board is solved
in a fresh process (`--one`), so that its peak memory (ru_maxrss, the largest of the process and its
workers) and CPU time (with its workers') are its own: `--rules pivot` by
`kamicp.floodit.solve_pivot` (the compiled A*), `--rules free` (Kami's rules: any region may be
recoloured) by `kamicp.prover.solver.solve`. A proven optimum that differs from the file's is an error (exit 1).
The load average of the machine is recorded before and after. Writes OUT.md (table, command, machine) and
OUT.json (records), and OUT.partial.json while it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402

NAME = re.compile(r"([0-9]+)_([0-9]+)_([0-9]+)_([0-9]+)")


def solve_one(path: str, rules: str, time_limit: float, memory_mb: int | None, engine: str = "auto",
              workers: int | None = None) -> dict:
    """One board in this process: the answer, its seconds (wall and CPU) and the peak memory."""
    from kamicp import load_level
    from kamicp.floodit import solve_pivot
    from kamicp.prover.solver import solve

    level = load_level(path, "flood99")
    t0, c0 = time.monotonic(), time.process_time()
    if rules == "pivot":
        budget = {} if memory_mb is None else {"memory_mb": memory_mb}
        r = solve_pivot(level, time_limit=time_limit, engine=engine, workers=workers, **budget)
    else:
        r = solve(level, time_limit=time_limit, engine=engine, workers=workers)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # the free rules' race runs in worker processes
    return {"board": Path(path).name, "rules": rules, "status": str(r.status), "optimum": r.optimum,
            "lower": r.lower_bound, "upper": r.upper_bound, "published": level.par, "regions": r.regions,
            "engine": str(r.engine), "workers": workers, "seconds": time.monotonic() - t0,
            "cpu": time.process_time() - c0 + kids.ru_utime + kids.ru_stime,
            "peak_mb": max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, kids.ru_maxrss) / 1024}


def anchors(folder: Path) -> dict[str, int]:
    """Board -> ColorFill's published milliseconds, from ANCHOR-TIMES.md when present."""
    path = folder / "ANCHOR-TIMES.md"
    if not path.is_file():
        return {}
    rows = (line.split("|") for line in path.read_text().splitlines() if NAME.search(line))
    return {cells[1].strip(): int(cells[3]) for cells in rows if len(cells) > 4 and cells[3].strip().isdigit()}


def run_board(path: Path, args: argparse.Namespace) -> dict:
    cmd = [sys.executable, __file__, "--one", str(path), "--rules", args.rules, "--time-limit", str(args.time_limit),
           "--engine", args.engine] + (["--workers", str(args.workers)] if args.workers else []) + (
               ["--memory-mb", str(args.memory_mb)] if args.memory_mb else [])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.time_limit * 2 + 120)
    if out.returncode != 0:
        return {"board": path.name, "rules": args.rules, "status": "error", "error": out.stderr.strip()[-500:],
                "optimum": None, "published": None, "seconds": None, "cpu": None, "peak_mb": None}
    return json.loads(out.stdout)


def table(records: list[dict], published_ms: dict[str, int]) -> list[str]:
    lines = ["| board | regions | published optimum | kamicp | proven | s (wall) | s (CPU) | peak MB | "
             "ColorFill ms (published) |", "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        got = r["optimum"] if r["optimum"] is not None else f"{r.get('lower')}..{r.get('upper')}"
        lines.append(f"| {r['board']} | {r.get('regions', '-')} | {r['published'] or '-'} | {got} | "
                     f"{'yes' if r['status'] == 'optimal' else r['status']} | {_num(r['seconds'])} | "
                     f"{_num(r['cpu'])} | {_num(r['peak_mb'], 0)} | {published_ms.get(r['board'], '-')} |")
    return lines


def totals(records: list[dict], published_ms: dict[str, int]) -> list[str]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        m = NAME.fullmatch(r["board"])
        groups[f"{m.group(1)}x{m.group(2)}, {int(m.group(3))} colours" if m else "other"].append(r)
    groups["all"] = records
    lines = ["| boards | proven | s (wall) | s (CPU) | slowest s | peak MB (max) | ColorFill s (published) |",
             "|---|---|---|---|---|---|---|"]
    for name, rs in groups.items():
        secs = [r["seconds"] or 0.0 for r in rs]
        anchor = sum(published_ms.get(r["board"], 0) for r in rs) / 1000
        lines.append(f"| {name} | {sum(r['status'] == 'optimal' for r in rs)}/{len(rs)} | {sum(secs):.1f} | "
                     f"{sum(r['cpu'] or 0.0 for r in rs):.1f} | {max(secs):.1f} | "
                     f"{max((r['peak_mb'] or 0) for r in rs):.0f} | {anchor:.1f} |")
    return lines


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out="benchmarks/results/floodit99")
    ap.add_argument("boards_dir", nargs="?", help="folder of boards in the 99problems format")
    ap.add_argument("--rules", choices=("pivot", "free"), default="pivot")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per board")
    ap.add_argument("--memory-mb", type=int, help="the pivot A*'s budget of stored sets (default: the library's, "
                    "half the machine's memory)")
    ap.add_argument("--engine", default="auto", help="auto (the A* under pivot rules), or a variant to compare: "
                    "search (the pivot IDA*), cpsat, astar")
    ap.add_argument("--workers", type=int, help="threads of the pivot A* (default: the CPUs, at most 8) or CP-SAT's")
    ap.add_argument("--only", default="", help="a regular expression the board names must match")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: one board in this process, JSON out
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(solve_one(args.one, args.rules, args.time_limit, args.memory_mb, args.engine, args.workers)))
        return
    if not args.boards_dir:
        ap.error("BOARDS_DIR is required")
    folder = Path(args.boards_dir)
    paths = sorted(p for p in folder.iterdir() if NAME.fullmatch(p.name) and re.search(args.only, p.name))
    published_ms = anchors(folder)
    paths.sort(key=lambda p: (published_ms.get(p.name, 0), p.name))  # the published easiest first
    load_before = os.getloadavg()
    records, wrong = [], []
    for i, path in enumerate(paths, start=1):
        rec = run_board(path, args)
        records.append(rec)
        if rec["status"] == "optimal" and args.rules == "pivot" and rec["published"] not in (None, rec["optimum"]):
            wrong.append(rec["board"])
        partial = Path(args.out).with_suffix(".partial.json")  # what is done so far, should the run be stopped
        partial.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps({"command": command_line("floodit99.py", argv), "records": records}, indent=1))
        print(f"[{i}/{len(paths)}] {rec['board']}: {rec['status']} {rec['optimum']} "
              f"({_num(rec['seconds'])} s, {_num(rec['peak_mb'], 0)} MB, load {os.getloadavg()[0]:.1f})",
              file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    before, after = (", ".join(f"{x:.1f}" for x in load) for load in (load_before, load_after))
    machine = (f"{os.cpu_count()} cores; load average (1, 5, 15 min) before {before}, after {after}; "
               f"rules {args.rules}, engine {args.engine}, {args.time_limit:g} s per board")
    command = command_line("floodit99.py", argv)
    records.sort(key=lambda r: r["board"])
    lines = [machine, "", *totals(records, published_ms), "", *table(records, published_ms)]
    write(args.out, command, "\n".join(lines), {"records": records})
    Path(args.out).with_suffix(".partial.json").unlink(missing_ok=True)
    if wrong:
        raise SystemExit(f"proven optima differ from the published ones on {', '.join(wrong)}")


if __name__ == "__main__":
    main()
