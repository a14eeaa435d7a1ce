"""Counting optimal solutions, and their classes up to the order of commuting moves (models/counting.md).

A move is a letter (A, old, new): the set A of initial regions forming the tapped current region, its
colour before, and the colour painted. Two letters are independent when their regions are disjoint and,
if they touch, neither paints the other's old colour: exactly the pairs of consecutive moves that can
be played in either order with the same moves and the same result. Classes are the trace classes under
swaps of adjacent independent letters; each holds exactly one lexicographic normal form (Anisimov-Knuth),
so counting classes is counting optimal plans in normal form, which is what `PlanCounter.classes` does.

The optimum comes from `kamicp.prover.solver.solve`; the plans of that length are counted by a memoised
depth-first search pruned by the sound lower bound (a state whose bound exceeds its budget has none).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kamicp.board.level import Level, Move
from kamicp.board.regions import Quotient, Regions, quotient, recolour, regions_of
from kamicp.errors import Interrupted, SolverError, UsageError
from kamicp.prover.bounds import quotient_bound
from kamicp.prover.outcome import CountResult, StoppedBy
from kamicp.prover.request import Budget, Rules
from kamicp.prover.solver import OPTIMAL, Free, Progress, Result, request_of
from kamicp.prover.watch import Watch
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import signal_of

Letter = tuple[tuple[int, ...], int, int]  # (initial regions of the tapped region, old colour, new colour)
State = tuple[int, ...]  # a colour per initial region


REPORT_SECONDS = 0.5  # how often a running count is reported


class _Stop(Exception):
    """Internal: the deadline passed or the limit was reached."""


def quick_bound(q: Quotient, gather: bool = True) -> int:
    """A weaker bound, cheap to compute first: a move removes at most one colour, and an island needs
    at least its radius, which is at least half the eccentricity of any of its regions (bounds.md).
    `gather`: a move removes a colour only by painting its last region, so when no colour is down to
    one region the first move removes none: one move more (the full bound's gather term, weakened to
    be cheap; on the bench it prunes all but a few of the positions the full bound prunes)."""
    depth, frontier, seen = 0, [0], {0}
    while True:
        frontier = [w for v in frontier for w in q.adj[v] if w not in seen and not seen.add(w)]
        if not frontier:
            break
        depth += 1
    counts = Counter(q.colours)
    colours = len(counts) - 1 + (gather and 1 not in counts.values())
    return max(colours, (depth + 1) // 2)


class PlanCounter:
    """Counts plans of exactly `budget` moves that end one-coloured, on an initial region graph.

    `plans(state, b)`: the move sequences of length b from `state` whose last position, and only that
    one, is one colour (memoised; on an optimum-length count no earlier position can be one colour).
    `classes(b)`: how many of them are in lexicographic normal form, i.e. how many trace classes.
    Both stop with `_Stop` at the deadline, `classes` also once `limit` classes are found; `found` and
    `found_classes` are then lower bounds. (`plans` needs no limit: it counts without enumerating, its
    work is the number of positions within the bound, however many plans there are.)"""

    def __init__(self, adj0: Sequence[Sequence[int]], start: Sequence[int], num_colours: int, *,
                 deadline: Deadline = NEVER, limit: int | None = None, keep: int = 3,
                 colours_first: bool = True, progress: Progress | None = None) -> None:
        self.adj0, self.start, self.num_colours = adj0, tuple(start), num_colours
        # the colour bound before contracting a position (False: only after, as the count did before;
        # for benchmarks/designer.py's comparison and the tests' cross-check)
        self.colours_first = colours_first
        self.deadline, self.limit, self.keep = deadline, limit, keep
        self.memo: dict[tuple[State, int], int] = {}
        self.found = 0  # plans established so far (a lower bound on the count while it runs)
        self.found_classes = 0
        self.examples: list[tuple[Letter, ...]] = []
        self._nodes = 0
        self._touching: dict[tuple[int, ...], frozenset[int]] = {}
        self.progress = progress  # hears the running counts about twice a second
        self.stage, self.stage_note = "", ""  # what is being counted: "plans", then "classes"
        self._next_report = Deadline.slice(REPORT_SECONDS)

    # --- moves ------------------------------------------------------------------------------------
    def moves(self, state: State, q: Quotient | None = None) -> list[tuple[Letter, State]]:
        """Every legal move of `state` as (letter, next state): each current region, each other colour.
        (`q`: the state's quotient when the caller has it.)"""
        q = q or quotient(self.adj0, state)
        out = []
        for k in range(q.size):
            members, old = q.members[k], q.colours[k]
            for c in range(self.num_colours):
                if c != old:
                    out.append(((members, old, c), recolour(state, members, c)))
        return out

    def _moves_within(self, state: State, q: Quotient, budget: int) -> list[tuple[Letter, State]]:
        """The moves of `state` whose next position could be solved in `budget` moves by the colour bound:
        a move leaves the colours there were, less the tapped region's old colour if it was its last
        region, plus the painted colour if it was absent (without building the positions it rules out)."""
        if not self.colours_first:
            return self.moves(state, q)
        counts = Counter(q.colours)
        out = []
        for k in range(q.size):
            members, old = q.members[k], q.colours[k]
            left = len(counts) - (counts[old] == 1)
            for c in range(self.num_colours):
                if c != old and left + (c not in counts) - 1 <= budget:
                    out.append(((members, old, c), recolour(state, members, c)))
        return out

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes % 256:
            return
        if self.deadline.expired():
            raise _Stop
        if self.progress is not None and self._next_report.expired():
            self._next_report = Deadline.slice(REPORT_SECONDS)
            self.progress(self.running())

    def running(self) -> str:
        """What is counted so far, in words (the spinner's line)."""
        if self.stage == "classes":
            return f"{self.stage_note}; {self.found_classes:,} classes so far"
        return f"{self.stage_note}: {self.found:,} found so far, {len(self.memo):,} positions"

    # --- all plans ----------------------------------------------------------------------------------
    def plans(self, state: State, budget: int) -> int:
        key = (state, budget)
        hit = self.memo.get(key)
        if hit is not None:
            self._credit(hit)
            return hit
        self._tick()
        if self.colours_first and len(set(state)) - 1 > budget:
            # A move removes at most one colour: decided on the state itself, without contracting it (the
            # prune of most positions: on squ-32b5c, 47,000 of 58,000 positions within the optimum)
            self.memo[key] = 0
            return 0
        q = quotient(self.adj0, state)
        if len(set(q.colours)) == 1:
            total = 1 if budget == 0 else 0
            self._credit(total)
        elif budget == 1:
            total = self._last_moves(q)
            self._credit(total)
        elif budget == 0 or quick_bound(q, self.colours_first) > budget \
                or quotient_bound(q, self.num_colours) > budget:
            total = 0  # a sound lower bound: no plan of `budget` moves from here
        else:
            total = sum(self.plans(child, budget - 1) for _, child in self._moves_within(state, q, budget - 1))
        self.memo[key] = total
        return total

    @staticmethod
    def _last_moves(q: Quotient) -> int:
        """Moves that leave a board of several colours one colour: painting region k colour c does iff every
        other region has colour c, i.e. there are two colours and k is the only region of its colour."""
        counts = Counter(q.colours)
        return sum(n == 1 for n in counts.values()) if len(counts) == 2 else 0

    def _credit(self, n: int) -> None:
        """`n` more distinct plans are established (a memo hit is reached by a new prefix)."""
        self.found += n

    # --- classes ------------------------------------------------------------------------------------
    def independent(self, a: Letter, b: Letter) -> bool:
        """Disjoint regions, and if they touch, neither paints the other's old colour (counting.md §1)."""
        (ra, old_a, new_a), (rb, old_b, new_b) = a, b
        if not set(ra).isdisjoint(rb):
            return False
        if self._touch(ra).isdisjoint(rb):
            return True
        return new_a != old_b and new_b != old_a

    def _touch(self, regions: tuple[int, ...]) -> frozenset[int]:
        """The initial regions next to a set of initial regions (and the set itself)."""
        got = self._touching.get(regions)
        if got is None:
            got = frozenset(w for v in regions for w in self.adj0[v]) | frozenset(regions)
            self._touching[regions] = got
        return got

    def normal_after(self, prefix: Sequence[Letter], x: Letter) -> bool:
        """Is prefix + x in lexicographic normal form, given that prefix is? It is not when x could be
        swapped left past a greater letter: some b > x with x independent of b and of every letter
        after b (counting.md §2)."""
        for b in reversed(prefix):
            if not self.independent(x, b):
                return True
            if b > x:
                return False
        return True

    def classes(self, budget: int) -> int:
        """The number of plans of `budget` moves from the start in normal form (after `plans`)."""
        self._walk(self.start, budget, [])
        return self.found_classes

    def _walk(self, state: State, budget: int, prefix: list[Letter]) -> None:
        if budget == 0:
            self.found_classes += 1
            if len(self.examples) < self.keep:
                self.examples.append(tuple(prefix))
            if self.limit is not None and self.found_classes >= self.limit:
                raise _Stop
            return
        for letter, child in self.moves(state):
            self._tick()
            if not self.normal_after(prefix, letter) or not self.plans(child, budget - 1):
                continue
            prefix.append(letter)
            self._walk(child, budget - 1, prefix)
            prefix.pop()


def _to_moves(regions: Regions, plan: Sequence[Letter]) -> tuple[Move, ...]:
    return tuple(Move(regions.ids[members[0]], regions.palette[new]) for members, _, new in plan)


def count_optimal(level: Level, *, limit: int | None = None, time_limit: float | None = None,
                  engine: str = "auto", workers: int | None = None, progress: Progress | None = None,
                  rules: Rules | None = None, watch: Watch | None = None) -> CountResult:
    """The proven optimum of `level`, the number of optimal solutions and of their classes (`watch`: the solve's
    progress snapshots, kamicp.prover.watch; the count itself reports to `progress`). `rules`: Kami's
    (`Free`, the default) or another puzzle's, which counts by its own engines (Flood-It's `Pivot`: no two
    moves commute, so the classes are the solutions and there is nothing to limit)."""
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise UsageError(f"limit must be a positive integer, got {limit!r}")
    budget = Budget.start(time_limit, engine=engine, workers=workers, progress=progress, watch=watch)
    request = request_of(level, rules, None, budget)
    if request.rules.name != Free.name:
        if limit is not None:
            raise UsageError("--limit is for the free rules (the Flood-It count is exact, it enumerates nothing)")
        return request.rules.count(request)  # type: ignore[attr-defined]
    return count_with(level, request.solve(), limit=limit, deadline=budget.deadline, progress=progress)


def count_with(level: Level, result: Result, *, limit: int | None = None, time_limit: float | None = None,
               progress: Progress | None = None, deadline: Deadline | None = None, colours_first: bool = True
               ) -> CountResult:
    """Count the optimal solutions of `level` given a solver `result` (its proof gives the optimum), by the
    `deadline` (None: one made now from `time_limit`; its clock times the answer).
    (`colours_first=False`: the colour bound only after contracting each position, as the count did
    before; the same counts, slower. For benchmarks/designer.py and the tests' cross-check.)"""
    deadline = Deadline.after(time_limit) if deadline is None else deadline
    regions = regions_of(level)
    if result.status != OPTIMAL:
        return CountResult(level.name, None, 0, 0, False, result.lower_bound, result.upper_bound, (),
                           deadline.elapsed(), stopped_by=StoppedBy.TIME)
    optimum = len(result.moves)
    counter = PlanCounter(regions.adj, regions.colours, len(regions.palette), deadline=deadline, limit=limit,
                          colours_first=colours_first, progress=progress)
    solutions_complete = complete = False
    solutions, stopped_by = 0, None
    try:
        counter.stage, counter.stage_note = "plans", f"counting plans of {optimum} moves"
        if progress:
            progress(counter.stage_note)
        solutions = counter.plans(counter.start, optimum)
        solutions_complete = True
        counter.stage, counter.stage_note = "classes", f"{solutions:,} plans; counting classes"
        if progress:
            progress(counter.stage_note)
        classes = counter.classes(optimum)
        complete = True
    except KeyboardInterrupt as e:  # Ctrl-C or SIGTERM (Terminated): what was counted so far goes with it
        partial = _partial(level, result, counter, solutions if solutions_complete else None, deadline)
        raise Interrupted(partial, signal_of(e)) from None
    except _Stop:
        if not solutions_complete:
            solutions = max(counter.found, 1)  # (the solver's replayed solution is one)
        classes = counter.found_classes
        stopped_by = StoppedBy.LIMIT if limit is not None and classes >= limit else StoppedBy.TIME
        classes = max(classes, 1)
    if solutions_complete and solutions == 0 or complete and not 0 < classes <= solutions:
        raise SolverError(f"counted {solutions} plans in {classes} classes of {optimum} moves, "
                          "but the solver replayed one: refusing to report it")
    examples = tuple(_to_moves(regions, p) for p in counter.examples) or (result.moves,)
    return CountResult(level.name, optimum, solutions, classes, complete, optimum, optimum,
                       examples, deadline.elapsed(), solutions_complete, stopped_by)


def _partial(level: Level, result: Result, counter: PlanCounter, solutions: int | None, clock: Deadline
             ) -> CountResult:
    """What an interrupted count has established: the optimum, and lower bounds on the counts (the
    solver's replayed solution is one plan and one class)."""
    optimum = len(result.moves)
    examples = tuple(_to_moves(regions_of(level), p) for p in counter.examples) or (result.moves,)
    return CountResult(level.name, optimum, max(counter.found, 1) if solutions is None else solutions,
                       max(counter.found_classes, 1), False, optimum, optimum, examples, clock.elapsed(),
                       solutions is not None, StoppedBy.INTERRUPT)
