"""The beam's upper bound: plan length and time per level for several beam variants, in one run.

The beam is never a proof; a shorter plan only lowers the horizon the solver must reach and, when it is
the optimum, ends the proof as soon as the shorter horizons are refuted. Every plan is replayed by the
rules engine before it is counted.

    .venv/bin/python benchmarks/beam.py --out benchmarks/results/v4-beam FOLDER/*.json \\
        benchmarks/levels/*.json

A variant is `name=closeness:budget:width/fan/ring,width/fan/ring,...` (ring and closeness 0 or 1);
the defaults compare round 3's beam with round 4's (the closeness tie-break, a new schedule, 2 s).
Writes a Markdown table and JSON.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.board.rules import verify  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.outcome import to_moves  # noqa: E402
from kamicp.prover.search import beam_plan, compiled_core  # noqa: E402

DEFAULT_VARIANTS = (
    "r3=0:1:8/40/0,8/40/1,32/60/0",  # round 3: no closeness tie-break, at most 1 s
    "r4=1:2:8/40/0,32/60/1,8/40/1",  # round 4 (the default): closeness, the wide pass with the ring rule, 2 s
    "r4-1s=1:1:8/40/0,32/60/1,8/40/1",  # the same within round 3's budget
)


def parse_variant(text: str) -> tuple[str, bool, float, tuple[tuple[int, int, bool], ...]]:
    """`name=closeness:budget:w/f/r,...` -> (name, closeness, budget, schedule)."""
    name, _, spec = text.partition("=")
    close, budget, passes = spec.split(":")
    schedule = tuple(
        (int(w), int(f), r == "1") for w, f, r in (p.split("/") for p in passes.split(","))
    )
    return name, close == "1", float(budget), schedule


def run(files: list[str], variants: list[str]) -> list[dict]:
    parsed = [parse_variant(v) for v in variants]
    rows = []
    for path in files:
        level = load_level(path)
        regions = regions_of(level)
        row: dict = {"level": Path(path).stem, "regions": regions.size}
        for name, close, budget, schedule in parsed:
            t0 = time.perf_counter()
            plan = beam_plan(regions.adj, regions.colours, len(regions.palette), seconds=budget,
                             schedule=schedule, closeness=close)
            secs = time.perf_counter() - t0
            if plan is not None:
                verify(level, to_moves(regions, plan))
            row[name] = {"moves": None if plan is None else len(plan), "seconds": round(secs, 3)}
        rows.append(row)
        print(row["level"], *(f"{n}={row[n]['moves']}" for n, *_ in parsed), file=sys.stderr, flush=True)
    return rows


def table(rows: list[dict], names: list[str]) -> str:
    out = ["| level | regions | " + " | ".join(f"{n} moves | {n} s" for n in names) + " |",
           "|---|---|" + "---|---|" * len(names)]
    for r in rows:
        out.append(f"| {r['level']} | {r['regions']} | "
                   + " | ".join(f"{r[n]['moves']} | {r[n]['seconds']:.2f}" for n in names) + " |")
    base = names[0]
    for n in names[1:]:
        shorter = sum(1 for r in rows if r[n]["moves"] is not None and r[base]["moves"] is not None
                      and r[n]["moves"] < r[base]["moves"])
        longer = sum(1 for r in rows if r[n]["moves"] is not None and r[base]["moves"] is not None
                     and r[n]["moves"] > r[base]["moves"])
        total = sum(r[n]["moves"] or 0 for r in rows)
        out.append(f"\n{n} vs {base}: shorter on {shorter}, longer on {longer} of {len(rows)} levels; "
                   f"total moves {total} vs {sum(r[base]['moves'] or 0 for r in rows)}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--variant", action="append", help="name=closeness:budget:w/f/r,... (repeatable)")
    args = ap.parse_args(argv)
    if compiled_core is None:
        sys.exit("the compiled core is not built (python setup.py build_ext --inplace)")
    variants = args.variant or list(DEFAULT_VARIANTS)
    rows = run(args.levels, variants)
    names = [parse_variant(v)[0] for v in variants]
    text = table(rows, names)
    write(args.out, command_line(__file__, argv), text, {"rows": rows})


if __name__ == "__main__":
    main()
