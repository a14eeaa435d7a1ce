"""Sound lower bounds on the number of moves (the upper bounds are in `kamicp.prover.upper`).

Only bounds with a proof enter here (see models/bounds.md):
- radius: a move lowers the radius of a connected region graph by at most 1; and a graph of radius r
  solved in r moves has a centre whose outermost ring (the regions at distance r) is one colour, so
  without such a centre it needs r + 1 (`ring_radius`);
- colours: a move removes at most one colour (the tapped region's old colour, and only when that
  region was the colour's last), so ending in colour d needs at least one move per other colour
  present, plus the moves needed before the first of them can go: none if one is down to a single
  region, else 1, or 2 when no single move gathers any of them into one region (`gather_costs`).
- clusters (optional, `bound_report(clusters=N)`): before a colour can disappear, its regions must be one
  region; every region that does not end in it was recoloured, and a region built by h moves spans at most
  2h in the initial distances, so the moves before are at least the cheapest clustering of (a sample of
  N of) the colour's regions (`cluster_costs`).
- the vanishing order (optional, `bound_report(vanishing_order=True)`): the colours disappear one after
  another; the j-th to go needs its gathering cost in moves before it, of which at most j - 1 are the
  earlier disappearances, so the moves beyond one per colour are at least max over j of (the j-th smallest
  gathering cost) - (j - 1) (`colour_bound(order=True)`).
- the pivot relation (optional, `bound_report(pivot=...)`, injected by `kamicp.prover.pivot_bound`, which
  runs the compiled pivot A*): on a connected island the pivot game from any region v needs at most twice the
  free game's moves for every final colour d, one fewer when v's colour is not d (models/pivot-free.md), so
  (a proven pivot lower bound + [colour(v) != d]) / 2, rounded up, is a lower bound on the island for d.
Islands (components of a disconnected board) are independent except that all must end in the same
colour d: the bound is min over d of the sum over islands of max(radius term, colour bound for d, pivot term).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kamicp.board.regions import Quotient, islands
from kamicp.runtime.clock import NEVER, Deadline


def _outermost_ring(s: int, adj: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """Breadth-first search from s: its eccentricity and the nodes at that distance (its outermost ring)."""
    seen = {s}
    ring = frontier = [s]
    depth = 0
    while frontier:
        nxt = []
        for v in frontier:
            for w in adj[v]:
                if w not in seen:
                    seen.add(w)
                    nxt.append(w)
        if nxt:
            ring = nxt
            depth += 1
        frontier = nxt
    return depth, ring


def eccentricity(s: int, adj: Sequence[Sequence[int]]) -> int:
    return _outermost_ring(s, adj)[0]


def ring_radius(nodes: Sequence[int], adj: Sequence[Sequence[int]], colours: Sequence[int]) -> tuple[int, int]:
    """(radius, min over x of ecc(x) + [x's outermost ring has two colours or more]) of one island.

    The second is a lower bound on the moves (models/bounds.md, "ring"): a centre whose farthest
    regions all share one colour is needed to finish in exactly `radius` moves."""
    radius, ring, _cut = _ring_radius(nodes, adj, colours, NEVER)
    return radius, ring


def _ring_radius(nodes: Sequence[int], adj: Sequence[Sequence[int]], colours: Sequence[int],
                 deadline: Deadline) -> tuple[int, int, bool]:
    """`ring_radius` (cut False), or, once the deadline passes, max over the centres tried of
    ceil(ecc / 2) for both (cut True): sound, as every eccentricity is at most twice the radius."""
    best_ecc = best = len(nodes)
    half = 0
    for s in nodes:
        if half and deadline.expired():
            return half, half, True
        ecc, ring = _outermost_ring(s, adj)
        half = max(half, (ecc + 1) // 2)
        best_ecc = min(best_ecc, ecc)
        best = min(best, ecc + (len({colours[w] for w in ring}) > 1))
    return best_ecc, best, False


def gather_costs(nodes: Sequence[int], adj: Sequence[Sequence[int]], colours: Sequence[int]) -> dict[int, int]:
    """For each colour of one island, a lower bound (0, 1 or 2) on the moves that leave it a single region.

    0: it is one region. 1: two regions (recolour one), or some region touches all of them (recolour it
    to this colour). Otherwise no single move does it (a move removes one region of the colour or joins
    the ones next to the tapped region), so 2."""
    counts = Counter(colours[v] for v in nodes)
    cost = {c: 0 if n == 1 else 1 if n == 2 else 2 for c, n in counts.items()}
    for v in nodes:
        touching = Counter(colours[w] for w in adj[v])
        for c, n in touching.items():
            if n == counts[c] and cost[c] == 2:
                cost[c] = 1
    return cost


def distances(s: int, adj: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each node's distance (in edges) from `s`, for the nodes of its component (breadth-first)."""
    dist = {s: 0}
    queue = deque([s])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def spread_sample(regions: list[int], dist: dict[int, dict[int, int]], size: int) -> list[int]:
    """Up to `size` of the regions, far apart: from each start, farthest-point picks; the sample with the
    largest least pairwise distance. (Any subset gives a valid bound; this one only makes it strong.)"""
    if len(regions) <= size:
        return list(regions)
    best: tuple[int, list[int]] | None = None
    for first in regions[:: max(1, len(regions) // 24)]:  # (at most about 24 starts: large boards stay quick)
        picked = [first]
        gap = {v: dist[first][v] for v in regions}
        while len(picked) < size:
            far = max(regions, key=lambda v: (gap[v], -v))
            picked.append(far)
            for v in regions:
                gap[v] = min(gap[v], dist[far][v])
        least = min(dist[a][b] for i, a in enumerate(picked) for b in picked[i + 1:])
        if best is None or least > best[0]:
            best = (least, picked)
    assert best is not None
    return best[1]


def cluster_cost(points: Sequence[int], dist: dict[int, dict[int, int]]) -> int:
    """min over partitions of `points` into groups, one of them (possibly empty) the group that keeps the
    colour, of sum ceil(diameter / 2) over the groups, where each other group costs at least 1
    (models/bounds.md, "clusters"): exact, by dynamic programming over the subsets (3^len(points) steps)."""
    n = len(points)
    full = (1 << n) - 1
    keep = [0] * (1 << n)  # ceil(diameter / 2) of each subset
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        rest = mask & (mask - 1)
        far = max((dist[points[low]][points[j]] for j in range(n) if rest >> j & 1), default=0)
        keep[mask] = max(keep[rest], (far + 1) // 2)  # (the diameter of the subset, halved, rounded up)
    groups = [0] * (1 << n)  # the cheapest partition of each subset into recoloured groups
    for mask in range(1, 1 << n):
        low = mask & -mask
        rest = mask ^ low
        best = 1 << 30
        sub = rest
        while True:
            group = sub | low
            best = min(best, max(1, keep[group]) + groups[mask ^ group])
            if sub == 0:
                break
            sub = (sub - 1) & rest
        groups[mask] = best
    best = groups[full]
    sub = full
    while sub:
        best = min(best, keep[sub] + groups[full ^ sub])
        sub = (sub - 1) & full
    return best


CLUSTER_REGIONS = 300  # islands larger than this skip the cluster costs (a search per region of each colour)


def cluster_costs(nodes: Sequence[int], adj: Sequence[Sequence[int]], colours: Sequence[int], size: int = 8,
                  deadline: Deadline = NEVER) -> dict[int, int]:
    """For each colour of one island, a lower bound on the moves that leave it a single region: the
    `cluster_cost` of up to `size` of its regions, far apart (empty once the deadline has passed)."""
    by_colour: dict[int, list[int]] = {}
    if len(nodes) > CLUSTER_REGIONS:
        return {}  # (a weaker bound, never a wrong one: each colour keeps its gather_costs)
    for v in nodes:
        by_colour.setdefault(colours[v], []).append(v)
    dist: dict[int, dict[int, int]] = {}
    costs: dict[int, int] = {}
    for c, regions in sorted(by_colour.items()):
        if len(regions) < 3:
            continue  # gather_costs is exact for one or two regions
        if deadline.expired():
            return {}
        for v in regions:
            if v not in dist:
                if deadline.expired():
                    return {}
                dist[v] = distances(v, adj)
        costs[c] = cluster_cost(spread_sample(regions, dist, size), dist)
    return costs


def colour_bound(counts: Counter[int], final: int, gather: dict[int, int] | None = None,
                 order: bool = False) -> int:
    """Moves needed to leave only colour `final` on an island with these region counts per colour
    (and, when given, the island's `gather_costs`; without them only the single-region case counts).
    With `order` the gathering costs count by the vanishing order (models/bounds.md): the j-th colour to
    disappear (j = 0, 1, ...) needs its cost in moves before it, j of which may be earlier disappearances."""
    others = [c for c, n in counts.items() if c != final and n > 0]
    if not others:
        return 0
    if gather is None:
        return len(others) + (0 if any(counts[c] == 1 for c in others) else 1)
    if not order:
        return len(others) + min(gather[c] for c in others)
    costs = sorted(gather[c] for c in others)
    return len(others) + max(g - j for j, g in enumerate(costs))


def island_colour_bounds(counts: Counter[int], gather: dict[int, int] | None = None,
                         order: bool = False) -> tuple[int, dict[int, int]]:
    """`colour_bound` of one island for every final colour at once: (the bound for a final colour absent
    from the island, {present colour: its bound}). The bound for a present colour depends only on that
    colour's own count and gathering cost, so it is computed once per distinct pair: linear in the
    colours, where one `colour_bound` per colour is quadratic (a level of 100,000 colours took minutes)."""
    absent = colour_bound(counts, -1, gather, order)
    by_kind: dict[tuple[bool, int], int] = {}
    present: dict[int, int] = {}
    for c, n in counts.items():
        if n <= 0:
            continue
        kind = (n == 1, -1 if gather is None else gather[c])
        if kind not in by_kind:
            by_kind[kind] = colour_bound(counts, c, gather, order)
        present[c] = by_kind[kind]
    return absent, present


def _best_final(per_island: Sequence[tuple[int, Counter[int], dict[int, int] | None, ColourTerm]],
                num_colours: int, order: bool) -> tuple[int, int, int, int]:
    """(min over final colours d of sum over islands of max(radius term, colour bound for d, the island's
    term for d), the first d that attains it, the summed colour bound and the summed extra term for that d),
    in time linear in the islands' colours."""
    tables = []
    for rad, counts, gather, term in per_island:
        absent, present = island_colour_bounds(counts, gather, order)
        other = max(rad, absent, term.other)
        by = {c: max(rad, present.get(c, absent), term.for_colour(c)) for c in present.keys() | term.by_colour.keys()}
        tables.append((other, by, absent, present, term))
    base = sum(other for other, *_ in tables)
    delta = [0] * num_colours
    for other, by, *_ in tables:
        for c, value in by.items():
            delta[c] += value - other
    best_d = min(range(num_colours), key=lambda d: (delta[d], d)) if num_colours else 0
    colour_part = sum(present.get(best_d, absent) for _, _, absent, present, _ in tables)
    extra = sum(term.for_colour(best_d) for *_, term in tables)
    return base + (delta[best_d] if num_colours else 0), best_d, colour_part, extra


@dataclass(frozen=True)
class ColourTerm:
    """A lower bound on an island's moves that depends on the final colour d: `by_colour[d]` for the colours
    listed, `other` for every other colour (the pivot relation's term, `kamicp.prover.pivot_bound`)."""

    other: int = 0
    by_colour: dict[int, int] = field(default_factory=dict)

    def for_colour(self, d: int) -> int:
        return self.by_colour.get(d, self.other)


@dataclass(frozen=True)
class BoundReport:
    """The lower bound and the parts it was made from (for proofs and explanations)."""

    value: int
    radius: int  # largest island radius
    colours: int  # colours present
    islands: int
    final_colour: int  # a final colour that attains the bound
    colour_part: int = 0  # the colour bound (summed over islands) for that final colour
    ring: int = 0  # islands where no centre's outermost ring is one colour (their radius term is radius + 1)
    cut: bool = False  # the deadline cut the radius search (`radius` only a lower bound) or the gathering costs
    pivot: int = 0  # the pivot relation's term for that final colour, summed over the islands (0: not computed)
    plain: int = 0  # the bound without the pivot relation (the value when it was not computed)


def bound_report(adj: Sequence[Sequence[int]], colours: Sequence[int], num_colours: int,
                 deadline: Deadline = NEVER, clusters: int = 0, vanishing_order: bool = False,
                 pivot: Callable[[Sequence[int]], ColourTerm] | None = None) -> BoundReport:
    """Combined lower bound for a (contracted) region graph with colour indices < num_colors. Past the
    `deadline` the radius part is only estimated from below (`cut`), so the bound stays sound. With
    `clusters` = N > 0 each colour's gathering cost is also at least its `cluster_costs` (samples of N);
    with `vanishing_order` the colour bound counts the costs by the vanishing order (`colour_bound`).
    `pivot`: a lower bound on an island's moves (its regions given) per final colour, such as
    `pivot_bound.pivot_term`'s (models/pivot-free.md)."""
    n = len(colours)
    parts = islands(n, adj)
    per_island = []
    radii = []
    cut = False
    for nodes in parts:
        radius, ring, island_cut = _ring_radius(nodes, adj, colours, deadline)
        cut |= island_cut
        radii.append((radius, ring))
        counts = Counter(colours[v] for v in nodes)
        # past the deadline the colour bound does without the gathering costs (weaker, as sound)
        late = deadline.expired()
        cut |= late
        gather = None if late else gather_costs(nodes, adj, colours)
        if clusters > 0 and gather is not None:
            for c, cost in cluster_costs(nodes, adj, colours, clusters, deadline).items():
                gather[c] = max(gather[c], cost)
        per_island.append((radii[-1][1], counts, gather, pivot(nodes) if pivot is not None else ColourTerm()))
    best, best_d, colour_part, pivot_part = _best_final(per_island, num_colours, vanishing_order)
    plain = best if pivot is None else _best_final([(rad, counts, gather, ColourTerm())
                                                    for rad, counts, gather, _ in per_island],
                                                   num_colours, vanishing_order)[0]
    return BoundReport(
        value=best,
        radius=max(r for r, _ in radii),
        colours=len(set(colours)),
        islands=len(parts),
        final_colour=best_d,
        colour_part=colour_part,
        ring=sum(refined > r for r, refined in radii),
        cut=cut,
        pivot=pivot_part,
        plain=plain,
    )


def lower_bound(adj: Sequence[Sequence[int]], colours: Sequence[int], num_colours: int) -> int:
    return bound_report(adj, colours, num_colours).value


def quotient_bound(q: Quotient, num_colours: int) -> int:
    return lower_bound(q.adj, q.colours, num_colours)
