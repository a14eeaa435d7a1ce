"""The solving layer's contracts: typed answers, the options registry, a race worker's failure as an error."""

from __future__ import annotations

import json
import os

import pytest

from kamicp.errors import WorkerError
from kamicp.formats import load_level
from kamicp.prover.config import TECHNIQUES, ModelOptions, SolveOptions, options_without
from kamicp.prover.outcome import EngineName, Outcome, Status
from kamicp.prover.solver import solve
from kamicp.runtime.clock import Deadline
from tests.helpers import PUZZLES
from tests.helpers.requests import kami_request

HARBOUR = PUZZLES / "tri-harbour.json"


def test_answers_are_enums_equal_to_their_old_strings():
    res = solve(load_level(HARBOUR), engine="search")
    assert res.status is Status.OPTIMAL and res.status == "optimal"
    assert all(isinstance(h.outcome, Outcome) and isinstance(h.engine, EngineName) for h in res.proof)
    data = json.loads(json.dumps(res.to_dict(load_level(HARBOUR))))
    assert data["status"] == "optimal" and data["engine"] == "search"
    outcomes = [h["outcome"] for h in data["proof"]]  # the bound, each horizon above it refuted, the optimum
    assert outcomes == ["bound"] + ["infeasible"] * (res.optimum - res.bound.value) + ["feasible"]
    assert res.optimum > res.bound.value  # (tri-harbour: bound 5, optimum 6)


def test_every_technique_switches_one_field_off():
    base = SolveOptions()
    for name, t in TECHNIQUES.items():
        changed = options_without([name])
        assert getattr(getattr(changed, t.part), t.name) == t.off, name
        others = [p for p in ("model", "cpsat", "search", "bound", "upper", "race") if p != t.part]
        assert all(getattr(changed, p) == getattr(base, p) for p in others), name
    assert options_without([], ModelOptions(tight_colours=False)).model.tight_colours is False


def _crashing_worker(target_kwargs: dict) -> tuple[dict, dict]:
    """One race worker (the real `worker_main`) with a pipe, as `_race` starts them."""
    import multiprocessing as mp

    from kamicp.prover.race import worker_main

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=worker_main, args=(child, *target_kwargs["args"], os.getpid()), daemon=True)
    proc.start()
    child.close()
    return {parent: "cpsat"}, {"cpsat": proc}


def test_a_crashing_worker_is_an_error_with_its_message():
    from kamicp.prover.race import collect
    from kamicp.runtime.processes import stop

    bad = SolveOptions(model=ModelOptions(cpsat_parameters=(("no_such_parameter", 1),)))
    conns, procs = _crashing_worker({"args": (kami_request(load_level(HARBOUR), "cpsat", 30), {"options": bad})})
    try:
        with pytest.raises(WorkerError, match="cpsat worker failed: AttributeError.*no_such_parameter"):
            collect(conns, procs, Deadline.slice(30), None)
    finally:
        stop(procs.values())
    assert not any(p.is_alive() for p in procs.values())


def test_a_worker_that_dies_is_an_error_with_its_exit_code():
    import multiprocessing as mp

    from kamicp.prover.race import collect
    from kamicp.runtime.processes import stop

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=os._exit, args=(7,), daemon=True)
    proc.start()
    child.close()
    try:
        with pytest.raises(WorkerError, match="search worker failed: process ended without an answer .exit code 7"):
            collect({parent: "search"}, {"search": proc}, Deadline.slice(30), None)
    finally:
        stop([proc])
