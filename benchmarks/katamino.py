"""Katamino: the compiled bitboard engine, CP-SAT and Algorithm X side by side in one run.

    .venv/bin/python benchmarks/katamino.py --cap 60 --slow-max-n 6 --out benchmarks/results/katamino

Part 1: all 12 pentominoes on the classic rectangles (free packing), every tiling counted (and up to
symmetry) by each engine; the slow engines (cpsat, dlx) stop at --cap seconds and the table says so.
Part 2: every set of N distinct pentominoes on the 5 x N board under the game's rule (the I lies
lengthwise) and under free packing: one solution or a proof that none exists, by the fast engine for
N = 3..12 and by all three for N <= --slow-max-n (they must agree; the script stops if not). Part 3:
the example book puzzles/katamino/book.json, every puzzle solved and counted. CPU seconds are this
process's (time.process_time), wall seconds beside them. Writes OUT.md (the command, the machine, the
tables) and OUT.json (every record), and prints the tables.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, command_line, options, write  # noqa: E402
from kamicp.katamino import KATAMINO_ENGINES as ENGINES  # noqa: E402
from kamicp.katamino import (  # noqa: E402
    LETTERS,
    KataminoStatus,
    Puzzle,
    Rule,
    shorthand,
    solve_book,
    solve_katamino,
)
from kamicp.katamino.files import read_book  # noqa: E402

SLOW = ("cpsat", "dlx")


def timed(puzzle: Puzzle, **kwargs):
    """solve_katamino(puzzle, **kwargs), its CPU seconds and its wall seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = solve_katamino(puzzle, **kwargs)
    return value, time.process_time() - cpu, time.perf_counter() - wall


def counts(boards: list[str], cap: float) -> list[dict]:
    records = []
    for board in boards:
        rec: dict = {"board": board}
        for engine in ENGINES:
            limit = None if engine == "fast" else cap
            result, cpu, wall = timed(shorthand(board, LETTERS, Rule.FREE), engine=engine, count=True,
                                      time_limit=limit)
            rec[engine] = {"count": result.count, "distinct": result.distinct, "complete": result.complete,
                           "cpu": round(cpu, 4), "wall": round(wall, 4)}
            print(f"{board} {engine}: {result.distinct} up to symmetry, {cpu:.2f} s CPU", file=sys.stderr, flush=True)
        done = {(rec[e]["count"], rec[e]["distinct"]) for e in ENGINES if rec[e]["complete"]}
        if len(done) > 1:
            raise SystemExit(f"engines disagree on {board}: {rec}")
        records.append(rec)
    return records


def piece_sets(rule: Rule, slow_max_n: int, cap: float) -> list[dict]:
    records = []
    for n in range(3, 13):
        engines = ENGINES if n <= slow_max_n else ("fast",)
        rec: dict = {"n": n, "rule": rule.value, "sets": 0, "solvable": 0}
        seconds = {e: 0.0 for e in engines}
        for combo in combinations(LETTERS, n):
            puzzle = Puzzle(5, n, "".join(combo), rule=rule)
            status = set()
            for engine in engines:
                result, cpu, _ = timed(puzzle, engine=engine, time_limit=cap)
                seconds[engine] += cpu
                status.add(result.status)
            if len(status - {KataminoStatus.UNKNOWN}) > 1:
                raise SystemExit(f"engines disagree on 5x{n} {puzzle.pieces} ({rule.value}): {status}")
            rec["sets"] += 1
            rec["solvable"] += KataminoStatus.SOLVED in status
        rec["cpu"] = {e: round(s, 4) for e, s in seconds.items()}
        print(f"5x{n} {rule.value}: {rec['solvable']} of {rec['sets']}", file=sys.stderr, flush=True)
        records.append(rec)
    return records


def book(path: Path, count: bool) -> dict:
    loaded = read_book(path)
    wall, cpu = time.perf_counter(), time.process_time()
    results = [r for _, r in solve_book(loaded, engine="fast", count=count)]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    tally = {s.value: sum(r.status is s for r in results) for s in KataminoStatus}
    return {"book": path.name, "count": count, "challenges": len(loaded.challenges),
            "puzzles": len(results), **tally, "cpu": round(cpu, 4), "wall": round(wall, 4)}


def _cell(rec: dict, engine: str) -> str:
    r = rec[engine]
    if r["complete"]:
        return f"{r['cpu']:.2f}"
    return f"> {r['cpu']:.1f} (cap hit at {r['wall']:.0f} s wall; {r['distinct']} found)"


def _ratio(rec: dict, engine: str) -> str:
    return f"{rec[engine]['cpu'] / rec['fast']['cpu']:.0f}x" + ("" if rec[engine]["complete"] else "+")


def counts_table(records: list[dict], cap: float) -> list[str]:
    lines = [f"Free packing, every tiling counted (CPU s; cpsat and dlx stopped at {cap:g} s of wall time, the "
             "ratio then a lower bound, marked +):", "",
             "| board | solutions | up to symmetry | fast CPU s | fast wall s | cpsat CPU s | dlx CPU s | "
             "cpsat / fast | dlx / fast |", "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        lines.append(f"| {r['board']} | {r['fast']['count']} | {r['fast']['distinct']} | {r['fast']['cpu']:.3f} | "
                     f"{r['fast']['wall']:.3f} | {_cell(r, 'cpsat')} | {_cell(r, 'dlx')} | {_ratio(r, 'cpsat')} | "
                     f"{_ratio(r, 'dlx')} |")
    return lines


def sets_table(records: list[dict]) -> list[str]:
    lines = ["Every set of N pieces on 5 x N, solved or proven impossible (CPU s for all the sets):", "",
             "| board | sets | solvable (game's rule) | solvable (free) | fast s (rule) | cpsat s (rule) | "
             "dlx s (rule) |", "|---|---|---|---|---|---|---|"]
    for game in (r for r in records if r["rule"] == "katamino"):
        free = next(r for r in records if r["rule"] == "free" and r["n"] == game["n"])
        cpu = {e: f"{game['cpu'][e]:.2f}" if e in game["cpu"] else "-" for e in ENGINES}
        lines.append(f"| 5x{game['n']} | {game['sets']} | {game['solvable']} | {free['solvable']} | {cpu['fast']} | "
                     f"{cpu['cpsat']} | {cpu['dlx']} |")
    return lines


def book_table(records: list[dict]) -> list[str]:
    lines = ["The example book by the fast engine:", "",
             "| book | mode | challenges | puzzles | solved | impossible | unknown | CPU s | wall s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        mode = "count" if r["count"] else "solve"
        lines.append(f"| {r['book']} | {mode} | {r['challenges']} | {r['puzzles']} | {r['solved']} | "
                     f"{r['impossible']} | {r['unknown']} | {r['cpu']:.2f} | {r['wall']:.2f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out=RESULTS / "katamino")
    ap.add_argument("--counts", default="3x20,4x15,5x12,6x10", help="rectangles to count (comma-separated)")
    ap.add_argument("--cap", type=float, default=60.0, help="seconds per count for cpsat and dlx")
    ap.add_argument("--slow-max-n", type=int, default=6, help="cpsat and dlx solve the 5 x N sets up to this N")
    ap.add_argument("--no-sets", action="store_true", help="skip part 2 (smoke runs)")
    ap.add_argument("--book", default=str(ROOT / "puzzles" / "katamino" / "book.json"))
    args = ap.parse_args(argv)
    rects = counts([b for b in args.counts.split(",") if b], args.cap)
    sets = [] if args.no_sets else [r for rule in Rule for r in piece_sets(rule, args.slow_max_n, args.cap)]
    books = [book(Path(args.book), count) for count in (False, True)]
    md = [*counts_table(rects, args.cap), "", *(sets_table(sets) + [""] if sets else []), *book_table(books)]
    write(args.out, command_line(__file__, argv), "\n".join(md), {"counts": rects, "sets": sets, "books": books})


if __name__ == "__main__":
    main()
