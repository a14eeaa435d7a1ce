"""An old commit and this tree side by side: `kamicp solve --json` of each on every level, in one run.

Both commits (the new one defaults to HEAD) are checked out into temporary git worktrees and each one's
compiled core is built there (`setup.py build_ext --inplace`), so each runs its own Python and its own C++
core under the same interpreter and libraries, and editing this checkout during the run changes nothing.
The runs are interleaved level by level (old, new, old, new, ...) so that the load of a shared machine
hits both alike. Writes a Markdown table and JSON; every optimum and every proven
bound of the two trees must agree (a disagreement is printed loudly and the exit code is 1). The
table's "s" columns are the solve's own `seconds` from the JSON (the time limit for a level not
solved); "process s" is the whole command, interpreter start-up and imports included.

    .venv/bin/python benchmarks/compare_commits.py --old 41fc94e --time-limit 60 \\
        --out benchmarks/results/compare-redesign  LEVELS/*.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import report  # noqa: E402

# the CLI of whichever tree is first on PYTHONPATH (kamicp's console script is `kamicp.cli:app`)
RUNNER = "import sys; from kamicp.cli import app; sys.argv[0] = 'kamicp'; app()"
CORE_CHECK = "import kamicp, kamicp._fastsearch as core; print(kamicp.__file__); print(core.__file__)"


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def tree_env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env.pop("KAMICP_DEBUG", None)
    return env


def build_core(tree: Path) -> str:
    """Builds the tree's compiled core in place and checks that the tree's own kamicp and core load."""
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, check=True,
                   capture_output=True, env=tree_env(tree))
    out = subprocess.run([sys.executable, "-c", CORE_CHECK], cwd=tree, env=tree_env(tree), check=True,
                         capture_output=True, text=True).stdout.split()
    if not all(Path(p).resolve().is_relative_to(tree.resolve()) for p in out):
        sys.exit(f"{tree}: kamicp or its core was loaded from elsewhere: {out}")
    return out[1]


def run_solve(tree: Path, level: Path, time_limit: float, engine: str) -> dict:
    """One `kamicp solve --json` in a fresh process of its own session (killed whole if it hangs)."""
    cmd = [sys.executable, "-c", RUNNER, "solve", str(level.resolve()), "--json",
           "--time-limit", str(time_limit), "--engine", engine]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=tree, env=tree_env(tree), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=2 * time_limit + 60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return {"status": "hung", "exit": None, "wall": round(time.monotonic() - t0, 3), "error": "killed"}
    wall = round(time.monotonic() - t0, 3)
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        return {"status": "error", "exit": proc.returncode, "wall": wall, "error": err.strip()[-300:]}
    keep = ("status", "optimum", "lower_bound", "upper_bound", "seconds", "regions")
    return {**{k: data.get(k) for k in keep}, "moves": len(data.get("moves") or []),
            "exit": proc.returncode, "wall": wall}


def disagreements(old: dict, new: dict) -> list[str]:
    """What the two answers contradict: optima, or a proven lower bound above the other's solution."""
    bad = [f"{name} failed: {rec.get('error') or rec['status']}" for name, rec in (("old", old), ("new", new))
           if rec["status"] in ("error", "hung")]
    if bad:
        return bad
    if old["status"] == new["status"] == "optimal" and old["optimum"] != new["optimum"]:
        bad.append(f"optimum old {old['optimum']} != new {new['optimum']}")
    for a, b, an, bn in ((old, new, "old", "new"), (new, old, "new", "old")):
        if a["lower_bound"] is not None and b["upper_bound"] is not None and a["lower_bound"] > b["upper_bound"]:
            bad.append(f"{an} proves >= {a['lower_bound']} but {bn} has a solution of {b['upper_bound']}")
    if old["regions"] != new["regions"]:
        bad.append(f"regions old {old['regions']} != new {new['regions']}")
    return bad


def result_text(rec: dict) -> str:
    if rec["status"] == "optimal":
        return f"{rec['optimum']} opt"
    if rec["status"] in ("error", "hung"):
        return rec["status"]
    return f"{rec['lower_bound']}..{rec['upper_bound']} {rec['status']}"


def seconds(rec: dict, limit: float) -> float:
    return limit if rec["status"] != "optimal" else max(rec["seconds"] or 0.0, 1e-3)


def geo_mean(values: list[float]) -> float | None:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def markdown(rows: list[dict], meta: dict) -> str:
    limit = meta["time_limit"]
    lines = [f"old {meta['old']} vs new {meta['new']}, engine {meta['engine']}, --time-limit {limit:g}; "
             f"load at start: {meta['load_start']}; at end: {meta.get('load_end', '(running)')}", "",
             "| level | regions | old s | old | new s | new | new/old | process s old / new | agree |",
             "|---|---:|---:|---|---:|---|---:|---:|---|"]
    for r in rows:
        o, n = r["old"], r["new"]
        ratio = seconds(n, limit) / seconds(o, limit)
        mark = "yes" if not r["disagree"] else "**NO: " + "; ".join(r["disagree"]) + "**"
        lines.append(f"| {r['level']} | {o.get('regions') or n.get('regions')} | {seconds(o, limit):.3f} | "
                     f"{result_text(o)} | {seconds(n, limit):.3f} | {result_text(n)} | {ratio:.2f} | "
                     f"{o['wall']:.2f} / {n['wall']:.2f} | {mark} |")
    lines += ["", summary(rows, limit)]
    return "\n".join(lines) + "\n"


def summary(rows: list[dict], limit: float) -> str:
    """Geo-means of new/old over every level both solved, over those the old tree took >= 0.5 s on, and of
    the whole process (start-up included)."""
    both = [r for r in rows if r["old"]["status"] == r["new"]["status"] == "optimal"]
    ratios = [seconds(r["new"], limit) / seconds(r["old"], limit) for r in both]
    slow = [seconds(r["new"], limit) / seconds(r["old"], limit) for r in both if r["old"]["seconds"] >= 0.5]
    walls = [r["new"]["wall"] / r["old"]["wall"] for r in rows]
    fmt = lambda g: "-" if g is None else f"{g:.2f}"  # noqa: E731
    bad = sum(1 for r in rows if r["disagree"])
    return (f"geo-mean new/old of the solve time: {fmt(geo_mean(ratios))} over {len(ratios)} levels both solved; "
            f"{fmt(geo_mean(slow))} over the {len(slow)} the old tree took >= 0.5 s on; of the whole process "
            f"(start-up included) {fmt(geo_mean(walls))} over all {len(rows)}. "
            f"Disagreements: {bad}.")


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    ap = report.options(__doc__, out=report.RESULTS / "compare-commits")
    ap.add_argument("levels", nargs="*", type=Path)
    ap.add_argument("--old", default="41fc94e", help="the old commit (default: main before the redesign)")
    ap.add_argument("--new", default="HEAD", help="the new commit (default: HEAD)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--from-json", action="store_true", help="only write the Markdown again from OUT.json")
    args = ap.parse_args()
    if args.from_json:
        data = json.loads(report.paths(args.out)[1].read_text())
        write(args.out, data["rows"], data["meta"])
        return
    tmp = Path(tempfile.mkdtemp(prefix="kamicp-compare-"))
    trees = {"old": tmp / "old", "new": tmp / "new"}
    try:
        for name, tree in trees.items():
            git("worktree", "add", "--detach", str(tree), getattr(args, name))
        compare(args, trees["old"], trees["new"])
    finally:
        for tree in trees.values():
            if tree.exists():
                git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(tmp, ignore_errors=True)


def compare(args: argparse.Namespace, old_tree: Path, new_tree: Path) -> None:
    meta = {"old": git("rev-parse", "--short", args.old), "new": git("rev-parse", "--short", args.new),
            "engine": args.engine, "time_limit": args.time_limit, "load_start": load(),
            "command": report.command_line(__file__)}
    print(f"old core: {build_core(old_tree)}\nnew core: {build_core(new_tree)}\n{meta['load_start']}", flush=True)
    rows: list[dict] = []
    for level in args.levels:
        old = run_solve(old_tree, level, args.time_limit, args.engine)
        new = run_solve(new_tree, level, args.time_limit, args.engine)
        row = {"level": level.stem, "old": old, "new": new, "disagree": disagreements(old, new)}
        rows.append(row)
        flag = "  <<< DISAGREEMENT: " + "; ".join(row["disagree"]) if row["disagree"] else ""
        print(f"{level.stem}: old {result_text(old)} {old.get('seconds')} s, "
              f"new {result_text(new)} {new.get('seconds')} s{flag}", flush=True)
        write(args.out, rows, meta)
    meta["load_end"] = load()
    write(args.out, rows, meta)
    print(summary(rows, args.time_limit))
    if any(r["disagree"] for r in rows):
        print("!!! THE OLD AND THE NEW TREE DISAGREE (see the table) !!!", file=sys.stderr)
        sys.exit(1)


def write(out: str, rows: list[dict], meta: dict) -> None:
    report.write(out, meta["command"], markdown(rows, meta), {"meta": meta, "rows": rows}, echo=False)


if __name__ == "__main__":
    main()
