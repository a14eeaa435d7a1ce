"""Two or more builds of the compiled core (kamicp/_fastsearch*.so files, e.g. one built from an older
commit) compared on the pivot A* in the same run: per board, the builds take turns, each in a fresh
process, with a limit on CPU time rather than wall time (the machine is shared: CPU time is what a
build costs, wall time is what the other users leave). Node counts must agree between builds that
share a bound; the table shows CPU seconds, the ratio to the first build, stored sets and bytes. A build
given as BUILD@N runs the A* on N threads (kamicp/_core/flood_astar.hpp, `lanes`): the wall-time ratio
then says what the threads bring, the CPU ratio what they cost (compare them on a quiet machine). A build
given as BUILD:no-order (or BUILD@N:no-order) runs without the fixed order of independent moves
(models/bounds.md, "Moves in a fixed order"), for that rule's ablation in one run:

    nice .venv/bin/python benchmarks/floodit99_builds.py BOARDS_DIR kamicp/_fastsearch*.so@1:no-order \
        kamicp/_fastsearch*.so@1 --out benchmarks/results/floodit99-order

    nice .venv/bin/python benchmarks/floodit99_builds.py BOARDS_DIR old.so new.so \\
        --only '^(12_12_10_073|16_16_08_002)$' --cpu-limit 600 --out benchmarks/results/floodit99-builds
    .venv/bin/python benchmarks/floodit99_builds.py BOARDS_DIR core.so@1 core.so@2 --out ...

BOARDS_DIR holds boards in the 99problems format (kamicp/formats/flood99.py), or is one of the field's
pack files of one board a line (`../shared/flood1000/bNcKn1000.txt`, pivot the first cell; `--boards 1-100`
picks some). With `--colorfill CF_DIR` (a local build of ColorFill, smack42/ColorFill: `classes/` compiled
from its `src/` and its `lib/`; never part of this repository) the same boards also go to ColorFill's A*
(Puchert strategy) in one JVM, as its `-benchmark` mode runs a set, after the builds: its CPU time (the
JVM's, start-up and compiler threads included) and the same less that of a JVM given no board, against the
sum of each build's CPU time. Writes OUT.md and OUT.json.

    nice .venv/bin/python benchmarks/floodit99_builds.py ../shared/flood1000/b12c12n1000.txt core.so \\
        --boards 1-100 --colorfill /work/colorfill --out benchmarks/results/flood-colorfill
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402

NAME = re.compile(r"[0-9]+_[0-9]+_[0-9]+_[0-9]+")
SLICE = 2.0  # seconds of search between looks at the CPU clock


KEYS = "123456789abcdefghijklmnopqrstuvwxyz"  # a colour's character in the packs' one-line format


def load_board(path: str):
    """The level at `path`: a 99problems file, or PACK#K, the K-th board (from 1) of a pack file."""
    from kamicp import load_level
    from kamicp.formats.flood_pack import read_flood_pack

    pack, _, k = path.rpartition("#")
    if pack and k.isdigit():
        return read_flood_pack(pack)[int(k) - 1]
    return load_level(path, "flood99")


def pack_line(path: str) -> str:
    """The board at `path` in the packs' one-line format (what ColorFill's -benchmark reads)."""
    pack, _, k = path.rpartition("#")
    if pack and k.isdigit():
        return [line.strip() for line in Path(pack).read_text().splitlines() if line.strip()][int(k) - 1]
    numbers = [line for line in Path(path).read_text().splitlines() if line.strip() and not line.startswith("#")]
    return "".join(KEYS[int(v) - 1] for v in numbers[1].split())


def board_paths(source: Path, only: str, picks: str) -> list[str]:
    """The boards to run: the 99problems files of a folder whose names match `only`, or boards of a pack."""
    if source.is_dir():
        return sorted(str(p) for p in source.iterdir() if NAME.fullmatch(p.name) and re.search(only, p.name))
    first, _, last = picks.partition("-")
    count = sum(1 for line in source.read_text().splitlines() if line.strip())
    lo, hi = int(first or 1), int(last or first or count) if picks else count
    return [f"{source}#{k}" for k in range(lo, min(hi, count) + 1)]


def colorfill_command(colorfill: Path, board_file: Path, heap_gb: int = 6) -> list[str]:
    """ColorFill's -benchmark run of its A* (Puchert strategy) on `board_file`, one JVM with a heap of `heap_gb` GB."""
    classpath = f"{colorfill / 'classes'}{os.pathsep}{colorfill / 'lib'}/*"
    return ["java", f"-Xms{heap_gb}G", f"-Xmx{heap_gb}G", "-cp", classpath, "colorfill.ui.Starter", "-benchmark",
            str(board_file), "AStarPuchertStrategy"]


def colorfill_cpu(lines: list[str], colorfill: Path) -> dict:
    """ColorFill's A* (Puchert) on these boards in one JVM: its CPU seconds (the child's, all its threads), wall
    seconds, the solutions' lengths, and the CPU seconds of the same JVM given no board (its start-up)."""
    def one(text: str) -> tuple[float, float, list[int]]:
        with tempfile.TemporaryDirectory() as work:
            board_file = Path(work) / "boards.txt"
            board_file.write_text(text)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.monotonic()
            subprocess.run(colorfill_command(colorfill, board_file), capture_output=True, text=True, check=True)
            wall = time.monotonic() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = Path(f"{board_file}_solution_AStarPuchertStrategy.txt")
            lengths = [len(s.strip()) for s in out.read_text().splitlines() if s.strip()] if out.exists() else []
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return cpu, wall, lengths

    cpu, wall, lengths = one("\n".join(lines) + "\n")
    idle, _, _ = one("")
    return {"cpu": cpu, "wall": wall, "moves": lengths, "startup_cpu": idle}


def run_one(build: str, path: str, cpu_limit: float, memory_mb: int | None) -> dict:
    """One board by one build in this process: status, moves, bound, nodes, CPU and wall seconds, peak MB."""
    from kamicp.floodit.astar import MEMORY_MB, bytes_per_set
    from kamicp.floodit.game import pivot_game

    spec_, _, variant = build.partition(":")
    path_, _, threads = spec_.partition("@")
    if variant not in ("", "no-order"):
        raise SystemExit(f"{build}: the only variant is :no-order")
    spec = importlib.util.spec_from_file_location("kamicp._fastsearch", path_)
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    game = pivot_game(load_board(path))
    t0, w0 = time.process_time(), time.monotonic()
    handle = core.flood_create([list(a) for a in game.regions.adj], list(game.regions.colours),
                               len(game.regions.palette), game.start, final=-1 if game.final is None else game.final,
                               cap=max(1, (memory_mb or MEMORY_MB) * 2**20 // bytes_per_set(game.n)),
                               **({"lanes": int(threads)} if threads else {}),
                               **({"order": False} if variant == "no-order" else {}))
    while True:
        info = core.flood_run(handle, seconds=SLICE)
        if info["status"] != "running" or time.process_time() - t0 >= cpu_limit:
            break
    return {"board": Path(path).name, "path": path, "build": build, "status": info["status"],
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


def colorfill_table(records: list[dict], builds: list[str], cf: dict) -> list[str]:
    """Each build's CPU time on all the boards against ColorFill's on the same boards (below 1: faster)."""
    boards = sorted({r["board"] for r in records})
    net = cf["cpu"] - cf["startup_cpu"]
    lines = [f"\nColorFill (one JVM, {len(boards)} boards): {cf['cpu']:.1f} s CPU ({cf['startup_cpu']:.1f} s of it a "
             f"JVM given no board), {cf['wall']:.1f} s wall; solutions {sum(cf['moves'])} moves in all.\n",
             "| build | boards proven | moves in all | CPU s | / ColorFill CPU | / ColorFill CPU less start-up |",
             "|---|---|---|---|---|---|"]
    for i, build in enumerate(builds):
        mine = [r for r in records if r["index"] == i]
        cpu = sum(r["cpu"] for r in mine)
        moves = sum(r["moves"] or 0 for r in mine)
        proven = sum(r["status"] == "optimal" for r in mine)
        lines.append(f"| {Path(build).name} | {proven}/{len(mine)} | {moves} | {cpu:.1f} | {cpu / cf['cpu']:.2f} | "
                     f"{cpu / net if net > 0 else float('nan'):.2f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out="benchmarks/results/floodit99-builds")
    ap.add_argument("boards_dir", nargs="?")
    ap.add_argument("builds", nargs="*", help="compiled cores (.so files, BUILD@N: on N threads); the first is the "
                    "reference")
    ap.add_argument("--only", default="", help="a regular expression the board names must match")
    ap.add_argument("--boards", default="", help="of a pack file: the boards A-B (from 1; default all)")
    ap.add_argument("--colorfill", help="a local build of ColorFill (classes/ and lib/) to run on the same boards")
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
    paths = board_paths(Path(args.boards_dir), args.only, args.boards)
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
    lines, data = table(records, args.builds), {"records": records}
    if args.colorfill:
        data["colorfill"] = colorfill_cpu([pack_line(p) for p in paths], Path(args.colorfill))
        lines += colorfill_table(records, args.builds, data["colorfill"])
        mine = {r["path"]: r["moves"] for r in records if r["index"] == 0}
        data["colorfill_agrees"] = [mine[p] for p in paths] == data["colorfill"]["moves"]
        lines.append(f"\nColorFill's solution lengths equal the first build's optima on every board: "
                     f"{'yes' if data['colorfill_agrees'] else 'NO'}")
    command = command_line("floodit99_builds.py", argv)
    write(args.out, command, "\n".join(lines), data)


if __name__ == "__main__":
    main()
