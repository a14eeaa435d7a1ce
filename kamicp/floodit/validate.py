"""Pars under the Flood-It rules: `validate_pivot` is `kamicp.solver.validate` with the pivot solver (the
same `Validation`, so pack rows and reports need nothing new), and `parse_pivot` reads a `--pivot` text."""

from __future__ import annotations

import re

from kamicp.errors import UsageError
from kamicp.floodit.game import pivot_cell
from kamicp.floodit.solver import solve_pivot
from kamicp.level import Label, Level
from kamicp.limits import MAX_DIGITS
from kamicp.runtime.text import cut
from kamicp.solver import NO_SOLUTION, UNKNOWN, Validation

_PIVOT_INT = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")  # few enough digits for int() (not '9' * 5000)


def parse_pivot(level: Level, text: str | None) -> Label | None:
    """The pivot's label from a text `ROW,COL` (a node id on graph levels); None for the default
    (the top-left cell). UsageError when malformed or not a cell of `level`."""
    if text is None:
        return None
    label: Label = text.strip()
    if level.geometry != "graph":
        parts = text.split(",")
        if len(parts) != 2 or not all(_PIVOT_INT.fullmatch(p.strip()) for p in parts):
            raise UsageError(f"--pivot: expected ROW,COL such as 0,0, got {cut(text)!r}")
        label = (int(parts[0]), int(parts[1]))
    pivot_cell(level, label)  # raises when it is not a cell
    return label


def validate_pivot(level: Level, par: int | None = None, pivot: Label | None = None, *, slack: int = 2,
                   **kwargs) -> Validation:
    """Check a par under the Flood-It rules: solve up to par + slack pivot moves and compare the proven
    bounds with it (verdicts as `kamicp.solver.validate`). `kwargs` go to `solve_pivot`."""
    par = level.par if par is None else par
    if par is None:
        raise UsageError(f"{level.name or 'level'}: no par given (in the file or with --par)")
    if not isinstance(par, int) or par < 0:
        raise UsageError(f"par must be a non-negative integer, got {par!r}")
    res = solve_pivot(level, pivot, max_steps=par + slack, **kwargs)
    if res.status == NO_SOLUTION or res.lower_bound > par:  # (islands of several colours: none at all)
        verdict = "unachievable"
    elif res.upper_bound is not None and res.upper_bound < par:
        verdict = "not-minimal"
    elif res.lower_bound == par and res.upper_bound == par:
        verdict = "correct"
    else:
        verdict = UNKNOWN
    return Validation(level.name, par, verdict, res)
