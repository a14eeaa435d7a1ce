"""The reference search: iterative-deepening depth-first search (IDA*) on region graphs.

Exact: every region may be painted every other colour (also colours no neighbour has, which on a
disconnected board is how a finished island reaches the final colour). Pruning uses only the sound
lower bound of `bounds` and a transposition table that remembers, per board, the largest number of
moves proven not to suffice from it; both are valid for any threshold, so a failed threshold is a proof.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kamicp.board.regions import islands, quotient, recolour
from kamicp.errors import SolverError
from kamicp.prover.bounds import bound_report
from kamicp.prover.outcome import Plan
from kamicp.prover.prior import RootPrior
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import SearchTimeout


class IDAStar:
    """Depth-first search for solutions within a move threshold, one threshold at a time."""

    def __init__(
        self,
        adj0: Sequence[Sequence[int]],
        start: Sequence[int],
        num_colours: int,
        *,
        table_limit: int = 2_000_000,
        clusters: int = 0,
        vanishing_order: bool = False,
    ) -> None:
        self.adj0 = adj0
        self.clusters = clusters  # > 0: one-island boards also get the cluster gathering cost (bounds.md)
        self.vanishing_order = vanishing_order  # the colour bound by the vanishing order (bounds.md; measured: off)
        self.start = tuple(start)
        self.num_colours = num_colours
        self.table_limit = table_limit
        self.failed: dict[tuple[int, ...], int] = {}
        self.nodes = 0
        self._deadline = NEVER
        self._counter = None  # (count_into)

    def count_into(self, counter) -> None:
        """Publish the node count into `counter` (an object with a `value`, e.g. a multiprocessing Value) every
        512 nodes, as the compiled search does (for the progress line's rate)."""
        self._counter = counter

    def within(self, threshold: int, deadline: Deadline = NEVER) -> Plan | None:
        """A solution of at most `threshold` moves, or None when there is provably none."""
        self._deadline = deadline
        return self._dfs(self.start, threshold)

    def _dfs(self, state: tuple[int, ...], budget: int) -> Plan | None:
        self.nodes += 1
        if self.nodes % 512 == 0:
            if self._counter is not None:
                self._counter.value = self.nodes
            if self._deadline.expired():
                raise SearchTimeout
        q = quotient(self.adj0, state)
        if len(set(q.colours)) == 1:
            return []
        if budget <= 0 or self._bound(q) > budget:
            return None
        if self.failed.get(state, -1) >= budget:
            return None
        moves = []
        for k in range(q.size):
            merged = [0] * self.num_colours
            for j in q.adj[k]:
                merged[q.colours[j]] += 1
            for c in range(self.num_colours):
                if c != q.colours[k]:
                    moves.append((-merged[c], k, c))
        moves.sort()
        for _, k, c in moves:
            plan = self._dfs(recolour(state, q.members[k], c), budget - 1)
            if plan is not None:
                return [(q.rep[k], c), *plan]
        if len(self.failed) >= self.table_limit:
            self.failed.clear()
        self.failed[state] = budget
        return None

    def _bound(self, q) -> int:
        one = self.clusters > 0 and len(islands(q.size, q.adj)) == 1
        return bound_report(q.adj, q.colours, self.num_colours, clusters=self.clusters if one else 0,
                            vanishing_order=self.vanishing_order).value


class Probe(NamedTuple):
    """Knuth's random probes of a horizon's pruned tree (CompiledIDAStar.probe): `probes` dives, the `mean` of
    their estimates of the tree's nodes and the standard deviation `sd` of one dive's estimate; `visited` nodes."""

    probes: int
    mean: float
    sd: float
    visited: int

    @property
    def stderr(self) -> float:
        """The standard error of `mean` (large: the estimates are heavy-tailed)."""
        return self.sd / self.probes ** 0.5 if self.probes else float("inf")


class PivotStats(NamedTuple):
    """The compiled search's pivot test so far, all horizons (kamicp/_core/pivot_test.hpp): the nodes it was
    asked at, those the layered bound of the pivot games pruned, those it ran the pivot A* at, those the A*
    pruned, and the A* runs."""

    asked: int
    by_layered: int
    astar_asked: int
    by_astar: int
    runs: int

    @property
    def prunes(self) -> int:
        return self.by_layered + self.by_astar


try:  # the optional compiled core (setup.py builds it at `pip install -e .`)
    import kamicp._fastsearch as _fastsearch
except ImportError:  # pragma: no cover - no compiler on this machine: the pure-Python search is used
    _fastsearch = None

HAVE_COMPILED = _fastsearch is not None
# the binding itself (create/within/beam/rollout, kamicp/_core/module.cpp), or None: public for its own tests
compiled_core = _fastsearch


class CompiledIDAStar:
    """The same search as IDAStar in C++ (kamicp/_core/, the units behind kamicp._fastsearch), optionally
    with the commuting-move order (sound, see models/strengthening.md). `por`: 0/False off; 1 on, failures
    found under the order's restriction not stored; 2/True on, such failures stored keyed by board and
    restriction.
    `por_adjacent=False` orders only moves on non-adjacent clicked sets (the first version of the rule).
    `gather=False` prunes with the colour bound without its gathering refinement, `ring=False` with the
    radius without its ring rule (for ablations only; IDAStar always uses the full bound). `prior`: the
    root searched as if reached by that move (a cube's last move, kamicp/prover/prior.py; the symmetry is then
    not used): an infeasible horizon then only says "no solution canonical after it". `useful`: only moves
    that merge, on a board of one island with no prior and no symmetry (models/useful-colours.md, theorems 2
    and 3; the order then leaves adjacent moves painting the previous move's new colour unordered).
    Cross-checked against IDAStar in the tests."""

    def __init__(
        self,
        adj0: Sequence[Sequence[int]],
        start: Sequence[int],
        num_colours: int,
        *,
        table_limit: int = 3_000_000,
        por: int | bool = True,
        symmetry: Sequence[int] | None = None,
        gather: bool = True,
        ring: bool = True,
        por_adjacent: bool = True,
        clusters: int = 0,
        prior: RootPrior | None = None,
        pivot: int = 0,
        pivot_slack: int = 0,
        pivot_layered: bool = True,
        useful: bool = False,
    ) -> None:
        if _fastsearch is None:
            raise SolverError("the compiled search is not built (pip install -e . builds it)")
        self.adj0, self.start, self.num_colours = adj0, tuple(start), num_colours
        self._handle = _fastsearch.create(
            [list(a) for a in adj0], list(start), num_colours, table_limit=table_limit,
            por=2 if por is True else int(por), gather=gather, ring=ring, adjacent=por_adjacent,
            symmetry=None if symmetry is None else list(symmetry),  # first move on r only if r <= sigma(r)
            clusters=clusters,  # > 0: one-island nodes also pruned by the cluster gathering cost
            # > 0: one-island nodes with that much slack also pruned by the pivot relation (models/pivot-free.md)
            pivot_regions=pivot, pivot_slack=pivot_slack, pivot_layered=pivot_layered,
            useful=useful,  # only merging moves on one island, no prior, no symmetry (models/useful-colours.md)
            **({} if prior is None else {  # the root searched as if reached by that move (kamicp/prover/prior.py)
                "prior_min": prior.region, "prior_near": list(prior.near), "prior_color": prior.colour}),
        )
        self.nodes = 0

    def pivot_stats(self) -> PivotStats:
        """What the pivot test did so far (all horizons)."""
        return PivotStats(*_fastsearch.pivot_stats(self._handle))

    def stop_on(self, flags) -> bool:
        """Stop a horizon h (as on a timeout) once `flags[h]` is non-zero: `flags` is a ctypes int array in
        memory shared with another process (the portfolio's ledger), kept alive here. Always True (kept for
        callers that test it)."""
        import ctypes

        self._stop_flags = flags
        _fastsearch.set_stop(self._handle, ctypes.addressof(flags), len(flags))
        return True

    def count_into(self, counter) -> None:
        """Publish the running horizon's node count into `counter` (a ctypes c_longlong, e.g. a
        multiprocessing Value in shared memory, kept alive here) every 256 nodes, for another process to read."""
        import ctypes

        self._counter = counter
        _fastsearch.set_counter(self._handle, ctypes.addressof(counter))

    def probe(self, threshold: int, probes: int, *, seed: int = 0, seconds: float = -1.0) -> Probe:
        """Knuth's estimate of the nodes `within(threshold)` visits without its transposition table: `probes`
        random dives through the same pruned tree (fewer once `seconds` >= 0 run out). Neither the table nor
        the node count nor a plan changes: the search is the same after it."""
        return Probe(*_fastsearch.probe(self._handle, threshold, probes, seed=seed, seconds=seconds))

    def count(self, threshold: int, *, cap: int = 10_000_000, seconds: float = -1.0) -> int | None:
        """The exact node count of the tree `probe` samples (the search's tree without its table, not stopping
        at a solution), or None past `cap` nodes or `seconds`: for tests on small boards."""
        return _fastsearch.count(self._handle, threshold, cap=cap, seconds=seconds)

    def within(self, threshold: int, deadline: Deadline = NEVER) -> Plan | None:
        left = -1.0 if not deadline.limited else deadline.left()  # (-1: no limit)
        status, plan, self.nodes = _fastsearch.within(self._handle, threshold, seconds=left)
        if status == "unknown":
            raise SearchTimeout
        return None if plan is None else [tuple(m) for m in plan]


BEAM_SCHEDULE: tuple[tuple[int, int, bool], ...] = ((8, 40, False), (32, 60, True), (8, 40, True))
# the long proof's beam, when its time limit can spare the seconds: the passes above, which the short budget cuts
# on large boards, then wider ones (benchmarks/topics/upper-bounds.md)
LONG_BEAM_SCHEDULE: tuple[tuple[int, int, bool], ...] = (*BEAM_SCHEDULE, (128, 60, False), (128, 60, True))


def beam_plan(
    adj0: Sequence[Sequence[int]], start: Sequence[int], num_colours: int, *, seconds: float = 1.0,
    schedule: Sequence[tuple[int, int, bool]] = BEAM_SCHEDULE, closeness: bool = True,
) -> Plan | None:
    """The shortest plan found by the compiled beam search (an upper bound, never a proof), trying each
    (width, fan, ring) of `schedule` while time is left; None when the compiled core is not built.

    Boards are ranked by the bound without the gathering refinement (measured better plans:
    tri-56b5c-mirror-proper-s501 12 moves instead of 14), with or without the ring rule (neither ranking
    is better everywhere, so the narrow beam runs without, the wider one with), then, with `closeness`,
    by the least sum of distances from a centre (shorter plans on 7 of 43 levels, none longer:
    `benchmarks/beam.py`), then by regions left."""
    if _fastsearch is None or num_colours > 15:
        return None
    adj, colours = [list(a) for a in adj0], list(start)
    end = Deadline.slice(seconds)
    best: Plan | None = None
    for width, fan, ring in schedule:
        left = end.left()
        if left <= 0:
            break
        plan = _fastsearch.beam(adj, colours, num_colours, width=width, fan=fan, seconds=left, closeness=closeness,
                                ring=ring)
        if plan is not None and (best is None or len(plan) < len(best)):
            best = [tuple(m) for m in plan]
    return best


def rollout_plan(
    adj0: Sequence[Sequence[int]], start: Sequence[int], num_colours: int, limit: int, *, seconds: float = 1.0,
) -> Plan | None:
    """A plan of at most `limit` moves made of one move (or none) and a pivot rollout, the shortest found
    within `seconds` (an upper bound, never a proof); None when none is found or the core is not built.

    A pivot rollout finishes the board by painting only the growing blob of one region, each colour chosen
    greedily with one step of look-ahead by max(distance from the blob to the farthest region, colours
    outside). It finds what the beam misses when the plan is a few preparing moves and a long flood from
    one region: tri-90b5c-proper-s405 11 moves (the optimum) where the beam gives 12."""
    if _fastsearch is None or num_colours > 15 or limit < 0:
        return None
    plan = _fastsearch.rollout([list(a) for a in adj0], list(start), num_colours, limit=limit, seconds=seconds)
    return None if plan is None else [tuple(m) for m in plan]


def make_search(
    adj0: Sequence[Sequence[int]], start: Sequence[int], num_colours: int, *, compiled: bool | None = None,
    por: bool = True, symmetry: bool = False, gather: bool = True, ring: bool = True, por_adjacent: bool = True,
    clusters: int = 0, prior: RootPrior | None = None, pivot: int = 0, pivot_slack: int = 0, pivot_layered: bool = True,
    useful: bool = False,
) -> IDAStar | CompiledIDAStar:
    """The compiled search when available (or when `compiled` is True), else the reference IDAStar (which
    ignores `prior`: it then answers the unrestricted question, kamicp/prover/prior.py)."""
    use = HAVE_COMPILED and num_colours <= 15 if compiled is None else compiled
    if use:
        sigma = None
        if symmetry:
            from kamicp.board.symmetry import involution

            sigma = involution(adj0, start)
        return CompiledIDAStar(adj0, start, num_colours, por=por, symmetry=sigma, gather=gather, ring=ring,
                               por_adjacent=por_adjacent, clusters=clusters, prior=prior, pivot=pivot,
                               pivot_slack=pivot_slack, pivot_layered=pivot_layered, useful=useful)
    return IDAStar(adj0, start, num_colours, clusters=clusters)
