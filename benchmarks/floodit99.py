"""The "99problems" Flood-It boards (the standard benchmark of exact Flood-It solvers): optimum, proven or
not, time and peak memory per board, totals by size and colours.

    nice .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --time-limit 600 --out benchmarks/results/floodit99
    nice .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --rules free --time-limit 10 \\
        --out benchmarks/results/floodit99-free
    .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --rules free --via-cli --time-limit 600 --only '^12_12_06'
    .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --rules free --workers 1 --jobs 16 --only '^16_' ...

BOARDS_DIR holds the boards in their own format (kamicp/formats/flood99.py; the folder is not part of the
repository); an ANCHOR-TIMES.md beside them (| board | optimum | ms |) adds the published times of
ColorFill, and the boards then run in the order of those times (the easiest first). Each board is solved
in a fresh process (`--one`), so that its peak memory (ru_maxrss, the largest of the process and its
workers) and CPU time (with its workers') are its own (also with `--jobs N`, N boards side by side): `--rules pivot` by
`kamicp.floodit.solve_pivot` (the compiled A*), `--rules free` (Kami's rules: any region may be
recoloured) by `kamicp.prover.solver.solve` (the library's race), or with `--via-cli` by the `kamicp solve`
command as a user runs it (the race, then the long proof's cubes on this machine's cores). A proven optimum
that differs from the file's is an error (exit 1). The load average of the machine is recorded before and
after. Writes OUT.md (table, command, machine) and OUT.json (records), and OUT.partial.json while it runs.

With `--colorfill CF_DIR` (a local build of ColorFill, smack42/ColorFill: `classes/` compiled from its
`src/` and its `lib/`; never part of this repository) ColorFill's A* (Puchert strategy) solves the same
boards in one JVM *beside* kamicp's boards (one core each, so both see the same machine), in the same order:
the JVM's CPU time (all its threads; `os.wait4`), the same less a JVM given no board, and its own
milliseconds per board. kamicp's CPU per board is counted twice: the solve alone (after the board is
read) and the whole process (interpreter start and imports included). The sample (`SAMPLE`: every ninth
board of the 99 by name, eleven boards) is totalled apart, from the same run.

    nice .venv/bin/python benchmarks/floodit99.py BOARDS_DIR --workers 1 --colorfill /work/colorfill \\
        --out benchmarks/results/floodit99-colorfill
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.floodit99_builds import colorfill_command, pack_line  # noqa: E402
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
    """One board in a fresh process (`--one`, or with `--via-cli` the `kamicp solve` command); its CPU seconds
    with its workers' (os.wait4: this child's own, so boards run side by side with `--jobs` are counted apart).
    Stopped, and an error, after twice its limit."""
    way = VIA_CLI if args.via_cli else ONE_PROCESS
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(way.command(path, args), stdout=out, stderr=err, text=True)
        process, stopped, peak = _reap(proc, args.time_limit * 2 + 120)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode not in way.answered or stopped:
        why = f"stopped after {args.time_limit * 2 + 120:g} s" if stopped else stderr.strip()[-500:]
        return {"board": path.name, "rules": args.rules, "status": "error", "error": why,
                "optimum": None, "published": None, "seconds": None, "cpu": None, "peak_mb": None}
    return way.record(path, args, json.loads(stdout), Usage(time.monotonic() - t0, process, peak))


@dataclass(frozen=True)
class Usage:
    """What a board's process used: wall seconds, CPU seconds (its workers' included) and peak MB."""

    seconds: float
    cpu: float
    peak_mb: float


@dataclass(frozen=True)
class Way:
    """How `run_board` runs a board: its command line, the exit codes that come with a JSON answer, and the
    record made of that answer."""

    command: Callable[[Path, argparse.Namespace], list[str]]
    answered: tuple[int, ...]
    record: Callable[[Path, argparse.Namespace, dict, Usage], dict]


def one_command(path: Path, args: argparse.Namespace) -> list[str]:
    """This script's `--one` on one board (the library's solve in a process of its own)."""
    return [sys.executable, __file__, "--one", str(path), "--rules", args.rules, "--time-limit",
            str(args.time_limit), "--engine", args.engine] + (
        ["--workers", str(args.workers)] if args.workers else []) + (
        ["--memory-mb", str(args.memory_mb)] if args.memory_mb else [])


def one_record(path: Path, args: argparse.Namespace, answer: dict, usage: Usage) -> dict:
    """`--one`'s record as it wrote it, with the CPU of its whole process."""
    return {**answer, "process_cpu": usage.cpu}


def cli_command(path: Path, args: argparse.Namespace) -> list[str]:
    """`kamicp solve` on one board, as a user starts it: plain solve (the race, then the long proof's cubes on
    this machine's cores, models/cubes.md) under the rules of `--rules`."""
    return [sys.executable, "-m", "kamicp", "solve", "--format", "flood99", "--rules",
            args.rules, "--time-limit", f"{args.time_limit:g}", "--json",
            str(path)] + (["--workers", str(args.workers)] if args.workers else [])


def cli_record(path: Path, args: argparse.Namespace, answer: dict, usage: Usage) -> dict:
    """A board's record from the command's JSON answer: its CPU and peak memory are the whole process's (its
    workers' included), its seconds the command's wall time; `proof` its horizons (steps, outcome, engine,
    seconds). The published optimum is read from the board, as the answer does not carry it."""
    from kamicp import load_level

    proof = [{k: h.get(k) for k in ("steps", "outcome", "engine", "seconds")} for h in answer.get("proof", [])]
    return {"board": path.name, "rules": args.rules, "status": answer["status"], "optimum": answer.get("optimum"),
            "lower": answer.get("lower_bound"), "upper": answer.get("upper_bound"),
            "published": load_level(path, "flood99").par, "regions": answer.get("regions"),
            "engine": answer.get("engine"), "workers": answer.get("workers"), "seconds": usage.seconds,
            "cpu": usage.cpu, "process_cpu": usage.cpu, "peak_mb": usage.peak_mb, "via": "cli", "proof": proof}


ONE_PROCESS = Way(one_command, (0,), one_record)
VIA_CLI = Way(cli_command, (0, 1, 3), cli_record)  # (the command's exit codes with a JSON answer: docs/exit-codes.md)


def run_boards(paths: list[Path], args: argparse.Namespace, done: Callable[[list[dict]], None]) -> list[dict]:
    """Every board of `paths` (`args.jobs` at a time, each in its own process), `done(record)` as each ends."""
    records = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:  # (threads: each only waits on its process)
        for future in as_completed([pool.submit(run_board, path, args) for path in paths]):
            records.append(future.result())
            done(records)
    return records


SAMPLE_EVERY = 9  # the sample: every ninth board of the 99 by name (eleven boards), from the same run
CF_BOARD = re.compile(r"^(\d+)\s+(\S+?)\s*milliSeconds=(\d+)", re.MULTILINE)  # (a long solution: no space)


def sample(names: list[str]) -> list[str]:
    return sorted(names)[::SAMPLE_EVERY]


def read_colorfill_log(text: str) -> dict[int, tuple[int, int]]:
    """ColorFill's -benchmark output: board number (from 1) -> (solution length, milliseconds). A line shows
    the solution, padding and its length (`5241...835____________25`)."""
    def length(shown: str) -> int:
        return int(shown.rsplit("_", 1)[1]) if "_" in shown else len(shown)

    return {int(k): (length(shown), int(ms)) for k, shown, ms in CF_BOARD.findall(text)}


def _reap(proc: subprocess.Popen, within: float | None = None) -> tuple[float, bool, float]:
    """Wait for `proc` (stopped after `within` seconds); its CPU seconds, all its threads and the children it
    waited for (os.wait4: this child's own, not the others'), whether it was stopped, and its peak memory in MB
    (the largest of it and those children)."""
    deadline = None if within is None else time.monotonic() + within
    pause = 0.01  # (short boards end within a fraction of a second; long ones are polled once a second)
    while deadline is not None and time.monotonic() < deadline:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime, False, usage.ru_maxrss / 1024
        time.sleep(pause)
        pause = min(1.0, pause * 2)
    if deadline is not None:
        proc.terminate()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, deadline is not None, usage.ru_maxrss / 1024


def start_colorfill(paths: list[Path], colorfill: Path, work: Path, heap_gb: int = 6) -> tuple[subprocess.Popen, float]:
    """ColorFill's JVM on `paths` (in this order), started now; it runs while kamicp's boards do."""
    board_file = work / "boards.txt"
    board_file.write_text("".join(pack_line(str(p)) + "\n" for p in paths))
    with open(work / "colorfill.log", "w") as log:
        jvm = subprocess.Popen(colorfill_command(colorfill, board_file, heap_gb), stdout=log, stderr=subprocess.STDOUT)
    return jvm, time.monotonic()


def finish_colorfill(proc: subprocess.Popen, started: float, colorfill: Path, work: Path,
                     stop: float | None = None, heap_gb: int = 6) -> dict:
    """The JVM's CPU and wall seconds (stopped `stop` seconds after kamicp's last board, if given), its
    solution length and milliseconds per board it finished (in order), and the CPU seconds of the same
    JVM given no board (its start-up)."""
    cpu, stopped, _ = _reap(proc, stop)
    wall = time.monotonic() - started
    (work / "empty.txt").write_text("")
    idle = subprocess.Popen(colorfill_command(colorfill, work / "empty.txt", heap_gb), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    return {"cpu": cpu, "wall": wall, "startup_cpu": _reap(idle)[0], "exit": proc.returncode, "stopped": stopped,
            **boards_of((work / "colorfill.log").read_text())}


def boards_of(log: str) -> dict:
    """The per-board facts of ColorFill's output, in board order (up to the last board it finished)."""
    done = read_colorfill_log(log)
    count = max(done, default=0)
    return {"moves": [done.get(k, (None, None))[0] for k in range(1, count + 1)],
            "ms": [done.get(k, (None, None))[1] for k in range(1, count + 1)]}


def colorfill_tables(records: list[dict], order: list[str], cf: dict, every: list[str] | None = None) -> list[str]:
    """Per board and in total (the sample apart): kamicp's CPU against ColorFill's, same boards, same run. A
    ColorFill stopped before the end: its CPU so far is a lower bound on what the whole set costs it."""
    by_name = {r["board"]: r for r in records}
    cf_ms = {n: ms for n, ms in zip(order, cf["ms"], strict=False) if ms is not None}
    cf_len = {n: m for n, m in zip(order, cf["moves"], strict=False) if m is not None}
    lines = ["| board | kamicp | ColorFill | kamicp CPU s (solve) | kamicp CPU s (process) | ColorFill s (its timer) "
             "| kamicp solve / ColorFill |", "|---|---|---|---|---|---|---|"]
    for name in sorted(order):
        r, ms = by_name[name], cf_ms.get(name)
        ratio = f"{r['cpu'] / (ms / 1000):.2f}" if ms and r.get("cpu") is not None else "-"
        lines.append(f"| {name} | {r['optimum'] if r['optimum'] is not None else r['status']} | "
                     f"{cf_len.get(name, 'not reached')} | {_num(r['cpu'])} | {_num(r.get('process_cpu'))} | "
                     f"{_num(None if ms is None else ms / 1000)} | {ratio} |")
    net = cf["cpu"] - cf["startup_cpu"]
    finished = len(cf_len) == len(order)
    at_least = "" if finished else ">= "
    ended = "stopped by the run" if cf.get("stopped") else f"ended (exit {cf.get('exit')})"
    how = "" if finished else (f", **{ended} after {len(cf_len)} of {len(order)} boards** (its CPU so far is a "
                               "lower bound on the set's)")
    total = ["", f"ColorFill: one JVM, {cf['wall']:.0f} s of wall time beside kamicp's boards, {cf['cpu']:.1f} s of "
             f"CPU (all its threads; a JVM given no board: {cf['startup_cpu']:.1f} s){how}.", "",
             "| boards | agree | kamicp CPU s (solve) | kamicp CPU s (process) | ColorFill s (its timer, sum) | "
             "ColorFill JVM CPU s | solve / ColorFill timer | process / ColorFill JVM CPU less start-up |",
             "|---|---|---|---|---|---|---|---|"]
    picked = sample(order) if every is None else [n for n in sample(every) if n in order]  # (every: the folder's)
    groups = [(f"sample of {len(picked)} (every {SAMPLE_EVERY}th)", picked)]
    if not finished:
        groups.append((f"the {len(cf_ms)} ColorFill solved", [n for n in order if n in cf_ms]))
    for label, names in (*groups, (f"all {len(order)}", order)):
        rs = [by_name[n] for n in names]
        agree = sum(r["optimum"] is not None and r["optimum"] == cf_len.get(r["board"]) for r in rs)
        solve = sum(r["cpu"] or 0.0 for r in rs)
        process = sum(r.get("process_cpu") or 0.0 for r in rs)
        timer = sum(cf_ms.get(n, 0) for n in names) / 1000
        part = "" if all(n in cf_ms for n in names) else ">= "
        whole = f"{at_least}{cf['cpu']:.1f}" if len(names) == len(order) else "-"
        vs_jvm = f"{'<= ' if at_least else ''}{process / net:.2f}" if len(names) == len(order) and net > 0 else "-"
        ratio = f"{'<= ' if part else ''}{solve / timer:.2f}" if timer else "-"
        total.append(f"| {label} | {agree}/{len(rs)} | {solve:.1f} | {process:.1f} | {part}{timer:.1f} | {whole} | "
                     f"{ratio} | {vs_jvm} |")
    return total + ["", *lines]


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
    ap.add_argument("--jobs", type=int, default=1, help="boards at once, each in its own process (default 1: one "
                    "board at a time; under --rules free with --workers 1 a board's race shares one core)")
    ap.add_argument("--colorfill", help="a local build of ColorFill (classes/ and lib/) to run beside kamicp")
    ap.add_argument("--colorfill-stop", type=float, help="stop ColorFill this many seconds after kamicp's last board "
                    "(default: wait for it); its CPU so far is then a lower bound")
    ap.add_argument("--colorfill-heap", type=int, default=6, help="ColorFill's Java heap in GB (default 6)")
    ap.add_argument("--colorfill-alone", action="store_true", help="no kamicp: ColorFill alone, one JVM per board, "
                    "its CPU until it solves the board or runs out of its heap (a lower bound then)")
    ap.add_argument("--tally", nargs=2, metavar=("RESULT_JSON", "COLORFILL_LOG"), help="no run: the tables again "
                    "from a run's JSON and ColorFill's saved output (a run whose JVM was stopped by hand; '-': the "
                    "output the JSON kept)")
    ap.add_argument("--via-cli", action="store_true", help="each board by the `kamicp solve` command, as a user "
                    "runs it (under --rules free: the race, then the long proof's cubes on --workers processes, "
                    "default the CPUs), not by the library's solve (the race alone)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: one board in this process, JSON out
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(solve_one(args.one, args.rules, args.time_limit, args.memory_mb, args.engine, args.workers)))
        return
    if not args.boards_dir:
        ap.error("BOARDS_DIR is required")
    folder = Path(args.boards_dir)
    every = sorted(p.name for p in folder.iterdir() if NAME.fullmatch(p.name))  # (the sample is taken from all)
    paths = sorted(p for p in folder.iterdir() if NAME.fullmatch(p.name) and re.search(args.only, p.name))
    published_ms = anchors(folder)
    paths.sort(key=lambda p: (published_ms.get(p.name, 0), p.name))  # the published easiest first
    if args.tally:
        tally(args, [p.name for p in paths], every, published_ms, argv)
        return
    if args.colorfill_alone:
        if not args.colorfill:
            ap.error("--colorfill-alone needs --colorfill CF_DIR")
        colorfill_alone(args, paths, argv)
        return
    if args.jobs > 1 and args.colorfill:
        ap.error("--jobs runs boards side by side; ColorFill beside them wants one board at a time")
    load_before = os.getloadavg()
    wrong: list[str] = []
    work = Path(tempfile.mkdtemp(prefix="kamicp-floodit99-"))
    jvm = start_colorfill(paths, Path(args.colorfill), work, args.colorfill_heap) if args.colorfill else None
    partial = Path(args.out).with_suffix(".partial.json")  # what is done so far, should the run be stopped
    partial.parent.mkdir(parents=True, exist_ok=True)

    def done(so_far: list[dict]) -> None:
        rec = so_far[-1]
        if rec["status"] == "optimal" and args.rules == "pivot" and rec["published"] not in (None, rec["optimum"]):
            wrong.append(rec["board"])
        partial.write_text(json.dumps({"command": command_line("floodit99.py", argv), "records": so_far}, indent=1))
        print(f"[{len(so_far)}/{len(paths)}] {rec['board']}: {rec['status']} {rec['optimum']} "
              f"({_num(rec['seconds'])} s, {_num(rec['peak_mb'], 0)} MB, load {os.getloadavg()[0]:.1f})",
              file=sys.stderr, flush=True)

    records = run_boards(paths, args, done)
    cf = (finish_colorfill(*jvm, Path(args.colorfill), work, args.colorfill_stop, args.colorfill_heap)
          if jvm is not None else None)
    shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()
    before, after = (", ".join(f"{x:.1f}" for x in load) for load in (load_before, load_after))
    machine = (f"{os.cpu_count()} cores; load average (1, 5, 15 min) before {before}, after {after}; "
               f"rules {args.rules}, "
               + ("the `kamicp solve` command" if args.via_cli else f"engine {args.engine}")
               + f", {args.time_limit:g} s per board"
               + (f", {args.jobs} boards at once" if args.jobs > 1 else "")
               + (f"; ColorFill's heap {args.colorfill_heap} GB" if args.colorfill else ""))
    command = command_line("floodit99.py", argv)
    records.sort(key=lambda r: r["board"])
    lines = [machine, "", *totals(records, published_ms), "", *table(records, published_ms)]
    order = [p.name for p in paths]
    if cf is not None:
        lines += ["", "### Beside ColorFill", *colorfill_tables(records, order, cf, every)]
        wrong += disagreements(records, order, cf)
    write(args.out, command, "\n".join(lines), {"records": records, "order": order, "colorfill": cf,
                                                  "conditions": machine})
    Path(args.out).with_suffix(".partial.json").unlink(missing_ok=True)
    if wrong:
        raise SystemExit(f"proven optima differ from the published ones on {', '.join(wrong)}")


def colorfill_alone(args: argparse.Namespace, paths: list[Path], argv: list[str] | None) -> None:
    """ColorFill alone, one JVM per board (nothing beside it): its CPU seconds per board until it solves the
    board or stops (out of its heap: then the CPU spent is a lower bound on what the board costs it)."""
    rows, lines = [], ["| board | ColorFill | its ms | JVM CPU s | exit |", "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="kamicp-colorfill-") as work:
        for path in paths:
            board_file = Path(work) / "board.txt"
            board_file.write_text(pack_line(str(path)) + "\n")
            with open(Path(work) / "log.txt", "w") as log:
                jvm = subprocess.Popen(colorfill_command(Path(args.colorfill), board_file, args.colorfill_heap),
                                       stdout=log, stderr=subprocess.STDOUT)
            cpu, _, _ = _reap(jvm)
            text = (Path(work) / "log.txt").read_text()
            moves, ms = read_colorfill_log(text).get(1, (None, None))
            status = "out of heap" if "OutOfMemoryError" in text else str(jvm.returncode)
            rows.append({"board": path.name, "moves": moves, "ms": ms, "cpu": cpu, "exit": status})
            lines.append(f"| {path.name} | {moves if moves is not None else 'not solved'} | {ms if ms else '-'} | "
                         f"{cpu:.1f} | {status} |")
            print(lines[-1], file=sys.stderr, flush=True)
    unsolved = [r for r in rows if r["moves"] is None]
    total, lower = sum(r["cpu"] for r in rows), sum(r["cpu"] for r in unsolved)
    lines.append(f"\nColorFill, heap {args.colorfill_heap} GB: {len(rows) - len(unsolved)}/{len(rows)} solved; "
                 f"{total:.1f} s of JVM CPU in all ({lower:.1f} s of it on boards it could not finish: a lower "
                 f"bound on what they cost it).")
    write(args.out, command_line("floodit99.py", argv), "\n".join(lines), {"colorfill_alone": rows})


def disagreements(records: list[dict], order: list[str], cf: dict) -> list[str]:
    by_name = {r["board"]: r for r in records}
    return [n for n, m in zip(order, cf["moves"], strict=False) if m is not None
            and by_name[n]["optimum"] not in (None, m)]


def tally(args: argparse.Namespace, order: list[str], every: list[str], published_ms: dict[str, int],
          argv: list[str] | None) -> None:
    """The tables of a finished run again, ColorFill's per-board facts read from its saved output."""
    result, log = (Path(p) for p in args.tally)
    data = json.loads(result.read_text())
    records, cf = data["records"], {**data["colorfill"], **({} if log.name == "-" else boards_of(log.read_text()))}
    machine = data.get("conditions", "(the run's load average was not recorded)")
    lines = [f"Run at commit {data.get('commit')}; these tables made again from its JSON and ColorFill's output.",
             "", machine, "", *totals(records, published_ms), "", *table(records, published_ms), "",
             "### Beside ColorFill", *colorfill_tables(records, order, cf, every)]
    command = data["command"] + " (tables: " + command_line("floodit99.py", argv) + ")"
    write(args.out, command, "\n".join(lines), {**data, "order": order, "colorfill": cf})
    wrong = disagreements(records, order, cf)
    if wrong:
        raise SystemExit(f"ColorFill's optima differ on {', '.join(wrong)}")


if __name__ == "__main__":
    main()
