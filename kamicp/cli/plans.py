"""The cluster plan (kamicp.prover.plan) in words, one line: "about 40 core-hours: 20 h on 2 cores here, 2.5 h
on 16 workers, 25 min on 100 workers (--dask tcp://HOST:PORT)". An estimate, never a bound: the line says
"about"."""

from __future__ import annotations

from kamicp.prover.plan import ClusterPlan

MINUTE, HOUR, DAY, YEAR = 60.0, 3600.0, 86400.0, 365.25 * 86400.0


def about(x: float) -> str:
    """`x` to two significant digits, without a false precision: 0.021, 3.2, 40, 1,200."""
    if x <= 0:
        return "0"
    rounded = float(f"{x:.2g}")
    return f"{rounded:,.0f}" if rounded >= 10 else f"{rounded:g}"


def duration(seconds: float) -> str:
    """A duration in the unit a person would use: 45 s, 25 min, 3.2 h, 6 days, 2.5 years (two digits)."""
    for unit, size, over in (("years", YEAR, 2 * YEAR), ("days", DAY, 2 * DAY), ("h", HOUR, 1.5 * HOUR),
                             ("min", MINUTE, 1.5 * MINUTE)):
        if seconds >= over:
            return f"{about(seconds / size)} {unit}"
    return f"{about(seconds)} s"


def describe_plan(plan: ClusterPlan, here: int | None = None, address: str = "tcp://HOST:PORT") -> str:
    """The plan on one line; the row of `here` workers (this machine's cores) reads "on N cores here"."""
    rows = ", ".join(f"{duration(r.seconds)} on {r.workers} {'cores here' if r.workers == here else 'workers'}"
                     for r in plan.rows)
    longest = "" if plan.longest is None else f"; its longest cube alone about {duration(plan.longest)}"
    return f"about {about(plan.core_hours)} core-hours: {rows} (--dask {address}){longest}"
