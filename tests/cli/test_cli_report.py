"""The printed proof (kamicp/cli/report.py): implied horizons shown as one row."""

from __future__ import annotations

from kamicp.prover.config import BoundOptions, SearchOptions, SolveOptions
from kamicp.prover.horizons import run_horizons
from kamicp.prover.outcome import Horizon
from tests.helpers.boardsets import bench_level
from tests.helpers.requests import kami_request


def test_proof_table_shows_implied_horizons_as_one_row():
    import multiprocessing as mp

    from rich.console import Console

    from kamicp.cli.report import proof_table
    from kamicp.prover.race import Ledger

    level = bench_level("gen-tri-90b5c-mirror-proper-s703")
    ledger = Ledger(mp.get_context())
    ledger.publish(Horizon(9, "infeasible", 12.0, "cpsat"))  # implies 7 and 8 (the bound says 7
    res = run_horizons(kami_request(level, "search", 60, max_steps=9), coordinator=ledger,  # without the clusters)
                       options=SolveOptions(bound=BoundOptions(clusters=0, pivot=0), search=SearchOptions(clusters=0)))
    assert [h.outcome for h in res.proof_by_horizon()] == ["bound", "implied", "implied", "infeasible"]
    console = Console(width=120, record=True)
    console.print(proof_table(res))
    text = console.export_text()
    assert "7-8" in text and text.count("impossible: implied by 9") == 1 and text.count("implied by") == 2  # + its note


def test_the_bound_note_names_the_pivot_relation_where_it_raises_the_bound(tmp_path):
    """A 6-region board where radius and colours give 2 and the pivot game from a far region needs 5 moves, so
    the free game needs 3 (models/pivot-free.md): the note says so, the JSON bound has `pivot` 3, and without
    the term the bound is 2 (the optimum, 3, is the same)."""
    import json

    from typer.testing import CliRunner

    from kamicp.cli import app

    level = tmp_path / "pivot.json"
    level.write_text(json.dumps({"name": "pivot-note", "geometry": "square", "rows": ["..AB", "BABC"]}))
    res = CliRunner().invoke(app, ["solve", str(level)])
    text = " ".join(res.output.split())  # (the note wraps at the console's width)
    assert res.exit_code == 0, res.output
    assert "lower bound 3" in text and "the pivot game from far regions raises the bound from 2" in text
    data = json.loads(CliRunner().invoke(app, ["solve", str(level), "--json"]).stdout)
    assert (data["bound"]["value"], data["bound"]["pivot"], data["optimum"]) == (3, 3, 3)
    off = json.loads(CliRunner().invoke(app, ["solve", str(level), "--json", "--no", "pivot-bound"]).stdout)
    assert (off["bound"]["value"], off["bound"]["pivot"], off["optimum"]) == (2, 0, 3)
