"""Two or more builds of the compiled core (kamicp/_fastsearch*.so files, e.g. one built from an older
commit) compared on the pivot A* in the same run: per board, the builds take turns, each in a fresh
process, with a limit on CPU time rather than wall time (the machine is shared: CPU time is what a
build costs, wall time is what the other users leave). Node counts must agree between builds that
share a bound; the table shows CPU seconds, the ratio to the first build, stored sets and bytes. A build
given as BUILD@N runs the A* on N threads (kamicp/_core/flood_astar.hpp, `lanes`): the wall-time ratio
then says what the threads bring, the CPU ratio what they cost (compare them on a quiet machine).

    nice .venv/bin/python benchmarks/floodit99_builds.py BOARDS_DIR old.so new.so \\
        --only '^(12_12_10_073|16_16_08_002)$' --cpu-limit 600 --out benchmarks/results/floodit99-builds
    .venv/bin/python benchmarks/floodit99_builds.py BOARDS_DIR core.so@1 core.so@2 --out ...

BOARDS_DIR holds boards in the 99problems format (kamicp/formats/flood99.py). Writes OUT.md and OUT.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402

NAME = re.compile(r"[0-9]+_[0-9]+_[0-9]+_[0-9]+")
SLICE = 2.0  # seconds of search between looks at the CPU clock


def run_one(build: str, path: str, cpu_limit: float, memory_mb: int | None) -> dict:
    """One board by one build in this process: status, moves, bound, nodes, CPU and wall seconds, peak MB."""
    from kamicp import load_level
    from kamicp.floodit.astar import MEMORY_MB, bytes_per_set
    from kamicp.floodit.game import pivot_game

    path_, _, threads = build.partition("@")
    spec = importlib.util.spec_from_file_location("kamicp._fastsearch", path_)
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    game = pivot_game(load_level(path, "flood99"))
    t0, w0 = time.process_time(), time.monotonic()
    handle = core.flood_create([list(a) for a in game.regions.adj], list(game.regions.colors),
                               len(game.regions.palette), game.start, final=-1 if game.final is None else game.final,
                               cap=max(1, (memory_mb or MEMORY_MB) * 2**20 // bytes_per_set(game.n)),
                               **({"lanes": int(threads)} if threads else {}))
    while True:
        info = core.flood_run(handle, seconds=SLICE)
        if info["status"] != "running" or time.process_time() - t0 >= cpu_limit:
            break
    return {"board": Path(path).name, "build": build, "status": info["status"],
            "moves": None if info["plan"] is None else len(info["plan"]), "lower": info["lower"],
            "expanded": info["expanded"], "stored": info["stored"], "bytes": info["bytes"],
            "cpu": time.process_time() - t0, "wall": time.monotonic() - w0,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def table(records: list[dict], builds: list[str]) -> list[str]:
    lines = ["| board | build | result | expanded | stored | CPU s | x first build | wall s | x first (wall) | "
             "peak MB |", "|---|---|---|---|---|---|---|---|---|---|"]
    first = {r["board"]: r["cpu"] for r in records if r["index"] == 0}
    first_wall = {r["board"]: r["wall"] for r in records if r["index"] == 0}
    for r in records:
        got = r["moves"] if r["status"] == "optimal" else f"{r['status']}, >= {r['lower']}"
        speed = first[r["board"]] / r["cpu"] if r["cpu"] > 0 else float("nan")
        wall = first_wall[r["board"]] / r["wall"] if r["wall"] > 0 else float("nan")
        lines.append(f"| {r['board']} | {Path(r['build']).name} | {got} | {r['expanded']:,} | {r['stored']:,} | "
                     f"{r['cpu']:.1f} | {speed:.2f} | {r['wall']:.1f} | {wall:.2f} | {r['peak_mb']:.0f} |")
    for i, build in enumerate(builds[1:], start=1):  # geometric mean of the speed-ups over the boards proved
        done = [r for r in records if r["index"] == i and r["status"] == "optimal" and r["cpu"] > 0 and r["wall"] > 0]
        if done:
            cpu = math.exp(sum(math.log(first[r["board"]] / r["cpu"]) for r in done) / len(done))
            wall = math.exp(sum(math.log(first_wall[r["board"]] / r["wall"]) for r in done) / len(done))
            lines.append(f"\n{Path(build).name} against {Path(builds[0]).name}: {cpu:.2f}x in CPU time, {wall:.2f}x "
                         f"in wall time (geometric means over {len(done)} boards)")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out="benchmarks/results/floodit99-builds")
    ap.add_argument("boards_dir", nargs="?")
    ap.add_argument("builds", nargs="*", help="compiled cores (.so files, BUILD@N: on N threads); the first is the "
                    "reference")
    ap.add_argument("--only", default="", help="a regular expression the board names must match")
    ap.add_argument("--cpu-limit", type=float, default=600.0, help="CPU seconds per board and build")
    ap.add_argument("--memory-mb", type=int, help="the A*'s budget of stored sets (default: the library's, half the "
                    "machine's memory)")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # internal: BUILD BOARD in this process
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], args.cpu_limit, args.memory_mb)))
        return
    if not args.boards_dir or not args.builds:
        ap.error("BOARDS_DIR and at least one build are required")
    folder = Path(args.boards_dir)
    paths = sorted(p for p in folder.iterdir() if NAME.fullmatch(p.name) and re.search(args.only, p.name))
    records = []
    for path in paths:
        for i, build in enumerate(args.builds):
            cmd = [sys.executable, __file__, "--one", build, str(path), "--cpu-limit", str(args.cpu_limit)]
            cmd += ["--memory-mb", str(args.memory_mb)] if args.memory_mb else []
            out = subprocess.run(cmd, capture_output=True, text=True, check=True)
            records.append({**json.loads(out.stdout), "index": i})
            r = records[-1]
            print(f"{r['board']} {Path(build).name}: {r['status']} {r['moves']} ({r['cpu']:.1f} s CPU)",
                  file=sys.stderr, flush=True)
    command = command_line("floodit99_builds.py", argv)
    write(args.out, command, "\n".join(table(records, args.builds)), {"records": records})


if __name__ == "__main__":
    main()
