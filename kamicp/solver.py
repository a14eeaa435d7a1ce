"""Solving with proofs: horizons from the lower bound up, each refuted horizon recorded as a proof step.

The first horizon an engine solves is optimal, because every shorter one was refuted (or is below the
sound lower bound). Every solution is replayed by the rules engine before it is returned. A time limit
ends in status 'unknown' with the proven lower bound and the best solution found so far.

In the portfolio's race, on a connected board, the CP-SAT process goes top-down once at most
TOP_DOWN_SPAN horizons are left: it tries one move fewer than the best known solution next. Horizons are
monotone there (a solved board stays solved by one more move), so that horizon refuted proves every
shorter one impossible too (models/strengthening.md §9).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

from kamicp.bounds import BoundReport, bound_report, greedy
from kamicp.errors import SolverError, UsageError
from kamicp.level import Level, Move
from kamicp.model import FloodModel, ModelOptions
from kamicp.regions import Regions, regions_of
from kamicp.rules import verify
from kamicp.search import SearchTimeout, beam_plan, make_search, rollout_plan

ENGINES = ("cpsat", "search", "auto")
CUBE_AFTER = 2.0  # seconds CP-SAT tries a horizon whole before it solves it in first-move cubes
SEARCH_HELPS_UP_TO = 110  # regions: on boards this small the race's search joins CP-SAT's cubes (measured)
BEAM_SECONDS = 2.0  # the beam's budget (5 % of a time limit, at most this): its wide pass needs ~1 s at 100 regions
TOP_DOWN_SPAN = 2  # the race's CP-SAT goes top-down once at most this many horizons are left (measured)
ROLLOUT_SECONDS = 4.0  # the rollouts' budget (6 % of a time limit, at most this): 2.7 s at 89 regions

OPTIMAL = "optimal"  # moves are a shortest solution; every shorter horizon was refuted
NO_SOLUTION = "no-solution"  # no solution within max_steps moves (proven)
UNKNOWN = "unknown"  # the time limit ended the search; see the bounds

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Horizon:
    """One step of a proof: can the level be solved in `steps` moves? `outcome` is 'infeasible'
    (proven impossible), 'feasible', 'unknown' (time ran out), 'bound' (ruled out by the lower
    bound, no search needed) or 'implied' (ruled out by the next higher horizon's proof, on a
    connected board, where a solution could be extended by repainting the solved board; `engine` is
    the engine of that proof)."""

    steps: int
    outcome: str
    seconds: float
    engine: str


@dataclass(frozen=True)
class Result:
    """What a solve established. `lower_bound` is proven; `upper_bound` is the length of `moves`,
    the best replayed solution found (None when there is none)."""

    level: str
    status: str
    moves: tuple[Move, ...]
    lower_bound: int
    upper_bound: int | None
    max_steps: int | None
    proof: tuple[Horizon, ...]
    engine: str
    seconds: float
    regions: int
    colors: int
    bound: BoundReport = field(repr=False, default=None)  # type: ignore[assignment]

    @property
    def optimum(self) -> int | None:
        return len(self.moves) if self.status == OPTIMAL else None

    def proof_by_horizon(self) -> tuple[Horizon, ...]:
        """The proof for display, one step per horizon in increasing order. Where several engines
        answered the same horizon (the portfolio), the first definite answer is kept over 'unknown'."""
        chosen: dict[int, Horizon] = {}
        for h in self.proof:
            old = chosen.get(h.steps)
            if old is None or (old.outcome == "unknown" and h.outcome != "unknown"):
                chosen[h.steps] = h
        return tuple(chosen[k] for k in sorted(chosen))

    def to_dict(self, level: Level) -> dict:
        """Plain JSON-ready data, moves with the cell a player taps and the colour's name."""
        return {
            "level": self.level,
            "status": self.status,
            "optimum": self.optimum,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "max_steps": self.max_steps,
            "moves": [move_dict(level, m) for m in self.moves],
            "proof": [asdict(h) for h in self.proof],
            "engine": self.engine,
            "seconds": round(self.seconds, 4),
            "regions": self.regions,
            "colors": self.colors,
            "bound": asdict(self.bound) if self.bound else None,
        }


def move_dict(level: Level, move: Move) -> dict:
    return {"tap": level.tap_data(move.cell), "color": move.color, "color_name": level.display_color(move.color)}


def _check_params(max_steps: int | None, time_limit: float | None, workers: int | None, engine: str) -> None:
    if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 0):
        raise UsageError(f"max-steps must be a non-negative integer, got {max_steps!r}")
    if time_limit is not None and not time_limit > 0:
        raise UsageError(f"time-limit must be positive, got {time_limit!r}")
    if workers is not None and workers < 1:
        raise UsageError(f"workers must be at least 1, got {workers!r}")
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")


class _Engine:
    """Answers one horizon at a time for one level."""

    name = ""

    def horizon(self, steps: int, deadline: float | None, stop: Callable[[], bool] | None = None
                ) -> tuple[str, list[tuple[int, int]] | None]:
        """'feasible' with a plan, 'infeasible', or 'unknown' (the deadline passed, or `stop()` said so)."""
        raise NotImplementedError


class _CpSatEngine(_Engine):
    name = "cpsat"

    def __init__(self, regions: Regions, workers: int | None, seed: int, options: ModelOptions | None,
                 known: list[tuple[int, int]] | None = None, ledger=None, monotone: bool = False):
        self.regions, self.workers, self.seed, self.options = regions, workers, seed, options
        self.known = known  # a solution to hint (an upper bound; it proves nothing)
        self.ledger = ledger  # the race's shared cubes (portfolio.Ledger), or None: cubes taken in turn
        self.monotone = monotone  # a connected board: the search may leave a lower horizon for these cubes

    def horizon(self, steps, deadline, stop=None):
        model = FloodModel(self.regions, steps, self.options)
        if self.known is not None and (self.options or ModelOptions()).hints:
            model.add_plan_hint(self.known)
        parts = int((self.options or ModelOptions()).cubes)
        left = None if deadline is None else deadline - time.monotonic()  # building the model counts too
        whole = left if parts <= 1 or steps < 1 else CUBE_AFTER if left is None else min(left, CUBE_AFTER)
        if self.ledger is not None and self.ledger.cubing(steps) and parts > 1:
            return self._cubes(model, steps, parts, deadline, stop)  # the other process is already at it
        out = model.solve(time_limit=whole, workers=self.workers, seed=self.seed, stop=stop)
        if out.status != "unknown" or whole == left or (stop is not None and stop()):
            return out.status, out.plan
        return self._cubes(model, steps, parts, deadline, stop)

    def _cubes(self, model: FloodModel, steps: int, parts: int, deadline, stop):
        """The horizon as `parts` first-move cubes (sound: they cover the model, strengthening.md §8):
        feasible as soon as one cube is, infeasible once every cube is refuted, by this process or, in the
        race, by the other one."""
        ledger = self.ledger
        local = iter(range(parts))
        # on larger boards the search keeps its horizon: there the cubes were slower than the search
        # (gen-tri-135b5c-proper-s707, horizon 11: the search 28 s; cubes with its help: not in 60 s)
        helped = ledger is not None and self.regions.size <= SEARCH_HELPS_UP_TO

        def poll() -> bool:
            if helped:
                ledger.nudge(steps, below=self.monotone)
            return stop is not None and stop()

        def attempt(part: int, seed: int, halt: Callable[[], bool]):
            """Solve one part and, in the race, mark it refuted or solved (an unknown part stays taken)."""
            left = None if deadline is None else deadline - time.monotonic()
            out = model.solve(time_limit=left, workers=self.workers, seed=seed, stop=halt, cube=(part, parts))
            if ledger is not None and out.status != "unknown":
                (ledger.refuted if out.status == "infeasible" else ledger.solved)(steps, part)
            return out

        while True:
            poll()  # (for its nudge: a stop is seen by the solve)
            part = ledger.claim(steps, parts) if ledger is not None else next(local, None)
            if part is None:
                break
            if deadline is not None and time.monotonic() >= deadline:
                return "unknown", None
            out = attempt(part, self.seed, poll)
            if out.status != "infeasible":
                return out.status, out.plan
        # The other process's parts: rather than wait idle, solve an unfinished one too, with another seed
        # (the time per part varies a lot by seed); whichever finishes first marks it.
        last = -1
        while ledger is not None and not ledger.all_refuted(steps, parts):
            if poll() or ledger.any_solved(steps, parts) or (deadline is not None and time.monotonic() >= deadline):
                return "unknown", None  # (a solved cube: the other process reports the solution)
            part = ledger.unfinished(steps, parts, last)
            if part is None:
                time.sleep(0.05)
                continue
            last = part
            out = attempt(part, self.seed + 7 + part, lambda p=part: poll() or ledger.finished(steps, p))
            if out.status == "feasible":
                return out.status, out.plan
        return "infeasible", None


class _SearchEngine(_Engine):
    name = "search"

    def __init__(self, regions: Regions, options: ModelOptions | None = None):
        opts = options or ModelOptions()
        self.ida = make_search(regions.adj, regions.colors, len(regions.palette),
                               compiled=opts.compiled_search, por=opts.search_por,
                               symmetry=opts.search_symmetry, gather=opts.search_gather,
                               ring=opts.search_ring, por_adjacent=opts.search_por_adjacent)

    def horizon(self, steps, deadline, stop=None):
        # (`stop` is not polled: the portfolio's ledger stops the compiled search through shared memory)
        try:
            plan = self.ida.within(steps, deadline)
        except SearchTimeout:
            return "unknown", None
        return ("infeasible", None) if plan is None else ("feasible", plan)


# Techniques that can be switched off for ablation (CLI: solve --no NAME), as ModelOptions fields.
TECHNIQUES = {
    "colour-count-bound": "colour_count_bound",
    "tight-colours": "tight_colours",
    "commuting-order": "commuting_order",
    "smallest-root": "smallest_root",
    "hints": "hints",
    "beam": "beam",
    "symmetry": "symmetry",
    "search-por": "search_por",
    "search-por-adjacent": "search_por_adjacent",
    "search-gather": "search_gather",
    "search-ring": "search_ring",
    "ledger": "ledger",
    "top-down": "top_down",
    "rollout": "rollout",
    "cubes": "cubes",
    "compiled-search": "compiled_search",
}


def options_without(names: list[str] | tuple[str, ...], base: ModelOptions | None = None) -> ModelOptions:
    """`base` (default ModelOptions()) with the named techniques switched off."""
    unknown = [n for n in names if n not in TECHNIQUES]
    if unknown:
        raise UsageError(f"unknown technique {unknown[0]!r} (expected one of {', '.join(TECHNIQUES)})")
    return replace(base or ModelOptions(), **{TECHNIQUES[n]: False for n in names})


def _to_moves(regions: Regions, plan: list[tuple[int, int]]) -> tuple[Move, ...]:
    return tuple(Move(regions.ids[r], regions.palette[c]) for r, c in plan)


def solve(
    level: Level,
    *,
    max_steps: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    engine: str = "cpsat",
    seed: int = 0,
    options: ModelOptions | None = None,
    progress: Progress | None = None,
) -> Result:
    """Find a shortest solution of `level` with at most `max_steps` moves, and prove it shortest."""
    _check_params(max_steps, time_limit, workers, engine)
    if engine == "auto":
        from kamicp.portfolio import solve_auto

        return solve_auto(level, max_steps=max_steps, time_limit=time_limit, workers=workers, seed=seed,
                          options=options, progress=progress)
    return _solve(level, max_steps=max_steps, time_limit=time_limit, workers=workers, engine=engine, seed=seed,
                  options=options, progress=progress)


def _solve(level: Level, *, max_steps, time_limit, workers, engine, seed, options, progress,
           refuted: tuple[Horizon, ...] = (), search: _SearchEngine | None = None, ledger=None) -> Result:
    """The horizon loop. `refuted`: horizons this process's engines already proved infeasible (internal,
    used by the portfolio); the loop starts above them and the proof includes them. `search` (also for
    the portfolio): a search engine for this level to continue with, transposition table and all.
    `ledger` (the portfolio's race, `portfolio.Ledger`): horizons the other process proved infeasible are
    taken from it (a horizon in progress is stopped), and this process's proofs are published to it; a
    search that falls behind the other process hands its core to CP-SAT with another seed."""
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    note = progress or (lambda _msg: None)
    regions = regions_of(level)
    report = bound_report(regions.adj, regions.colors, len(regions.palette))
    lb = report.value
    proof: list[Horizon] = []

    def result(status: str, moves: tuple[Move, ...] | None, lower: int) -> Result:
        return Result(
            level=level.name,
            status=status,
            moves=moves or (),
            lower_bound=lower,
            upper_bound=None if moves is None else len(moves),
            max_steps=max_steps,
            proof=tuple(proof),
            engine=engine,
            seconds=time.monotonic() - start,
            regions=regions.size,
            colors=regions.num_colors,
            bound=report,
        )

    opts = options or ModelOptions()
    plan = greedy(regions.adj, regions.colors, len(regions.palette))
    source = "greedy"
    if opts.beam and lb < len(plan):
        budget = BEAM_SECONDS if time_limit is None else min(BEAM_SECONDS, 0.05 * time_limit)
        found = beam_plan(regions.adj, regions.colors, len(regions.palette), seconds=budget)
        if found is not None and len(found) < len(plan):
            plan, source = found, "beam"
    # (the race's search process leaves the rollouts to the CP-SAT process, which needs them most)
    if opts.rollout and lb < len(plan) and not (ledger is not None and engine == "search"):
        budget = ROLLOUT_SECONDS if time_limit is None else min(ROLLOUT_SECONDS, 0.06 * time_limit)
        found = rollout_plan(regions.adj, regions.colors, len(regions.palette), len(plan) - 1, seconds=budget)
        if found is not None and len(found) < len(plan):
            plan, source = found, "rollout"
    best = _to_moves(regions, plan)
    verify(level, best)
    found_at = time.monotonic() - start  # when the upper-bound solution was known
    if lb > 0:
        proof.append(Horizon(lb - 1, "bound", 0.0, "bound"))
    for h in refuted:
        if h.outcome == "infeasible" and h.steps >= lb:
            proof.append(h)
            lb = h.steps + 1
    top = len(best) - 1 if max_steps is None else min(len(best) - 1, max_steps)
    known = plan
    # horizons are monotone on a connected board (models/flood.md): a refuted horizon implies the shorter
    monotone = opts.top_down and report.islands == 1
    runner: _Engine = (
        _CpSatEngine(regions, workers, seed, options, known, ledger, monotone) if engine == "cpsat"
        else search if search is not None else _SearchEngine(regions, options)
    )
    if ledger is not None and isinstance(runner, _SearchEngine):
        ledger.attach(runner.ida)

    def handover() -> _CpSatEngine:
        """The race's search process switches to CP-SAT (one worker, another seed than the other process)."""
        return _CpSatEngine(regions, 1, seed + 1, options, known, ledger, monotone)

    def refuted_with_shorter(row: Horizon) -> None:
        """The proof row of a refuted horizon, after rows for lb..row.steps-1, which it implies (monotone)."""
        proof.extend(Horizon(h, "implied", 0.0, row.engine) for h in range(lb, row.steps))
        proof.append(row)

    def finish(lower: int) -> Result:
        """Every horizon below `lower` is ruled out: optimal if the best solution is that short."""
        if max_steps is not None and lower > max_steps:
            return result(NO_SOLUTION, best, lower)
        if len(best) != lower:
            return result(UNKNOWN, best, lower)  # (in the race: the other process found that solution)
        if not any(h.steps == lower and h.outcome == "feasible" for h in proof):
            proof.append(Horizon(lower, "feasible", found_at, source))  # the replayed upper-bound solution
        return result(OPTIMAL, best, lower)

    def top_down(steps: int, runner: _Engine) -> Result:
        """The race on a connected board: horizons from `steps` down, each solved one shortening the best
        solution, until one is refuted (by this process or the other) or the bound is reached."""
        nonlocal best
        parts = int(opts.cubes)
        while steps >= lb:
            if deadline is not None and time.monotonic() >= deadline:
                return result(UNKNOWN, best, lb)
            if (other := ledger.proven_from(steps)) is not None:
                refuted_with_shorter(other)
                return finish(other.steps + 1)
            note(f"horizon {steps}: solving with {runner.name} (top-down)")
            t0 = time.monotonic()
            outcome, plan = runner.horizon(steps, deadline, ledger.stopper(steps))
            if outcome == "unknown":
                if ledger.proven_from(steps) is not None:
                    continue  # the other process proved it (taken from the ledger above)
                if ledger.any_solved(steps, parts):
                    steps -= 1  # the other process solved it and reports that solution
                    continue
                return result(UNKNOWN, best, lb)
            row = Horizon(steps, outcome, time.monotonic() - t0, runner.name)
            note(f"horizon {steps}: {outcome}")
            if outcome == "infeasible":
                refuted_with_shorter(row)
                ledger.publish(row)
                return finish(steps + 1)
            proof.append(row)
            assert plan is not None
            best = _to_moves(regions, plan)
            verify(level, best, max_moves=steps)
            if isinstance(runner, _CpSatEngine):
                runner.known = plan
            steps = len(best) - 1
        return finish(lb)

    for steps in range(lb, top + 1):
        if steps < lb:
            continue  # implied by a proof of a higher horizon
        if deadline is not None and time.monotonic() >= deadline:
            return result(UNKNOWN, best, steps)
        if ledger is not None and (other := ledger.proven_from(steps) if monotone else ledger.proven(steps)):
            refuted_with_shorter(other)  # the other process's proof of this horizon (monotone: or a higher one)
            lb = other.steps + 1
            if lb > top:
                break
            continue
        if ledger is not None and monotone and isinstance(runner, _CpSatEngine) and steps < top < steps + TOP_DOWN_SPAN:
            return top_down(top, runner)  # skip to the last horizon: its proof implies this one
        note(f"horizon {steps}: solving with {runner.name}")
        t0 = time.monotonic()
        if ledger is not None and isinstance(runner, _SearchEngine):
            ledger.search_started(steps)
        outcome, plan = runner.horizon(steps, deadline, None if ledger is None else ledger.stopper(steps))
        if outcome == "unknown" and ledger is not None and isinstance(runner, _SearchEngine) and (
                ledger.halted(steps)):
            # CP-SAT asked for help with its cubes: this process solves cubes from now on
            runner = handover()
            higher = ledger.cubing_above(steps) if monotone else None
            if higher is not None:  # cubes of a higher horizon, whose proof implies this one
                note(f"horizon {higher}: joining CP-SAT's cubes (top-down)")
                return top_down(higher, runner)
            note(f"horizon {steps}: joining CP-SAT's cubes")
            outcome, plan = runner.horizon(steps, deadline, ledger.stopper(steps))
        if outcome == "unknown" and ledger is not None and (other := ledger.proven(steps)) is not None:
            proof.append(other)  # stopped because the other process proved it
            lb = steps + 1
            if isinstance(runner, _SearchEngine):  # deeper horizons are the model's: a second seed helps most
                runner = handover()
            continue
        proof.append(Horizon(steps, outcome, time.monotonic() - t0, runner.name))
        note(f"horizon {steps}: {outcome}")
        if outcome == "infeasible" and ledger is not None:
            ledger.publish(proof[-1])
        if outcome == "unknown":
            return result(UNKNOWN, best, steps)
        if outcome == "feasible":
            assert plan is not None
            moves = _to_moves(regions, plan)
            verify(level, moves, max_moves=steps)
            if len(moves) != steps:
                raise SolverError(f"{runner.name} solved horizon {steps} in {len(moves)} moves, "
                                  "below a proven bound: refusing to report it")
            return result(OPTIMAL, moves, steps)
        lb = steps + 1
    if (max_steps is None or len(best) <= max_steps) and len(best) != lb:
        raise SolverError(f"horizons below the {source} solution were not all refuted")
    return finish(lb)


@dataclass(frozen=True)
class Validation:
    """Is a level's par right? verdict: 'correct' (achievable and minimal), 'not-minimal' (a shorter
    solution exists), 'unachievable' (no solution within par) or 'unknown'."""

    level: str
    par: int
    verdict: str
    result: Result

    @property
    def optimum(self) -> int | None:
        return self.result.optimum


def validate(level: Level, par: int | None = None, *, slack: int = 2, **kwargs) -> Validation:
    """Check a designed par: solve up to par + slack moves and compare the proven bounds with it."""
    par = level.par if par is None else par
    if par is None:
        raise UsageError(f"{level.name or 'level'}: no par given (in the file or with --par)")
    if not isinstance(par, int) or par < 0:
        raise UsageError(f"par must be a non-negative integer, got {par!r}")
    res = solve(level, max_steps=par + slack, **kwargs)
    if res.lower_bound > par:
        verdict = "unachievable"
    elif res.upper_bound is not None and res.upper_bound < par:
        verdict = "not-minimal"
    elif res.lower_bound == par and res.upper_bound == par:
        verdict = "correct"
    else:
        verdict = UNKNOWN
    return Validation(level.name, par, verdict, res)


def prove_under(level: Level, under: int, **kwargs) -> Result:
    """Try to prove that no solution with fewer than `under` moves exists (status 'no-solution'),
    or find one (status 'optimal', with moves)."""
    if not isinstance(under, int) or under < 1:
        raise UsageError(f"--under must be a positive integer, got {under!r}")
    return solve(level, max_steps=under - 1, **kwargs)
