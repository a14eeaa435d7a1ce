"""The printed proof (kamicp/cli/report.py): implied horizons shown as one row."""

from __future__ import annotations

from kamicp.prover.config import BoundOptions, SearchOptions, SolveOptions
from kamicp.prover.horizons import run_horizons
from kamicp.prover.outcome import Horizon
from kamicp.prover.request import Budget
from tests.helpers.boardsets import bench_level


def test_proof_table_shows_implied_horizons_as_one_row():
    import multiprocessing as mp

    from rich.console import Console

    from kamicp.cli.report import proof_table
    from kamicp.prover.race import Ledger

    level = bench_level("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context())
    ledger.publish(Horizon(9, "infeasible", 12.0, "cpsat"))  # implies 7 and 8 (the bound says 7
    res = run_horizons(level, "search", Budget(max_steps=9, time_limit=60), coordinator=ledger,  # without the clusters)
                       options=SolveOptions(bound=BoundOptions(clusters=0, pivot=0), search=SearchOptions(clusters=0)))
    assert [h.outcome for h in res.proof_by_horizon()] == ["bound", "implied", "implied", "infeasible"]
    console = Console(width=120, record=True)
    console.print(proof_table(res))
    text = console.export_text()
    assert "7-8" in text and text.count("impossible: implied by 9") == 1 and text.count("implied by") == 2  # + its note
