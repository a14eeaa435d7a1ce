"""CP-SAT's parameters for refuting a horizon: seconds per parameter set and seed on one worker, in one run.

    .venv/bin/python benchmarks/cpsat_params.py --at LEVEL=H [--at LEVEL=H ...] [--variants default,lin0,...]
        [--seeds 0,1,2] [--time-limit 120] [--out benchmarks/results/cpsat-params]

Each `--at` names a level and a horizon that CP-SAT refutes (an infeasible horizon: the cost of a proof, which is
what the long proof's CP-SAT beside the cubes spends its time on). The model is `solve`'s (`ModelOptions()`, the
flood model of models/flood.md), built once per level and horizon; each variant solves it with one worker
(as `run_whole` and the race do) and the given seeds (CP-SAT's time on one horizon depends on the seed, so
compare medians). A variant is `solve`'s parameters plus the ones named in VARIANTS. Every answer must be
`infeasible` or `unknown` (a time-out): a variant that finds a solution of a refuted horizon stops the run.
Writes OUT.md and OUT.json.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.config import ModelOptions  # noqa: E402
from kamicp.prover.outcome import Outcome  # noqa: E402


def _branching(name: str) -> object:
    from ortools.sat.python import cp_model_helper  # OR-Tools only where a variant needs its enum

    return getattr(cp_model_helper.SatParameters, name)


# name -> CP-SAT parameters on top of solve's (search_branching values are looked up in OR-Tools' enum)
VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    "lin0": {"linearization_level": 0},
    "lin2": {"linearization_level": 2},
    "sym4": {"symmetry_level": 4},
    "probe0": {"cp_model_probing_level": 0},
    "no-presolve": {"cp_model_presolve": False},
    "no-inprocessing": {"use_sat_inprocessing": False},
    "fixed": {"search_branching": "FIXED_SEARCH"},
    "pseudo-cost": {"search_branching": "PSEUDO_COST_SEARCH"},
    "lp": {"search_branching": "LP_SEARCH"},
    "quick-restart": {"search_branching": "PORTFOLIO_WITH_QUICK_RESTART_SEARCH"},
    "randomized": {"search_branching": "RANDOMIZED_SEARCH"},
}


def parameters(name: str) -> tuple[tuple[str, object], ...]:
    return tuple((key, _branching(value) if key == "search_branching" else value)
                 for key, value in VARIANTS[name].items())


def measure(path: str, horizon: int, variants: list[str], seeds: list[int], limit: float) -> dict:
    from kamicp.prover.model import FloodModel  # OR-Tools only once a horizon needs CP-SAT

    regions = regions_of(load_level(path))
    record: dict = {"level": Path(path).stem, "regions": regions.size, "horizon": horizon, "variants": {}}
    for name in variants:
        model = FloodModel(regions, horizon, ModelOptions(cpsat_parameters=parameters(name)))
        runs = []
        for seed in seeds:
            out = model.solve(time_limit=limit, workers=1, seed=seed)
            if out.status == Outcome.FEASIBLE:
                raise SystemExit(f"{record['level']} horizon {horizon}: {name} found a solution (not refuted)")
            runs.append({"seed": seed, "outcome": str(out.status), "seconds": round(out.seconds, 2)})
            print(record["level"], horizon, name, runs[-1], flush=True)
        record["variants"][name] = runs
    return record


def seconds(runs: list[dict]) -> list[float]:
    """Each run's seconds, a time-out as infinity (longer than any answer)."""
    return [r["seconds"] if r["outcome"] == "infeasible" else float("inf") for r in runs]


def cell(runs: list[dict], limit: float) -> str:
    """'21.4 (20.7-24.5)': the median seconds (a time-out counts as the limit, shown '> limit')."""
    secs = seconds(runs)
    med = statistics.median(secs)
    text = f"> {limit:.0f}" if med == float("inf") else f"{med:.1f}"
    finite = [s for s in secs if s != float("inf")]
    if len(runs) > 1:
        low = f"{min(finite):.1f}" if finite else f"> {limit:.0f}"
        high = f"{max(secs):.1f}" if max(secs) != float("inf") else f"> {limit:.0f}"
        text += f" ({low}-{high})"
    return text


def table(records: list[dict], variants: list[str], limit: float) -> str:
    head = "| level, horizon | " + " | ".join(variants) + " |"
    lines = [head, "|" + "---|" * (len(variants) + 1)]
    for r in records:
        base = statistics.median(seconds(r["variants"][variants[0]]))
        cells = []
        for name in variants:
            runs = r["variants"][name]
            text = cell(runs, limit)
            med = statistics.median(seconds(runs))
            if name != variants[0] and med != float("inf") and base != float("inf"):
                text += f", {med / base:.2f}x"
            cells.append(text)
        lines.append(f"| {r['level']} ({r['regions']} regions), {r['horizon']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\nSeconds of CP-SAT's solve on one worker: the median over the seeds (the range), " \
        f"and the ratio of the medians to the first variant's. `> {limit:.0f}`: no answer within the limit.\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("--at", action="append", required=True, help="LEVEL=H: a level and a horizon CP-SAT refutes")
    ap.add_argument("--variants", default="default,lin0,sym4,probe0,pseudo-cost,no-inprocessing")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve")
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    if unknown := [v for v in variants if v not in VARIANTS]:
        ap.error(f"--variants: unknown {', '.join(unknown)} (known: {', '.join(VARIANTS)})")
    seeds = [int(s) for s in args.seeds.split(",")]
    records = []
    for spec in args.at:
        path, _, h = spec.rpartition("=")
        records.append(measure(path, int(h), variants, seeds, args.time_limit))
        write(args.out, command_line(__file__, argv), table(records, variants, args.time_limit),
              {"records": records, "variants": {v: {k: str(x) for k, x in VARIANTS[v].items()} for v in variants}},
              echo=False)
    print(table(records, variants, args.time_limit))


if __name__ == "__main__":
    main()
