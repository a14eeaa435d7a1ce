"""The pivot relation as a lower bound (models/pivot-free.md): on a connected island, for every region v and
final colour d, pivot(v, d) <= 2 free(d) - [colour(v) != d] (a plan that must recolour v pays one move less
for it), so the free game needs at least ceil((L + [colour(v) != d]) / 2) moves for any proven lower bound L
on the pivot game's optimum from v (any final colour). L comes from the compiled pivot A*
(kamicp/_core/flood_astar.hpp): its optimum, or, when its node cap or its time stops it, the lower bound it
proved; a cap or a deadline only weakens the bound, never makes it wrong.

The pivot game from a central region is short, so the regions tried are the island's most eccentric ones.
Without the compiled core the bound is 0 (the other bounds stand alone)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kamicp.prover.bounds import ColourTerm, distances
from kamicp.prover.search import compiled_core
from kamicp.runtime.clock import NEVER, Deadline

MAX_COLOURS = 15  # what the compiled A* takes
MAX_REGIONS = 5_000  # larger islands get no pivot term (weaker, never wrong)
EXACT_ECC = 400  # up to this many regions the far regions are the most eccentric; beyond, farthest-point picks
MEMORY = 32 * 2**20  # bytes of stored flood sets per A* run: beyond, its proven lower bound is used
SLICE = 0.05  # seconds of A* between looks at the deadline


def far_regions(nodes: Sequence[int], adj: Sequence[Sequence[int]], count: int, exact: bool = True) -> list[int]:
    """Up to `count` regions of the island, far out: the most eccentric (ties: the smaller index), or, on large
    islands or without `exact`, farthest-point picks from an end of a double sweep (a breadth-first search per
    pick instead of one per region)."""
    if exact and len(nodes) <= EXACT_ECC:
        ecc = {v: max(distances(v, adj).values()) for v in nodes}
        return sorted(nodes, key=lambda v: (-ecc[v], v))[:count]
    first = distances(nodes[0], adj)
    picks = [max(first, key=lambda v: (first[v], -v))]
    gap = distances(picks[0], adj)
    while len(picks) < min(count, len(nodes)):
        far = max(gap, key=lambda v: (gap[v], -v))
        if gap[far] == 0:
            break
        picks.append(far)
        for v, d in distances(far, adj).items():
            gap[v] = min(gap[v], d)
    return picks


def _cap(regions: int) -> int:
    """Flood sets an A* run may store within MEMORY (as kamicp.floodit.astar.bytes_per_set counts them)."""
    return max(1, MEMORY // (8 * ((regions + 63) // 64) + 32))


def _sub_board(nodes: Sequence[int], adj: Sequence[Sequence[int]], colours: Sequence[int]
               ) -> tuple[dict[int, int], list[list[int]], list[int]]:
    """The island alone, its regions renumbered 0..len(nodes)-1 (the A* floods only the pivot's island)."""
    index = {v: i for i, v in enumerate(nodes)}
    return index, [[index[w] for w in adj[v]] for v in nodes], [colours[v] for v in nodes]


def pivot_lower(adj: Sequence[Sequence[int]], colours: Sequence[int], num_colours: int, start: int,
                deadline: Deadline = NEVER, cap: int | None = None, final: int = -1) -> int:
    """A proven lower bound on the pivot game's optimum from `start` on a connected region graph (any final
    colour, or ending in colour `final`): the A*'s optimum, or what it proved when the cap or the deadline
    stopped it."""
    assert compiled_core is not None
    cap = _cap(len(colours)) if cap is None else cap
    handle = compiled_core.flood_create([list(a) for a in adj], list(colours), num_colours, start, final=final,
                                        cap=cap, lanes=1)
    while True:
        info = compiled_core.flood_run(handle, seconds=min(SLICE, deadline.left()))
        if info["status"] == "optimal" and info["plan"] is not None:
            return len(info["plan"])  # (the proven optimum)
        if info["status"] != "running" or deadline.expired():
            return int(info["lower"])  # capped or out of time: the smallest f still open, proven


def term_of(lowers: dict[int, int], colours: Sequence[int]) -> ColourTerm:
    """The term of proven pivot lower bounds L_v (region v -> L_v): for a final colour d, the largest
    ceil((L_v + [colour(v) != d]) / 2)."""
    if not lowers:
        return ColourTerm()
    other = max((low + 2) // 2 for low in lowers.values())
    by_colour: dict[int, int] = {}
    for c in {colours[v] for v in lowers}:
        by_colour[c] = max((low + 1 + (colours[v] != c)) // 2 for v, low in lowers.items())
    return ColourTerm(other, by_colour)


def island_pivot_bound(nodes: Sequence[int], adj: Sequence[Sequence[int]], colours: Sequence[int],
                       num_colours: int, count: int, deadline: Deadline = NEVER, cap: int | None = None,
                       exact: bool = True) -> ColourTerm:
    """The island's term from up to `count` far regions v: a lower bound on the island's moves for each final
    colour (all 0 without the compiled core, or when the deadline has passed); `exact`: see `far_regions`."""
    if compiled_core is None or num_colours > MAX_COLOURS or not 2 <= len(nodes) <= MAX_REGIONS or count <= 0:
        return ColourTerm()
    if deadline.expired():
        return ColourTerm()
    index, sub_adj, sub_colours = _sub_board(nodes, adj, colours)
    lowers: dict[int, int] = {}
    for v in far_regions(nodes, adj, count, exact):
        lowers[v] = pivot_lower(sub_adj, sub_colours, num_colours, index[v], deadline, cap)
        if deadline.expired():
            break
    return term_of(lowers, colours)


def pivot_term(adj: Sequence[Sequence[int]], colours: Sequence[int], num_colours: int, count: int,
               deadline: Deadline = NEVER, exact: bool = True) -> Callable[[Sequence[int]], ColourTerm] | None:
    """The per-island bound for `bounds.bound_report(pivot=...)`, or None when it is off (count 0) or the
    compiled core is missing."""
    if count <= 0 or compiled_core is None:
        return None
    return lambda nodes: island_pivot_bound(nodes, adj, colours, num_colours, count, deadline, exact=exact)
