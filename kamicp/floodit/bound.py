"""The pivot lower bound (models/bounds.md, "Flood-It with a fixed pivot"): for a flooded set F,
h(F) = max over j = 0..D-1 of (j + the number of colours among the regions at distance > j from F),
where distances are hops in the initial region graph and D is the largest one. Admissible: a move only
absorbs regions adjacent to the flood, so after j moves the regions at distance > j are all unflooded,
and each of their colours needs a move of its own after that."""

from __future__ import annotations

from kamicp.floodit.game import PivotGame


def distances(game: PivotGame, flooded: int) -> dict[int, int]:
    """Hops from the flooded set to each unflooded region of the island (breadth-first)."""
    adj = game.regions.adj
    frontier = [i for i in range(game.n) if flooded >> i & 1]
    dist: dict[int, int] = {}
    seen = flooded
    d = 0
    while frontier:
        d += 1
        nxt = []
        for v in frontier:
            for w in adj[v]:
                if not seen >> w & 1:
                    seen |= 1 << w
                    dist[w] = d
                    nxt.append(w)
        frontier = nxt
    return dist


def pivot_bound(game: PivotGame, flooded: int, colour: int) -> int:
    """Moves still needed at least from (flooded, color)."""
    dist = distances(game, flooded)
    if not dist:
        return 0 if game.final is None or colour == game.final else 1
    far = max(dist.values())
    colours_beyond: list[set[int]] = [set() for _ in range(far)]  # [j]: colours at distance > j
    for v, d in dist.items():
        for j in range(d):
            colours_beyond[j].add(game.regions.colours[v])
    return max(j + len(cs) for j, cs in enumerate(colours_beyond))
