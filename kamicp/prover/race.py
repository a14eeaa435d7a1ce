"""The portfolio engine (`engine="auto"`): the search and the CP-SAT model race, the first proof wins.

1. The search runs alone for a short slice (most levels are proven within it, with no process cost).
   Its search object, with its transposition table, is what the race's search process continues with.
2. Otherwise both engines run the whole horizon loop (kamicp.prover.horizons) in their own child processes,
   handed the region graph, the lower bound and the upper-bound plan this process computed
   (CP-SAT with one worker unless `workers` is given: one core each; measured as fast as two workers).
   The first to finish with a proof ('optimal' or 'no-solution') wins; the other is stopped.
   During the race they share a `Ledger` of the horizons proven infeasible: each skips (or stops) a
   horizon the other has proved, and when the search falls behind, its process runs CP-SAT with another
   seed on the next horizons (the model proves deep horizons far faster, with a large spread by seed).
   A horizon CP-SAT does not solve whole within a few seconds is split into first-move cubes; the
   ledger hands them out, and once the search has spent `RaceOptions.search_grace` s on that
   horizon too, its process
   leaves the horizon to the cubes and takes cubes itself, so both cores work on the model's parts.
3. If the time runs out, both proven lower bounds are sound, so the larger one is reported, with the
   shorter replayed solution, and the proof steps of both engines (each tagged with its engine).
4. A worker that fails raises `SolverError` here with its message; the other worker is stopped.

Each engine's answer was already replayed by the rules engine in its process; the winner's moves are
replayed again here before they are returned.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import wait

from kamicp.board.level import Level
from kamicp.board.rules import verify
from kamicp.errors import Interrupted, WorkerError
from kamicp.prover.config import ModelOptions, RaceOptions, SolveOptions, as_solve_options
from kamicp.prover.engines import SearchEngine
from kamicp.prover.estimate import HorizonEstimator
from kamicp.prover.horizons import Prepared, count_nodes, finished, prepare, prepared_bounds, run_horizons
from kamicp.prover.outcome import EngineName, Horizon, Outcome, Result, Status
from kamicp.prover.request import Progress, Request
from kamicp.prover.watch import PERIOD, Watcher, ticking, watcher_of
from kamicp.runtime.clock import Deadline
from kamicp.runtime.interrupt import signal_of
from kamicp.runtime.processes import die_with, stop

ENGINE_NAMES = (EngineName.SEARCH, EngineName.CPSAT)  # the engines whose proofs the ledger carries


class Ledger:
    """What the race's processes share, in memory made before they fork: the horizons proven infeasible,
    the search's halt flags, and the state of each horizon's CP-SAT parts (cubes).

    Only proofs are written as proofs (entry h says "horizon h is infeasible", by whom and in how many
    seconds), and a part is marked refuted only by a complete solve, so a reader can rely on any entry it
    sees; a stale read only means less help."""

    SIZE = 256
    PARTS = 16  # at most this many cubes per horizon
    OPEN, TAKEN, REFUTED, SOLVED = 0, 1, 2, 3

    racing = True

    def __init__(self, ctx, race: RaceOptions | None = None) -> None:
        self.race = race or RaceOptions()
        self.by = ctx.Array("i", self.SIZE, lock=False)  # 0: not proven; else 1 + index in ENGINE_NAMES
        self.secs = ctx.Array("d", self.SIZE, lock=False)
        # the compiled search stops horizon h once halt[h] != 0: h proven, or CP-SAT wants help with it
        self.halt = ctx.Array("i", self.SIZE, lock=False)
        self.search_since = ctx.Array("d", self.SIZE, lock=False)  # when the search started horizon h
        self.search_at = ctx.Value("i", -1, lock=False)  # the horizon the search is on
        # for the progress line (kamicp.prover.watch): the horizon each engine is on (-1: none), the search's
        # cumulative node count (written by the compiled search), the best plan's length (0: none), the
        # largest lower bound a worker proved
        self.working = ctx.Array("i", [-1] * len(ENGINE_NAMES), lock=False)
        self.nodes = ctx.Value("q", 0, lock=False)
        self.best = ctx.Value("i", 0, lock=False)
        self.lower = ctx.Value("i", 0, lock=False)
        self.cubes = ctx.Array("i", self.SIZE * self.PARTS, lock=False)  # OPEN / TAKEN / REFUTED / SOLVED
        self.lock = ctx.Lock()

    def publish(self, horizon: Horizon) -> None:
        if (0 <= horizon.steps < self.SIZE and horizon.outcome == Outcome.INFEASIBLE and horizon.engine in ENGINE_NAMES
                and not self.by[horizon.steps]):
            self.secs[horizon.steps] = horizon.seconds
            self.by[horizon.steps] = 1 + ENGINE_NAMES.index(horizon.engine)
            self.halt[horizon.steps] = 1

    # --- the Tracker side (kamicp.prover.watch): what the parent's progress line reads -----------------
    def on_horizon(self, steps: int | None, engine: str) -> None:
        if engine in ENGINE_NAMES:
            self.working[ENGINE_NAMES.index(EngineName(engine))] = -1 if steps is None else steps

    def on_lower(self, lower: int) -> None:
        if lower > self.lower.value:  # (a lost race between the writers only shows a smaller bound a while)
            self.lower.value = lower

    def on_best(self, moves: int) -> None:
        if not self.best.value or moves < self.best.value:
            self.best.value = moves

    def cubes_done(self, steps: int, parts: int) -> int:
        """How many of this horizon's cubes are answered."""
        return sum(self.finished(steps, p) for p in range(min(parts, self.PARTS)))

    # --- cubes: CP-SAT's parts of one horizon, shared by the processes that solve it with CP-SAT ---
    def search_started(self, steps: int) -> None:
        if 0 <= steps < self.SIZE:
            self.search_since[steps] = time.monotonic()
            self.search_at.value = steps

    def halted(self, steps: int) -> bool:
        """Was the search asked to leave this horizon to CP-SAT's cubes (and it is not proven)?"""
        return 0 <= steps < self.SIZE and bool(self.halt[steps]) and not self.by[steps]

    def _at(self, steps: int, part: int) -> int:
        """Index of a part's state in `cubes`."""
        return steps * self.PARTS + part

    def claim(self, steps: int, parts: int) -> int | None:
        """An open cube of this horizon, now taken by the caller; None when none is open."""
        if not 0 <= steps < self.SIZE:
            return None
        with self.lock:
            for p in range(min(parts, self.PARTS)):
                if self.cubes[self._at(steps, p)] == self.OPEN:
                    self.cubes[self._at(steps, p)] = self.TAKEN
                    return p
        return None

    def helps(self, regions: int) -> bool:
        """Does CP-SAT ask the search to help with its cubes on a board this large?"""
        return regions <= self.race.search_helps_up_to

    def nudge(self, steps: int, below: bool = False) -> None:
        """Called while CP-SAT solves cubes of this horizon: ask the search to help once its grace is over.
        With `below` (a connected board, where this horizon's proof implies the shorter ones) also when
        the search is on a lower horizon."""
        at = self.search_at.value
        if not (at == steps or (below and 0 <= at < steps)) or not 0 <= steps < self.SIZE:
            return
        since = self.search_since[at]
        if since and time.monotonic() - since >= self.race.search_grace:
            self.halt[at] = 1

    def cubing(self, steps: int) -> bool:
        """Are this horizon's cubes being solved already?"""
        return 0 <= steps < self.SIZE and any(self.cubes[self._at(steps, p)] for p in range(self.PARTS))

    def cubing_above(self, steps: int) -> int | None:
        """The highest horizon above `steps` whose cubes are being solved and not proven, or None."""
        for h in range(self.SIZE - 1, steps, -1):
            if self.cubing(h) and not self.by[h]:
                return h
        return None

    def refuted(self, steps: int, part: int) -> None:
        self.cubes[self._at(steps, part)] = self.REFUTED

    def unfinished(self, steps: int, parts: int, after: int = -1) -> int | None:
        """A part someone has taken and not finished (the first after `after`, cyclically), or None."""
        n = min(parts, self.PARTS)
        for k in range(n):
            p = (after + 1 + k) % n
            if self.cubes[self._at(steps, p)] == self.TAKEN:
                return p
        return None

    def finished(self, steps: int, part: int) -> bool:
        return self.cubes[self._at(steps, part)] in (self.REFUTED, self.SOLVED)

    def solved(self, steps: int, part: int) -> None:
        """A cube has a solution: its solver reports it (and wins the race); the others stop waiting."""
        self.cubes[self._at(steps, part)] = self.SOLVED

    def any_solved(self, steps: int, parts: int) -> bool:
        return any(self.cubes[self._at(steps, p)] == self.SOLVED for p in range(min(parts, self.PARTS)))

    def all_refuted(self, steps: int, parts: int) -> bool:
        return all(self.cubes[self._at(steps, p)] == self.REFUTED for p in range(min(parts, self.PARTS)))

    def proven(self, steps: int) -> Horizon | None:
        """The other process's proof row for this horizon, or None."""
        if not 0 <= steps < self.SIZE or not self.by[steps]:
            return None
        return Horizon(steps, Outcome.INFEASIBLE, self.secs[steps], ENGINE_NAMES[self.by[steps] - 1])

    def proven_from(self, steps: int) -> Horizon | None:
        """The proof row of the lowest horizon at or above `steps` proven infeasible, or None. (On a
        connected board that proof implies this horizon: models/flood.md.)"""
        for h in range(max(steps, 0), self.SIZE):
            if self.by[h]:
                return self.proven(h)
        return None

    def stopper(self, steps: int):
        """A poll for a running horizon: has it been proven meanwhile?"""
        return lambda: 0 <= steps < self.SIZE and bool(self.by[steps])

    def attach(self, search) -> None:
        """Let the compiled search stop a horizon the other process proved, or that CP-SAT wants help with
        (through the shared memory)."""
        if hasattr(search, "stop_on"):
            search.stop_on(self.halt)
        if hasattr(search, "count_into"):  # (its node count, for the progress line's rate)
            search.count_into(self.nodes)


def worker_main(conn, request: Request, kwargs: dict, parent: int) -> None:
    """A race worker: the horizon loop of the request's engine; its Result, or its failure as a message. The
    budget's deadline is the parent's (the monotonic clock is the machine's), so the worker's start-up does not
    extend it."""
    die_with(parent)
    try:
        conn.send(("ok", run_horizons(request, **kwargs)))
    except BaseException as exc:  # noqa: BLE001 - every failure goes to the parent, which raises it
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _context():
    try:
        return mp.get_context("fork")
    except ValueError:  # pragma: no cover - platforms without fork
        return mp.get_context("spawn")


def solve_auto(request: Request, options: SolveOptions | ModelOptions | None) -> Result:
    """The search alone for a first slice; then the race, whose first proof wins (or the merged bounds)."""
    level, budget = request.level, request.budget
    deadline = budget.deadline
    opts = as_solve_options(options)
    first = deadline.head(opts.race.first_slice)  # the search's slice alone, from the solve's start
    watcher = watcher_of(budget.watch, deadline, budget.estimator)
    try:  # (the bound and the greedy within the whole time limit: the workers are handed them)
        if watcher is not None:
            watcher.sample()
        with ticking(watcher):
            prepared = prepare(level, opts, deadline, budgets=first.total)
    except KeyboardInterrupt as exc:
        raise Interrupted(None, signal_of(exc)) from None
    # the race's search process continues this search (a forked child inherits its table)
    search = SearchEngine(prepared.regions, opts.search)
    if watcher is not None:
        count_nodes(search, watcher)
        watcher.update(phase="slice", **prepared_bounds(prepared))
    with ticking(watcher):
        quick = run_horizons(request.but(engine=EngineName.SEARCH, deadline=first, workers=None), options=opts,
                             prepared=prepared, search=search, tracker=watcher)
    if quick.status != Status.UNKNOWN or (deadline.limited and deadline.left() <= 0.05 * deadline.total):
        return _done(watcher, replace(quick, engine=EngineName.AUTO, seconds=deadline.elapsed()))
    estimator = None
    if watcher is not None and watcher.estimator is None:  # (the estimate costs probes: only when watched)
        estimator = watcher.estimator = HorizonEstimator(search.ida, search.costs)
    so_far, results = _race(request, prepared, quick, search, opts, watcher)
    merged = _merge(level, so_far, results, budget.max_steps, deadline.elapsed())
    return _done(watcher, _with_estimate(merged, estimator))


def _with_estimate(result: Result, estimator: HorizonEstimator | None) -> Result:
    """An unknown answer with the last estimate of its open horizon's cost (an estimate, never a bound)."""
    latest = None if estimator is None else estimator.latest
    if result.status != Status.UNKNOWN or latest is None or latest.horizon < result.lower_bound:
        return result
    return replace(result, estimate=latest)


def _done(watcher: Watcher | None, result: Result) -> Result:
    if watcher is not None:
        finished(watcher, result)
    return result


def _race(request: Request, prepared: Prepared, quick: Result, search: SearchEngine, opts: SolveOptions,
          watcher: Watcher | None = None) -> tuple[Result, dict[str, Result]]:
    """Both engines in their own processes, handed what this process computed, under this process's
    deadline; the first slice's result with the proofs the ledger holds (a worker that misses its
    deadline sends no result, but its proofs stay in the ledger), and the workers' results by engine."""
    budget, progress = request.budget, request.budget.progress
    ctx = _context()
    refuted = tuple(h for h in quick.proof if h.outcome == Outcome.INFEASIBLE)
    ledger = Ledger(ctx, opts.race) if opts.race.ledger else None
    for h in refuted if ledger is not None else ():
        ledger.publish(h)
    tick = None
    if watcher is not None:
        tick = ledger_reader(ledger, watcher, quick, opts) if ledger is not None else watcher.sample
        if ledger is not None and watcher.nodes is not None:
            ledger.nodes.value = watcher.nodes()  # (the search process's count goes on from the slice's)
            watcher.nodes = lambda: int(ledger.nodes.value)
        if ledger is not None and isinstance(watcher.estimator, HorizonEstimator):
            search_id = 1 + ENGINE_NAMES.index(EngineName.SEARCH)
            # (this process's search is idle now: its probes do not race it)
            watcher.estimator.arm(lambda h: 0 <= h < ledger.SIZE and ledger.by[h] == search_id)
        watcher.update(phase="race", horizon=None)
    if ledger is not None:
        ledger.on_lower(quick.lower_bound)
        if quick.upper_bound:
            ledger.on_best(quick.upper_bound)
    common = {"refuted": refuted, "coordinator": ledger, "known": prepared, "tracker": ledger}
    quiet = {"progress": None, "watch": None}  # (the workers tell the ledger; this process reports)
    requests = {"search": request.but(engine=EngineName.SEARCH, workers=None, **quiet),
                "cpsat": request.but(engine=EngineName.CPSAT, workers=budget.workers or 1, **quiet)}
    # (the race's search process leaves the rollouts to the CP-SAT process, which needs them most)
    searching = replace(opts, upper=replace(opts.upper, rollout=False)) if ledger is not None else opts
    inherit = {"search": search} if ctx.get_start_method() == "fork" else {}
    specs = {"search": {"options": searching, **inherit}, "cpsat": {"options": opts}}
    procs, conns = {}, {}
    try:
        for name, extra in specs.items():
            parent, child = ctx.Pipe(duplex=False)
            args = (child, requests[name], {**common, **extra}, os.getpid())
            proc = ctx.Process(target=worker_main, args=args, daemon=True)
            procs[name], conns[parent] = proc, name
            proc.start()
            child.close()
        if progress:
            progress("portfolio: search and cpsat racing")
        results = collect(conns, procs, budget.deadline.later(opts.race.wait_grace), progress, tick)
        return _so_far(quick, ledger), results
    except KeyboardInterrupt as exc:
        raise Interrupted(_so_far(quick, ledger), signal_of(exc)) from None
    finally:
        stop(procs.values(), wait=1.0)  # SIGTERM, then SIGKILL for a worker not ended within a second


def _so_far(quick: Result, ledger: Ledger | None) -> Result:
    """What is proven when the race ends or is interrupted: the slice's result, with the horizons the ledger
    holds refuted contiguously above its lower bound (their proof rows too)."""
    lower, rows = quick.lower_bound, list(quick.proof)
    while ledger is not None and (row := ledger.proven(lower)) is not None:
        rows.append(row)
        lower += 1
    return replace(quick, lower_bound=lower, proof=tuple(rows), engine=EngineName.AUTO)


def ledger_reader(ledger: Ledger, watcher: Watcher, quick: Result, opts: SolveOptions) -> Callable[[], None]:
    """The race's progress sample: the ledger's proofs and plans read into the watcher, then a snapshot."""
    parts = int(opts.cpsat.cubes)

    def tick() -> None:
        lower = max(_so_far(quick, ledger).lower_bound, ledger.lower.value)
        at = [(h, i) for i, h in enumerate(ledger.working) if h >= lower]
        horizon, first = min(at) if at else (None, None)  # (the lowest open horizon; search before cpsat)
        engine = None if first is None else ENGINE_NAMES[first]
        if horizon is not None and parts > 1 and ledger.cubing(horizon):
            watcher.cubes(ledger.cubes_done(horizon, parts), parts)
            # (the search, once it has left the horizon to the cubes, solves cubes too)
            engine = EngineName.CUBES if engine == EngineName.CPSAT or ledger.halted(horizon) else engine
        else:
            watcher.cubes(None, None)  # type: ignore[arg-type]
        if not watcher.update(lower=lower, upper=ledger.best.value or None, horizon=horizon, engine=engine):
            watcher.sample()

    return tick


def collect(conns: dict, procs: dict, deadline: Deadline, progress: Progress | None,
            tick: Callable[[], None] | None = None) -> dict[str, Result]:
    """The workers' results until one has a proof, or both have answered, or the deadline. A worker that
    fails is an error here, with its message. `tick`: called every `watch.PERIOD` seconds meanwhile (this
    process sleeps in `wait` between calls)."""
    results: dict[str, Result] = {}
    while conns:
        left = deadline.limit()
        ready = wait(list(conns), timeout=left if tick is None else PERIOD if left is None else min(left, PERIOD))
        if not ready and tick is not None and not deadline.expired():
            tick()
            continue
        if not ready:
            break
        for conn in ready:
            name = conns.pop(conn)
            try:
                kind, payload = conn.recv()
            except EOFError:
                procs[name].join(timeout=1)
                kind, payload = "error", f"process ended without an answer (exit code {procs[name].exitcode})"
            if kind == "error":
                raise WorkerError(f"the race's {name} worker failed: {payload}")
            results[name] = payload
            if progress:
                progress(f"portfolio: {name} finished: {payload.status}")
            if payload.status in (Status.OPTIMAL, Status.NO_SOLUTION):
                return results
    return results


def _merge(level: Level, quick: Result, results: dict[str, Result], max_steps: int | None, seconds: float
           ) -> Result:
    """The first proof, replayed again; else both engines' sound bounds: the larger lower bound, the shorter
    replayed solution, and the proof steps of both (each tagged with its engine)."""
    proven = [r for r in results.values() if r.status in (Status.OPTIMAL, Status.NO_SOLUTION)]
    if proven:
        win = proven[0]
        if win.moves:  # a no-solution answer may carry a solution longer than max_steps
            verify(level, win.moves, max_moves=max_steps if win.status == Status.OPTIMAL else None)
        return replace(win, engine=EngineName.AUTO, seconds=seconds)
    every = [quick, *results.values()]
    lower = max(r.lower_bound for r in every)
    solved = [r for r in every if r.moves]
    best = min(solved, key=lambda r: len(r.moves)) if solved else quick
    rows = list(dict.fromkeys(h for r in every for h in r.proof))
    definite = {h.steps for h in rows if h.outcome != Outcome.UNKNOWN}
    # a horizon one engine left unknown and another answered is shown with its answer only
    proof = tuple(h for h in rows if h.outcome != Outcome.UNKNOWN or h.steps not in definite)
    status = Status.UNKNOWN
    if solved and len(best.moves) == lower and (max_steps is None or lower <= max_steps):
        status = Status.OPTIMAL  # one engine refuted every shorter horizon, the other found a solution that long
    elif max_steps is not None and lower > max_steps:
        status = Status.NO_SOLUTION
    return replace(best, status=status, lower_bound=lower, engine=EngineName.AUTO, seconds=seconds, proof=proof)
