"""Is `--time-limit S` honoured? Solve each level under each limit and compare the wall time with S.

    .venv/bin/python benchmarks/time_limit.py [LEVEL_OR_FOLDER ...] [--limit 5 --limit 20]
        [--size 250 --size 1000 --size 3000] [--engine auto] [--out benchmarks/results/time-limit]

Besides the given levels (files, or folders of .json levels), it generates graph levels of the given
sizes: a rows x cols grid of nodes, properly coloured in 5 colours (every node its own region). Each run
is a fresh process: the solve's wall time (the library call, from `solve()` to its return, every phase
included: region graph, bounds, greedy, beam, rollouts, model building, the race and the wait for its
workers) is compared with the bound S + max(10 % of S, 0.5 s); the interpreter's start-up (imports) is
measured in the same process and reported apart. Writes a Markdown table and JSON.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, Out, command_line, write  # noqa: E402

SHAPES = {250: (10, 25), 1000: (25, 40), 3000: (50, 60)}

app = typer.Typer(add_completion=False)

CHILD = """
import json, sys, time
t0 = time.monotonic()
from kamicp import load_level, solve
level = load_level(sys.argv[1])
started = time.monotonic()
res = solve(level, time_limit=float(sys.argv[2]), engine=sys.argv[3])
done = time.monotonic()
print(json.dumps({"startup": started - t0, "wall": done - started, "status": res.status,
                  "lower": res.lower_bound, "upper": res.upper_bound, "regions": res.regions}))
"""


def grid_graph(n: int, seed: int = 0) -> dict:
    """A graph level of n nodes on a grid, properly coloured in 5 colours (n regions)."""
    rows, cols = SHAPES.get(n, (1, n))
    rng = random.Random(seed + n)
    colour: dict[tuple[int, int], str] = {}
    nodes, edges = {}, []
    for r in range(rows):
        for c in range(cols):
            k = r * cols + c + 1
            taken = {colour.get((r - 1, c)), colour.get((r, c - 1))}
            colour[r, c] = rng.choice([x for x in "ABCDE" if x not in taken])
            nodes[str(k)] = colour[r, c]
            edges += [[k - cols, k]] * (r > 0) + [[k - 1, k]] * (c > 0)
    return {"name": f"graph-{n}", "geometry": "graph", "nodes": nodes, "edges": edges}


def levels(paths: list[Path], sizes: list[int], tmp: Path) -> list[Path]:
    out = []
    for p in paths:
        out += sorted(p.glob("*.json")) if p.is_dir() else [p]
    for n in sizes:
        path = tmp / f"graph-{n}.json"
        path.write_text(json.dumps(grid_graph(n)))
        out.append(path)
    return out


def run(path: Path, limit: float, engine: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), str(limit), engine], capture_output=True,
                          text=True, cwd=ROOT, timeout=limit * 10 + 120)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout)


def row(name: str, limit: float, r: dict) -> str:
    if "error" in r:
        return f"| {name} | | {limit:g} | error: {r['error']} | | | | |"
    bound = limit + max(0.1 * limit, 0.5)
    ok = "yes" if r["wall"] <= bound else "**no**"
    upper = "?" if r["upper"] is None else r["upper"]
    return (f"| {name} | {r['regions']} | {limit:g} | {r['wall']:.2f} | {bound:.2f} | {ok} | {r['startup']:.2f} | "
            f"{r['status']} {r['lower']}..{upper} |")


@app.command()
def main(
    paths: Annotated[list[Path] | None, typer.Argument(help="Level files or folders of .json levels.")] = None,
    limit: Annotated[list[float] | None, typer.Option("--limit", help="Time limits in seconds.")] = None,
    size: Annotated[list[int] | None, typer.Option("--size", help="Generated graph sizes (regions).")] = None,
    engine: Annotated[str, typer.Option("--engine")] = "auto",
    out: Out = RESULTS / "time-limit",
) -> None:
    limits = limit or [5.0]
    sizes = [250, 1000, 3000] if size is None else size
    lines = ["| level | regions | limit s | solve wall s | bound s | held | start-up s | answer |",
             "|---|---:|---:|---:|---:|---|---:|---|"]
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in levels(paths or [], sizes, Path(tmp)):
            for s in limits:
                r = run(path, s, engine)
                records.append({"level": path.stem, "limit": s, **r})
                lines.append(row(path.stem, s, r))
                print(lines[-1], flush=True)
    write(out, command_line(__file__), "\n".join([time.strftime("%Y-%m-%d %H:%M"), "", *lines]), {"runs": records})


if __name__ == "__main__":
    app()
