"""Upper bounds: short solutions found quickly (greedy, then the compiled beam search and pivot rollouts).

None of them proves anything: a plan here is only a solution, replayed by the rules engine before it is
used, and it is optimal only once every shorter horizon is refuted (kamicp.prover.horizons). Each heuristic gets
a budget of seconds (a share of the time limit, at most a fixed cap, never past the deadline).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from kamicp.board.regions import Regions, quotient, recolour
from kamicp.prover.bounds import bound_report, eccentricity
from kamicp.prover.config import UpperOptions
from kamicp.prover.outcome import EngineName, Plan
from kamicp.prover.search import BEAM_SCHEDULE, LONG_BEAM_SCHEDULE, beam_plan, rollout_plan
from kamicp.runtime.clock import NEVER, Deadline


@dataclass(frozen=True)
class UpperBound:
    """The best plan known, which heuristic found it, and when (seconds after the solve started)."""

    plan: Plan | None  # None: the deadline came before the greedy's first plan
    source: EngineName
    found_at: float


def greedy(
    adj0: Sequence[Sequence[int]], start: Sequence[int], num_colours: int, width: int = 6,
    deadline: Deadline = NEVER,
) -> list[tuple[int, int]] | None:
    """A quick solution as (initial region, colour) moves: an upper bound, never a proof of optimality.

    While some island has several regions: among the `width` moves that merge the most regions
    (central regions first), take the one leaving the smallest lower bound, then the fewest regions.
    Every such move merges, so this ends. Then paint every single-region island the most common
    island colour. None once the deadline has passed (on large boards each candidate's bound is costly).
    """
    state = tuple(start)
    moves: list[tuple[int, int]] = []
    while True:
        if deadline.expired():
            return None  # (before the quotient: on 100,000 regions it alone costs a good part of a second)
        q = quotient(adj0, state)
        if all(not nb for nb in q.adj):
            break
        ecc: dict[int, int] = {}
        for v in range(q.size):  # (one breadth-first search each: the deadline is checked between them)
            if v % 32 == 0 and deadline.expired():
                return None
            ecc[v] = eccentricity(v, q.adj)
        candidates = []
        for k in range(q.size):
            merged = Counter(q.colours[j] for j in q.adj[k])
            for c, count in merged.items():
                candidates.append((-count, ecc[k], k, c))
        candidates.sort()
        best = None
        for _, _, k, c in candidates[:width]:
            if deadline.expired():
                return None
            child = recolour(state, q.members[k], c)
            cq = quotient(adj0, child)
            bound = bound_report(cq.adj, cq.colours, num_colours, deadline)  # (a BFS per region: checked)
            if bound.cut:
                return None
            key = (bound.value, cq.size)
            if best is None or key < best[0]:
                best = (key, q.rep[k], c, child)
        assert best is not None
        moves.append((best[1], best[2]))
        state = best[3]
    q = quotient(adj0, state)
    if len(set(q.colours)) > 1:
        final = Counter(q.colours).most_common(1)[0][0]
        for k in range(q.size):
            if q.colours[k] != final:
                moves.append((q.rep[k], final))
    return moves


def _budget(cap: float, share: float, base: float, deadline: Deadline) -> float:
    """Seconds for one heuristic: `share` of the time limit `base` (infinity: none), at most `cap`, never
    past the deadline."""
    budget = cap if base == math.inf else min(cap, share * base)
    return min(budget, deadline.left())


def improve(regions: Regions, lower: int, known: UpperBound, options: UpperOptions, *, deadline: Deadline,
            base: float, rollouts: bool = True, long_beam: bool = False) -> UpperBound:
    """`known` improved by the beam search (with `long_beam`, the long proof: longer and wider, `beam_passes`) and
    (with `rollouts`) the pivot rollouts, while it is above the lower bound `lower`; each heuristic's budget a
    share of `base` seconds (infinity: their caps); `deadline`'s clock times when each was found."""
    best = known
    k = len(regions.palette)
    if best.plan is None:
        return best  # (no time was left for the greedy, so none for these either)
    if options.beam and lower < len(best.plan):
        schedule, budget = beam_passes(options, base, deadline, long_beam, regions.size)
        found = beam_plan(regions.adj, regions.colours, k, seconds=budget, schedule=schedule) if budget > 0 else None
        if found is not None and len(found) < len(best.plan):
            best = UpperBound(found, EngineName.BEAM, deadline.elapsed())
    if rollouts and options.rollout and lower < len(best.plan):
        budget = _budget(options.rollout_seconds, options.rollout_share, base, deadline)
        limit = len(best.plan) - 1
        found = rollout_plan(regions.adj, regions.colours, k, limit, seconds=budget) if budget > 0 else None
        if found is not None and len(found) < len(best.plan):
            best = UpperBound(found, EngineName.ROLLOUT, deadline.elapsed())
    return best


def beam_passes(options: UpperOptions, base: float, deadline: Deadline, long_beam: bool,
                regions: int) -> tuple[tuple[tuple[int, int, bool], ...], float]:
    """The beam's passes and seconds: with `long_beam` (the long proof) and at least `long_beam_min` seconds in
    its share, the long schedule (the default passes with time to finish, then wider ones); else the default
    within its short budget, which grows with the board's `regions` (a pass cut short finds no plan; measured in
    benchmarks/topics/upper-bounds.md, "The race's beam on large boards")."""
    if long_beam and options.long_beam:
        budget = _budget(options.long_beam_seconds, options.long_beam_share, base, deadline)
        if budget >= options.long_beam_min:
            return LONG_BEAM_SCHEDULE, budget
    cap = max(options.beam_seconds, options.beam_seconds_per_100 * regions / 100)
    return BEAM_SCHEDULE, _budget(cap, options.beam_share, base, deadline)
