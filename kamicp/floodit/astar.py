"""The pivot A* of the compiled core (kamicp/_core/flood_astar.hpp): A* on the flooded set with the layered
bound (models/bounds.md, "The layered bound"), run in slices so that the caller sees progress, its
deadline and the process's interrupt between them. With several threads the core expands a batch of flood
sets of the same f together (models/bounds.md, "Expanding in batches").

Memory is bounded by a cap on stored flood sets, from `memory_mb`: at the cap the search stops, and what
it proved (the smallest f still open, a lower bound) is kept; the caller then answers `unknown` with that
bound (measured against a fallback to IDA* in benchmarks/RESULTS.md, "Flood-It 99").
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from kamicp.errors import SolverError
from kamicp.floodit.game import PivotGame
from kamicp.prover.search import compiled_core
from kamicp.runtime.clock import NEVER, Deadline
from kamicp.runtime.interrupt import INTERRUPT

SLICE = 0.25  # seconds of search between looks at the clock, the interrupt flag and the progress line


def _half_the_memory() -> int:
    """Half the machine's physical memory in MB (6000 where the platform does not say)."""
    try:
        return max(256, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**21)
    except (AttributeError, ValueError, OSError):  # pragma: no cover - no sysconf on this platform
        return 6000


# The default budget of the stored sets: half the machine's memory (the peak adds the interpreter and, as the
# table doubles, its old half; an address-space limit lowers it, see PivotAStar)
MEMORY_MB = _half_the_memory()
MAX_COLOURS = 15  # what the compiled core takes
MAX_REGIONS = 20_000  # beyond, a neighbour table of regions x regions bits outgrows its use: IDA* and CP-SAT
MAX_THREADS = 8  # the default's ceiling: the serial part of each batch (storing the children) caps the gain


@dataclass(frozen=True)
class AStarOutcome:
    """How an A* run ended: `optimal` (plan proven shortest), `capped` (memory cap), `timeout`, `interrupted`
    or `no-solution`; `lower` is proven, `plan` the shortest solution found (colour indices) or None."""

    status: str
    plan: tuple[int, ...] | None
    lower: int
    root_bound: int
    stored: int
    expanded: int
    bytes: int
    seconds: float


def available(game: PivotGame) -> bool:
    """Whether the compiled A* takes this game (built core, at most MAX_COLOURS colours and MAX_REGIONS regions)."""
    return compiled_core is not None and len(game.regions.palette) <= MAX_COLOURS and game.n <= MAX_REGIONS


def bytes_per_set(regions: int) -> int:
    """Memory per stored flood set, a little above the measured: the bitset and 8 bytes of parent, g, h, move
    and f (blocked arenas), its share of the hash table (4-byte entries, at most 70 % full) and the open list."""
    return 8 * ((regions + 63) // 64) + 32


def _address_space_mb() -> int:
    """The process's address-space limit (RLIMIT_AS, as packs set it) in MB, or a large number."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):  # pragma: no cover - no such limit on this platform
        return 1 << 40
    return 1 << 40 if soft == resource.RLIM_INFINITY else soft // 2**20


def layered_bound(game: PivotGame, flooded: int) -> int:
    """The layered bound of a flooded set (bit mask over regions), computed by the compiled core."""
    regions = [i for i in range(game.n) if flooded >> i & 1]
    return compiled_core.flood_bound([list(a) for a in game.regions.adj], list(game.regions.colours),
                                     len(game.regions.palette), game.start, regions)


def default_threads() -> int:
    """The A*'s threads when none are asked for: the CPUs this process may run on, at most MAX_THREADS."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - no affinity on this platform
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_THREADS))


class PivotAStar:
    def __init__(self, game: PivotGame, memory_mb: int = MEMORY_MB, limit: int | None = None,
                 threads: int | None = None, order: bool = True) -> None:
        """`limit`: look only for plans of at most that many moves (`no-solution` when there is none);
        `threads`: how many expand each batch of flood sets together (None: default_threads()); `order`:
        independent moves in a fixed order (models/bounds.md, "Moves in a fixed order"; off: for comparisons)."""
        if not available(game):
            raise SolverError("the compiled Flood-It A* is not available for this game")
        cap = max(1, min(memory_mb, _address_space_mb() // 2) * 2**20 // bytes_per_set(game.n))
        final = -1 if game.final is None else game.final
        self.threads = default_threads() if threads is None else threads
        self._handle = compiled_core.flood_create([list(a) for a in game.regions.adj], list(game.regions.colours),
                                                  len(game.regions.palette), game.start, final=final, cap=cap,
                                                  limit=-1 if limit is None else limit, lanes=self.threads,
                                                  order=order)
        self.cap = cap

    def run(self, deadline: Deadline = NEVER,
            progress: Callable[[dict], None] | None = None) -> AStarOutcome:
        t0 = time.monotonic()
        while True:
            left = min(SLICE, deadline.left())
            info = compiled_core.flood_run(self._handle, seconds=left)
            status = info["status"]
            if status == "running":
                if INTERRUPT.is_set():
                    status = "interrupted"
                elif deadline.expired():
                    status = "timeout"
            if status != "running":
                plan = info["plan"]
                return AStarOutcome(status, None if plan is None else tuple(plan), info["lower"],
                                    info["root_bound"], info["stored"], info["expanded"], info["bytes"],
                                    time.monotonic() - t0)
            if progress:
                progress(info)
