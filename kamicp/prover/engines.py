"""The proving engines: each answers one horizon at a time ("a solution of exactly / at most T moves?").

`CpSatEngine` builds the CP-SAT model of the horizon (kamicp.prover.model) and solves it whole, or, when it
is not answered within `CpSatOptions.cube_after` seconds, as first-move cubes (sound: the cubes cover
the model, models/strengthening.md §7), shared through the coordinator. `SearchEngine` runs IDA*
(kamicp.prover.search), keeping its transposition table from horizon to horizon.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from kamicp.board.regions import Regions
from kamicp.prover.config import CpSatOptions, ModelOptions, SearchOptions
from kamicp.prover.coordination import SharedCubes, Solo
from kamicp.prover.estimate import HorizonCost
from kamicp.prover.outcome import EngineName, Outcome, Plan
from kamicp.prover.prior import root_prior
from kamicp.prover.search import SearchTimeout, make_search
from kamicp.runtime.clock import Deadline

if TYPE_CHECKING:
    from kamicp.prover.model import FloodModel, HorizonOutcome

Stop = Callable[[], bool]


class Answer(NamedTuple):
    """One horizon's answer: FEASIBLE with a plan, INFEASIBLE (a proof), or UNKNOWN (deadline, stopped)."""

    outcome: Outcome
    plan: Plan | None


UNKNOWN = Answer(Outcome.UNKNOWN, None)


class CpSatEngine:
    """CP-SAT on one horizon at a time. `known`: a solution to hint (an upper bound; it proves nothing).
    `monotone`: a connected board in the race, where the search may leave a lower horizon for these cubes."""

    name = EngineName.CPSAT

    def __init__(self, regions: Regions, *, workers: int | None, seed: int, model: ModelOptions,
                 cpsat: CpSatOptions, known: Plan | None = None, coordinator: SharedCubes | None = None,
                 monotone: bool = False) -> None:
        self.regions, self.workers, self.seed = regions, workers, seed
        self.model_options, self.cpsat = model, cpsat
        self.known = known
        self.coordinator = coordinator if coordinator is not None else Solo()
        self.monotone = monotone

    def horizon(self, steps: int, deadline: Deadline, stop: Stop | None = None) -> Answer:
        from kamicp.prover.model import BuildTimeout, FloodModel  # OR-Tools: only once a horizon needs CP-SAT

        try:
            model = FloodModel(self.regions, steps, self.model_options, deadline)
            if self.known is not None and self.cpsat.hints:
                model.add_plan_hint(self.known)
        except BuildTimeout:
            return UNKNOWN
        parts = int(self.cpsat.cubes)
        left = deadline.limit()  # building the model counts too
        after = self.cpsat.cube_after
        whole = left if parts <= 1 or steps < 1 else after if left is None else min(left, after)
        if self.coordinator.cubing(steps) and parts > 1:
            return self._cubes(model, steps, parts, deadline, stop)  # the other process is already at it
        out = model.solve(time_limit=whole, workers=self.workers, seed=self.seed, stop=stop)
        if out.status != Outcome.UNKNOWN or whole == left or (stop is not None and stop()):
            return Answer(out.status, out.plan)
        return self._cubes(model, steps, parts, deadline, stop)

    def _cubes(self, model: FloodModel, steps: int, parts: int, deadline: Deadline, stop: Stop | None
               ) -> Answer:
        """The horizon as `parts` first-move cubes: feasible as soon as one cube is, infeasible once every
        cube is refuted, by this engine or, in the race, by the other process."""
        coord = self.coordinator
        # on larger boards the race's search keeps its horizon: there the cubes were slower than the search
        # (gen-tri-135b5c-proper-s707, horizon 11: the search 28 s; cubes with its help: not in 60 s)
        helped = coord.helps(self.regions.size)

        def poll() -> bool:
            if helped:
                coord.nudge(steps, below=self.monotone)
            return stop is not None and stop()

        answer = self._own_cubes(model, steps, parts, deadline, poll)
        return answer if answer is not None else self._others_cubes(model, steps, parts, deadline, poll)

    def _attempt(self, model: FloodModel, steps: int, part: int, parts: int, seed: int,
                 deadline: Deadline, halt: Stop) -> HorizonOutcome:
        """Solve one part and mark it refuted or solved (an unknown part stays taken)."""
        out = model.solve(time_limit=deadline.limit(), workers=self.workers, seed=seed, stop=halt, cube=(part, parts))
        if out.status == Outcome.INFEASIBLE:
            self.coordinator.refuted(steps, part)
        elif out.status == Outcome.FEASIBLE:
            self.coordinator.solved(steps, part)
        return out

    def _own_cubes(self, model: FloodModel, steps: int, parts: int, deadline: Deadline, poll: Stop
                   ) -> Answer | None:
        """Claim and solve open cubes; None once none is open and every claimed one was refuted."""
        while True:
            poll()  # (for its nudge: a stop is seen by the solve)
            part = self.coordinator.claim(steps, parts)
            if part is None:
                return None
            if deadline.expired():
                return UNKNOWN
            out = self._attempt(model, steps, part, parts, self.seed, deadline, poll)
            if out.status != Outcome.INFEASIBLE:
                return Answer(out.status, out.plan)

    def _others_cubes(self, model: FloodModel, steps: int, parts: int, deadline: Deadline, poll: Stop
                      ) -> Answer:
        """The other process's parts: rather than wait idle, solve an unfinished one too, with another seed
        (the time per part varies a lot by seed); whichever finishes first marks it."""
        coord = self.coordinator
        last = -1
        while not coord.all_refuted(steps, parts):
            if poll() or coord.any_solved(steps, parts) or deadline.expired():
                return UNKNOWN  # (a solved cube: the other process reports the solution)
            part = coord.unfinished(steps, parts, last)
            if part is None:
                time.sleep(0.05)
                continue
            last = part
            out = self._attempt(model, steps, part, parts, self.seed + 7 + part, deadline,
                                lambda p=part: poll() or coord.finished(steps, p))
            if out.status == Outcome.FEASIBLE:
                return Answer(out.status, out.plan)
        return Answer(Outcome.INFEASIBLE, None)


class SearchEngine:
    """IDA* on one horizon at a time (the compiled core when built), one search object for all horizons."""

    name = EngineName.SEARCH

    def __init__(self, regions: Regions, options: SearchOptions | None = None) -> None:
        opts = options or SearchOptions()
        prior = None if opts.after is None else root_prior(opts.after, regions)
        self.ida = make_search(regions.adj, regions.colours, len(regions.palette), compiled=opts.compiled,
                               por=opts.por, symmetry=opts.symmetry, gather=opts.gather, ring=opts.ring,
                               por_adjacent=opts.por_adjacent, clusters=opts.clusters, prior=prior,
                               pivot=opts.pivot, pivot_slack=opts.pivot_slack, pivot_layered=opts.pivot_layered,
                               useful=opts.useful)
        self.costs: list[HorizonCost] = []  # what each horizon it refuted cost: estimate_open's history

    def horizon(self, steps: int, deadline: Deadline, stop: Stop | None = None) -> Answer:
        # (`stop` is not polled: in the race the ledger stops the compiled search through shared memory)
        before, start = self.ida.nodes, time.monotonic()
        try:
            plan = self.ida.within(steps, deadline)
        except SearchTimeout:
            return UNKNOWN
        if plan is not None:
            return Answer(Outcome.FEASIBLE, plan)
        self.costs.append(HorizonCost(steps, self.ida.nodes - before, time.monotonic() - start))
        return Answer(Outcome.INFEASIBLE, None)


Engine = CpSatEngine | SearchEngine
