"""What the open horizon of a proof will cost: an estimate, never a bound.

`Estimate` is what the progress line, `--json` of an `unknown` answer and the cluster plan carry: the
horizon being refuted, its predicted search nodes, the seconds at the measured rate on this machine, and
the core-hours that makes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kamicp.runtime.clock import NEVER, Deadline


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

    def at_least(self, nodes: float) -> Estimate:
        """This estimate, never below `nodes` (what the search has already visited on the horizon)."""
        return self if nodes <= self.nodes else replace(self, nodes=nodes, seconds=nodes / self.rate)

    def to_dict(self) -> dict:
        return {"horizon": self.horizon, "nodes": round(self.nodes), "seconds": round(self.seconds, 1),
                "core_hours": round(self.core_hours, 3), "rate": round(self.rate), "method": self.method}


@dataclass(frozen=True)
class HorizonCost:
    """What refuting one horizon cost the compiled search of this run (with its table): its nodes and wall
    seconds."""

    horizon: int
    nodes: int
    seconds: float


UNCALIBRATED = "knuth-uncalibrated"  # no horizon refuted yet: the table's saving not measured
RATE_SAMPLES = 4  # live rate samples needed before an uncalibrated estimate is given
PROBE_SECONDS = 0.3  # one call's probing time, at most (it runs on a core the workers want)
PROBES = 100_000  # dives, at most: the time runs out first on levels worth estimating
CALIBRATE_NODES = 1_000  # a refuted horizon smaller than this says nothing reliable about the table's effect
RATE_SECONDS = 0.05  # the refuted horizons' seconds needed to measure a rate


def growth(horizon: int, history: Sequence[HorizonCost]) -> float | None:
    """nodes(h-1)^2 / nodes(h-2): the last measured growth between horizons, once more (None without both)."""
    by = {h.horizon: h.nodes for h in history}
    last, before = by.get(horizon - 1), by.get(horizon - 2)
    if not last or not before:
        return None
    return last * (last / before)


def rate(history: Sequence[HorizonCost]) -> float | None:
    """Nodes per second of the refuted horizons together (None while too little time was measured)."""
    seconds = sum(h.seconds for h in history)
    return sum(h.nodes for h in history) / seconds if seconds >= RATE_SECONDS else None


def knuth_parts(search, horizon: int, history: Sequence[HorizonCost], deadline: Deadline, probes: int = PROBES,
                seed: int = 0) -> tuple[float, float] | None:
    """Knuth's estimate of `horizon` (the tree without the table) and the calibration: real over estimated
    nodes on the last refuted horizon of at least CALIBRATE_NODES (what the table saves there; also the probes'
    luck on that horizon, a heavy-tailed estimate). Half of the time left for each. None without such a horizon, a
    compiled search or time."""
    if not hasattr(search, "probe"):
        return None
    known = [h for h in history if h.nodes >= CALIBRATE_NODES and h.horizon < horizon]
    if not known or deadline.left() <= 0:
        return None
    last = max(known, key=lambda h: h.horizon)
    past = search.probe(last.horizon, probes, seed=seed, seconds=deadline.share(0.5).left())
    here = search.probe(horizon, probes, seed=seed + 1, seconds=max(deadline.left(), 0.001))
    if past.probes == 0 or here.probes == 0 or past.mean <= 0:
        return None
    return here.mean, last.nodes / past.mean


def calibrated_knuth(search, horizon: int, history: Sequence[HorizonCost], deadline: Deadline,
                     probes: int = PROBES, seed: int = 0) -> float | None:
    """Knuth's estimate of `horizon` times its calibration (knuth_parts); None where knuth_parts is."""
    parts = knuth_parts(search, horizon, history, deadline, probes, seed)
    return None if parts is None else parts[0] * parts[1]


def estimate_open(search, horizon: int, history: Sequence[HorizonCost], *, deadline: Deadline = NEVER,
                  seconds: float = PROBE_SECONDS, probes: int = PROBES, seed: int = 0, done: int = 0
                  ) -> Estimate | None:
    """The predicted cost of refuting `horizon` for `search` (a CompiledIDAStar or IDAStar, the race's own
    search object: its table and node count are left as they are), from this run's refuted horizons
    `history`: the geometric mean of Knuth's calibrated estimate and the growth estimate where both exist,
    else the one that does. At most `seconds` of probing, never past `deadline`. None when nothing sound
    enough can be said: no rate measured yet, or neither estimate. `done`: the nodes the open horizon's search
    has visited so far (its live count), below which no estimate goes."""
    speed = rate(history)
    if speed is None:
        return None
    knuth = calibrated_knuth(search, horizon, history, deadline.within(seconds), probes, seed)
    return combine(horizon, knuth, growth(horizon, history), speed, done)


def combine(horizon: int, knuth: float | None, grown: float | None, speed: float, done: int = 0
            ) -> Estimate | None:
    """The estimate from Knuth's calibrated nodes and the growth estimate (either may be None): their geometric
    mean where both exist (measured: within 3x on every level of benchmarks/topics/estimate.md, calibrated Knuth
    alone on all but one, growth alone is not always available), else the one that does, never below `done`;
    seconds at `speed` nodes per second."""
    if knuth is not None and grown is not None:
        nodes, method = math.sqrt(knuth * grown), "knuth+growth"
    elif knuth is not None:
        nodes, method = knuth, "knuth"
    elif grown is not None:
        nodes, method = grown, "growth"
    else:
        return None
    return Estimate(horizon, nodes, nodes / speed, speed, method).at_least(done)


class HorizonEstimator:
    """The estimator of a solve's progress line (kamicp.prover.watch.Estimator): the open horizon's cost predicted
    once per horizon (and again when the history has grown), the search's refuted horizons as its history: the
    first slice's, then those the watcher sees the race's search refute (its live node count between the
    horizon's start and the next one's; `by_search(h)` says whether the search, not CP-SAT, proved h, whose
    node count is otherwise a part only). `search` must be idle while it is asked (the race's parent: its
    search process is a forked copy), so the estimator answers nothing until `arm(by_search)`. `latest`: the
    last estimate given, for an `unknown` answer."""

    def __init__(self, search, history: Sequence[HorizonCost], *, seconds: float = PROBE_SECONDS) -> None:
        self.search, self.history, self.seconds = search, list(history), seconds
        self.by_search: Callable[[int], bool] = lambda _h: True
        self.armed = False
        self.latest: Estimate | None = None
        self._made: dict[int, tuple[int, Estimate | None]] = {}  # horizon -> (history length, estimate)
        self._started: dict[int, tuple[int, float]] = {}  # horizon -> (nodes, elapsed) when the search began it
        self._rates: list[float] = []  # the search's live rates seen (nodes per second)
        self._raw: dict[int, float | None] = {}  # horizon -> Knuth's estimate without calibration

    def arm(self, by_search: Callable[[int], bool]) -> None:
        """Answer from now on (the search is idle), `by_search(h)` telling whether the search proved h."""
        self.by_search, self.armed = by_search, True

    def __call__(self, horizon: int, snap) -> Estimate | None:
        if not self.armed or not hasattr(self.search, "probe"):
            return None
        searching = snap.engine == "search"
        if searching:
            self._note_start(horizon, snap.nodes, snap.elapsed)
            if snap.rate:
                self._rates.append(snap.rate)
        made = self._made.get(horizon)
        if made is None or made[0] < len(self.history):
            made = (len(self.history), estimate_open(self.search, horizon, self.history, seconds=self.seconds))
            self._made[horizon] = made
        est = made[1] or self._uncalibrated(horizon)
        if est is not None and searching:  # (never below what the search has visited on it already)
            est = est.at_least(snap.nodes - self._started[horizon][0])
        if est is not None:
            self.latest = est
        return est

    def _uncalibrated(self, horizon: int) -> Estimate | None:
        """Before any horizon is refuted (a level whose lower bound is its first open horizon): Knuth's estimate
        of the tree without the table, once per horizon, at the search's median live rate (once measured
        over a few samples). Unmeasured: the table's saving (not known yet) makes it high, the probes' luck on a
        heavy-tailed tree usually low."""
        if len(self._rates) < RATE_SAMPLES:
            return None
        if horizon not in self._raw:
            probe = self.search.probe(horizon, PROBES, seconds=self.seconds)
            self._raw[horizon] = probe.mean if probe.probes else None
        raw = self._raw[horizon]
        if raw is None:
            return None
        speed = sorted(self._rates)[len(self._rates) // 2]
        return Estimate(horizon, raw, raw / speed, speed, UNCALIBRATED)

    def _note_start(self, horizon: int, nodes: int, elapsed: float) -> None:
        if horizon in self._started:
            return
        self._started[horizon] = (nodes, elapsed)
        before = self._started.get(horizon - 1)
        known = {h.horizon for h in self.history}
        if before is not None and horizon - 1 not in known and self.by_search(horizon - 1):
            self.history.append(HorizonCost(horizon - 1, nodes - before[0], elapsed - before[1]))
