"""What the open horizon of a proof will cost: an estimate, never a bound.

`Estimate` is what the progress line, `--json` of an `unknown` answer and the cluster plan carry: the
horizon being refuted, its predicted search nodes, the seconds at the measured rate on this machine, and
the core-hours that makes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Estimate:
    """The predicted cost of refuting `horizon` (an estimate, never a bound): `nodes` of the compiled search,
    `seconds` at `rate` nodes per second on one core of this machine, `core_hours` the same in core-hours;
    `method` names how it was predicted."""

    horizon: int
    nodes: float
    seconds: float
    rate: float
    method: str

    @property
    def core_hours(self) -> float:
        return self.seconds / 3600.0

    def to_dict(self) -> dict:
        return {"horizon": self.horizon, "nodes": round(self.nodes), "seconds": round(self.seconds, 1),
                "core_hours": round(self.core_hours, 3), "rate": round(self.rate), "method": self.method}
