"""Progress that tells the truth: typed snapshots of a running solve (issue 36).

A `Snapshot` says what is proven so far (`lower`: every shorter plan is ruled out; `upper`: the length of the
best replayed plan), which horizon is being refuted and by which engine, and how fast the compiled search
goes. A `Watcher` keeps that state for one solve and hands snapshots to the budget's `watch` callback: the
horizon loop tells it where it is (`Tracker`), the race's parent reads the workers' shared ledger into it,
and a sampling thread (`ticking`) or the race's `collect` loop calls `sample()` about twice a second.

Bounds in a snapshot only ever tighten (a stale reading never loosens them). An `estimate`, when an
`Estimator` gives one, is a prediction of the open horizon's cost, never a bound.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Protocol

from kamicp.prover.estimate import Estimate
from kamicp.runtime.clock import Deadline

PERIOD = 0.5  # seconds between samples (the CLI's line refreshes at least once a second)
MIN_SPAN = 0.25  # seconds: the shortest span a rate is measured over


@dataclass(frozen=True)
class Snapshot:
    """One look at a running solve, `elapsed` seconds after its start. `lower`: proven (no plan is shorter);
    `upper`: the best replayed plan's length (None: none yet). `horizon`: the plan length being refuted now, by
    `engine` ('search', 'cpsat' or 'cubes'; None between horizons). `nodes`: the compiled search's nodes so far,
    `rate`: its nodes per second since the last snapshot (None when it is not searching). `cubes_done` /
    `cubes_total`: distributed cubes (solve --dask). `estimate`: the open horizon's predicted cost, never a
    bound. `phase`: 'prepare', 'slice' (the search alone), 'race', 'search' or 'cpsat' (one engine), 'done'."""

    elapsed: float
    phase: str
    lower: int
    upper: int | None = None
    horizon: int | None = None
    engine: str | None = None
    nodes: int = 0
    rate: float | None = None
    cubes_done: int | None = None
    cubes_total: int | None = None
    estimate: Estimate | None = None

    def to_dict(self) -> dict:
        """The snapshot as JSON data (the `--progress-json` line, `--json`'s `progress`)."""
        return {"elapsed": round(self.elapsed, 2), "phase": self.phase, "lower": self.lower, "upper": self.upper,
                "horizon": self.horizon, "engine": self.engine, "nodes": self.nodes,
                "rate": None if self.rate is None else round(self.rate),
                "cubes_done": self.cubes_done, "cubes_total": self.cubes_total,
                "estimate": None if self.estimate is None else self.estimate.to_dict()}


Watch = Callable[[Snapshot], None]
# the open horizon's predicted cost from the snapshot without it (None: no estimate); wired by the caller
Estimator = Callable[[int, Snapshot], Estimate | None]


class Tracker(Protocol):
    """What the horizon loop tells about itself: the horizon it starts (None: between horizons), a lower bound
    it proved, a shorter plan it found. (The race's ledger implements it across processes.)"""

    def on_horizon(self, steps: int | None, engine: str) -> None: ...
    def on_lower(self, lower: int) -> None: ...
    def on_best(self, moves: int) -> None: ...


class Watcher:
    """The live state of one solve in this process, and the snapshots made from it for `watch`. Thread-safe:
    the loop updates it while a sampling thread samples it."""

    def __init__(self, watch: Watch, deadline: Deadline, *, estimator: Estimator | None = None) -> None:
        self.watch, self.deadline, self.estimator = watch, deadline, estimator
        self.lock = threading.Lock()
        self.last: Snapshot = Snapshot(0.0, "prepare", 0)
        self.nodes: Callable[[], int] | None = None  # a reading of the search's cumulative node count
        self._state = {"phase": "prepare", "lower": 0, "upper": None, "horizon": None, "engine": None}
        self._cubes: tuple[int | None, int | None] = (None, None)
        self._counted = (0, time.monotonic())  # (nodes, when) at the last sample: the rate's base

    # --- the Tracker side -------------------------------------------------------------------
    def on_horizon(self, steps: int | None, engine: str) -> None:
        self.update(horizon=steps, engine=None if steps is None else str(engine))

    def on_lower(self, lower: int) -> None:
        self.update(lower=lower)

    def on_best(self, moves: int) -> None:
        self.update(upper=moves)

    def update(self, **state: object) -> bool:
        """Change some of `phase`, `lower`, `upper`, `horizon`, `engine`; a snapshot follows when a bound, the
        phase or the horizon changed (then True). The bounds only tighten: a lower one is kept, a longer plan
        ignored."""
        with self.lock:
            before = dict(self._state)
            for key, value in state.items():
                if key == "lower" and isinstance(value, int):
                    value = max(value, int(before["lower"]))  # type: ignore[call-overload]
                if key == "upper" and value is not None and before["upper"] is not None:
                    value = min(value, before["upper"])  # type: ignore[type-var]
                if key == "engine" and value is not None:
                    value = str(getattr(value, "value", value))  # (an EngineName: its JSON name)
                self._state[key] = value
            changed = any(self._state[k] != before[k] for k in ("lower", "upper", "horizon", "phase"))
        if changed:
            self.sample()
        return changed

    def cubes(self, done: int | None, total: int | None) -> None:
        with self.lock:
            self._cubes = (done, total)

    def sample(self) -> Snapshot:
        """A snapshot of now, handed to `watch` (and kept as `last`)."""
        with self.lock:
            snap = self._snapshot()
            self.last = snap
            self.watch(snap)  # (under the lock: the callback's lines stay in order)
        return snap

    def _snapshot(self) -> Snapshot:
        s = self._state
        lower, upper, horizon = int(s["lower"]), s["upper"], s["horizon"]  # type: ignore[call-overload]
        if horizon is not None and (horizon < lower or (upper is not None and horizon >= upper)):
            horizon = None  # (a stale reading: that horizon is settled)
        nodes, now = (self.nodes() if self.nodes is not None else 0), time.monotonic()
        base, since = self._counted
        rate, spanned = None, now - since >= MIN_SPAN
        if self.nodes is not None and s["engine"] == "search" and horizon is not None:
            # (a snapshot right after another, at a change, keeps the last rate: the count moves by 256 nodes)
            rate = max(nodes - base, 0) / (now - since) if spanned else self.last.rate
        if spanned:
            self._counted = (nodes, now)
        snap = Snapshot(elapsed=self.deadline.elapsed(), phase=str(s["phase"]), lower=lower, upper=upper,  # type: ignore[arg-type]
                        horizon=horizon, engine=None if horizon is None else s["engine"],  # type: ignore[arg-type]
                        nodes=nodes, rate=rate, cubes_done=self._cubes[0], cubes_total=self._cubes[1])
        if self.estimator is not None and horizon is not None:
            snap = replace(snap, estimate=self.estimator(horizon, snap))
        return snap


@contextmanager
def ticking(watcher: Watcher | None, period: float = PERIOD) -> Iterator[None]:
    """Sample `watcher` every `period` seconds in a daemon thread while the block runs (nothing without one).
    The thread sleeps between samples: it costs the solve nothing measurable."""
    if watcher is None:
        yield
        return
    done = threading.Event()

    def tick() -> None:
        while not done.wait(period):
            watcher.sample()

    thread = threading.Thread(target=tick, name="kamicp-watch", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=2 * period)


def watcher_of(watch: Watch | None, deadline: Deadline, estimator: Estimator | None = None) -> Watcher | None:
    """A watcher for a budget's `watch` callback (None without one)."""
    return None if watch is None else Watcher(watch, deadline, estimator=estimator)
