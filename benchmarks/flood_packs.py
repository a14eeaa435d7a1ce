"""Flood-It packs of 1000 boards validated whole, kamicp against ColorFill, one set after the other in one run.

    nice .venv/bin/python benchmarks/flood_packs.py SETS_DIR --colorfill CF_DIR --jobs 2 \\
        --out benchmarks/results/flood-packs
    nice .venv/bin/python benchmarks/flood_packs.py SETS_DIR --boards 100 --sets b10c15n1000 pc19-tiles

SETS_DIR holds the field's sets (`NAME.txt`, and `NAME.colorfill-optimal.txt` with one optimal solution a
line; not part of the repository). kamicp runs `kamicp validate NAME.txt --format floodpack --rules pivot
--pars NAME.colorfill-optimal.txt --jobs J --workers 1 --json` in a fresh process (so its start-up counts),
and a set is right when every verdict is "correct" (each optimum proven equal to ColorFill's). CF_DIR is a
local build of ColorFill (smack42/ColorFill: `classes/` compiled from its `src/`, and its `lib/`; never part
of this repository): `java -Xms6G -Xmx6G -cp classes:lib/* colorfill.ui.Starter -benchmark NAME.txt
AStarPuchertStrategy` on a copy of the set, one JVM, one thread, and a set is right when every solution's
length equals the optimal file's. `--boards N` takes the first N boards of each set. Wall seconds of both;
kamicp's ratio to ColorFill (below 1: kamicp is faster). `--before TREE`: the same `validate` with another
tree's kamicp first on PYTHONPATH (an older commit's checkout), right after this tree's, for a ratio of the
two in one run. Writes OUT.md and OUT.json.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.floodit99_builds import colorfill_command  # noqa: E402
from benchmarks.report import command_line, options, write  # noqa: E402

SETS = ("b10c15n1000", "b12c12n1000", "b14c8n1000", "b18c6n1000", "b24c4n1000", "pc19-tiles", "floodtest-1000")
CENTRE = {"floodtest-1000": "9,9"}  # the Code Golf boards: the pivot is the centre cell
BLOCKS = {"floodtest-1000": 20}  # lines a board takes (19 rows and a blank line); one a line otherwise


def _take(text: str, count: int | None, lines_per_board: int = 1) -> str:
    if count is None:
        return text
    return "\n".join(text.splitlines()[:count * lines_per_board]) + "\n"


def kamicp_run(board_file: Path, pars: Path, name: str, jobs: int, time_limit: float, tree: Path | None = None
               ) -> dict:
    command = [sys.executable, "-m", "kamicp", "validate", str(board_file), "--format", "floodpack", "--rules",
               "pivot", "--pars", str(pars), "--jobs", str(jobs), "--workers", "1", "--json",
               "--time-limit", str(time_limit)]
    if name in CENTRE:
        command += ["--pivot", CENTRE[name]]
    # another tree's kamicp: run in that tree (`-m` puts the working directory first on sys.path)
    env = os.environ | ({"PYTHONPATH": str(tree)} if tree is not None else {})
    start = time.monotonic()
    done = subprocess.run(command, cwd=tree or ROOT, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    try:
        rows = json.loads(done.stdout)
    except ValueError:
        return {"seconds": seconds, "correct": 0, "boards": 0, "error": done.stderr[-500:]}
    return {"seconds": seconds, "boards": len(rows), "correct": sum(r["verdict"] == "correct" for r in rows),
            "exit": done.returncode}


def colorfill_run(board_file: Path, optima: list[int], colorfill: Path) -> dict:
    command = colorfill_command(colorfill, board_file)
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - start
    out = Path(f"{board_file}_solution_AStarPuchertStrategy.txt")
    lengths = [len(line.strip()) for line in out.read_text().splitlines()] if out.exists() else []
    correct = sum(a == b for a, b in zip(lengths, optima, strict=False))
    return {"seconds": seconds, "boards": len(lengths), "correct": correct, "exit": done.returncode}


def one_set(folder: Path, name: str, args, work: Path) -> dict:
    boards = _take((folder / f"{name}.txt").read_text(), args.boards, BLOCKS.get(name, 1))
    solutions = _take((folder / f"{name}.colorfill-optimal.txt").read_text(), args.boards)
    board_file, pars = work / f"{name}.txt", work / f"{name}.pars"
    board_file.write_text(boards)
    pars.write_text(solutions)
    record = {"set": name, "kamicp": kamicp_run(board_file, pars, name, args.jobs, args.time_limit)}
    if args.before:
        record["before"] = kamicp_run(board_file, pars, name, args.jobs, args.time_limit, Path(args.before))
    if args.colorfill:
        optima = [len(line.strip()) for line in solutions.splitlines() if line.strip()]
        record["colorfill"] = colorfill_run(board_file, optima, Path(args.colorfill))
    return record


def table(records: list[dict]) -> str:
    before = any("before" in r for r in records)
    lines = ["| set | boards | kamicp correct | kamicp s (wall) | ColorFill right | ColorFill s (wall) | kamicp / "
             "ColorFill |" + (" kamicp before: correct | s (wall) | now / before |" if before else ""),
             "|---|---|---|---|---|---|---|" + ("---|---|---|" if before else "")]
    for r in records:
        k, c, b = r["kamicp"], r.get("colorfill"), r.get("before")
        ratio = f"{k['seconds'] / c['seconds']:.2f}" if c and c["seconds"] else "-"
        cf = (f"{c['correct']}/{c['boards']}", f"{c['seconds']:.1f}") if c else ("-", "-")
        old = (f" {b['correct']}/{b['boards']} | {b['seconds']:.1f} | {k['seconds'] / b['seconds']:.2f} |" if b
               else " - | - | - |" if before else "")
        lines.append(f"| {r['set']} | {k['boards']} | {k['correct']}/{k['boards']} | {k['seconds']:.1f} | {cf[0]} | "
                     f"{cf[1]} | {ratio} |{old}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = options(__doc__)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--colorfill", default=None, help="a local build of ColorFill (classes/ and lib/)")
    ap.add_argument("--sets", nargs="*", default=list(SETS))
    ap.add_argument("--boards", type=int, default=None, help="the first N boards of each set")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--before", help="another tree of kamicp (a checkout of an older commit, its compiled core "
                    "built or copied in) run on each set right after this one")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per board for kamicp")
    args = ap.parse_args(argv)
    command = command_line(__file__, argv)
    records: list[dict] = []
    work = Path(tempfile.mkdtemp(prefix="kamicp-flood-packs-"))
    try:
        for name in args.sets:
            records.append(one_set(args.folder, name, args, work))
            write(args.out, command, table(records), {"records": records}, echo=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write(args.out, command, table(records), {"records": records})
    wrong = [r["set"] for r in records if r["kamicp"]["correct"] != r["kamicp"]["boards"]]
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
