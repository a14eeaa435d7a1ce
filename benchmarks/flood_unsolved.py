"""Boards of a Flood-It pack that no exact solver has finished (b24c6n1000: 24 x 24, 6 colours), proven one by
one on every core until a wall-clock budget runs out: the optimum, or honest bounds, per board.

    nice .venv/bin/python benchmarks/flood_unsolved.py PACK --boards 1-40 --processes 2 --budget 3600 \\
        --out benchmarks/results/b24c6

PACK is the set's file (one board a line; not part of the repository). `--processes P` boards run at once,
each by `kamicp.floodit.solve_pivot` (the compiled A*, one thread, `--memory-mb` for its stored sets) in a
process of its own, so each board's peak memory (ru_maxrss) and CPU time are its own. Boards are taken in
order; a board's time limit is what is left of `--budget` (at most `--time-limit`), so the run ends within
the budget and every board that did not finish says `lower..upper`. Every plan is replayed by the rules
engine before it is kept (solve_pivot does). `--check OPTIMA` (one solution or number a line) compares. Writes
OUT.md and OUT.json, and rewrites them as boards finish.
"""

from __future__ import annotations

import multiprocessing as mp
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402


def _solve(path: str, k: int, time_limit: float, memory_mb: int) -> dict:
    from kamicp.floodit import solve_pivot
    from kamicp.formats import load_level

    level = load_level(f"{path}#{k}")
    t0, c0 = time.monotonic(), time.process_time()
    r = solve_pivot(level, time_limit=time_limit, workers=1, memory_mb=memory_mb)
    return {"board": k, "status": str(r.status), "optimum": r.optimum, "lower": r.lower_bound,
            "upper": r.upper_bound, "regions": r.regions, "seconds": round(time.monotonic() - t0, 2),
            "cpu": round(time.process_time() - c0, 2),
            "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


def board_numbers(text: str) -> list[int]:
    """Board numbers from ranges K-L and single numbers, comma-separated (`78,80,116-120`)."""
    out = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def table(records: list[dict], budget: float, processes: int) -> str:
    proven = [r for r in records if r["status"] == "optimal"]
    lines = [f"{len(proven)} of {len(records)} boards proven optimal ({processes} processes, budget {budget:.0f} s"
             f"; proven: {sum(r['cpu'] for r in proven):.0f} s of CPU, peak "
             f"{max((r['peak_mb'] for r in records), default=0)} MB).", "",
             "| board | regions | optimum | lower..upper | s (wall) | s (CPU) | peak MB |",
             "|---|---|---|---|---|---|---|"]
    for r in sorted(records, key=lambda r: r["board"]):
        bounds = f"{r['lower']}..{r['upper'] if r['upper'] is not None else '?'}"
        lines.append(f"| {r['board']} | {r['regions']} | {r['optimum'] if r['optimum'] is not None else '-'} | "
                     f"{bounds} | {r['seconds']} | {r['cpu']} | {r['peak_mb']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__)
    ap.add_argument("pack", type=Path)
    ap.add_argument("--boards", default="1-16", help="board numbers (from 1): ranges K-L and numbers, comma-separated")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--budget", type=float, default=600.0, help="wall seconds for the whole run")
    ap.add_argument("--time-limit", type=float, default=3600.0, help="seconds per board at most")
    ap.add_argument("--memory-mb", type=int, default=6000)
    args = ap.parse_args(argv)
    command = command_line(__file__, argv)
    end = time.monotonic() + args.budget
    todo = board_numbers(args.boards)
    records: list[dict] = []
    ctx = mp.get_context("spawn")  # a fresh process per board: its own peak memory
    with ctx.Pool(args.processes, maxtasksperchild=1) as pool:
        running = []
        while todo or running:
            while todo and len(running) < args.processes and end - time.monotonic() > 5:
                k = todo.pop(0)
                limit = min(args.time_limit, end - time.monotonic() - 3)
                running.append(pool.apply_async(_solve, (str(args.pack), k, limit, args.memory_mb)))
            for job in [j for j in running if j.ready()]:
                running.remove(job)
                records.append(job.get())
                write(args.out, command, table(records, args.budget, args.processes), {"records": records},
                      echo=False)
            if not running and (not todo or end - time.monotonic() <= 5):
                break
            time.sleep(0.2)
    write(args.out, command, table(records, args.budget, args.processes), {"records": records})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
