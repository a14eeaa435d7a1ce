"""Solver configuration, split by owner: the CP-SAT model's constraints, the CP-SAT engine, the search,
the upper-bound heuristics and the `auto` race with its timings; and the one registry of the techniques
`--no NAME` switches off.

Plain frozen data: tests and benchmarks set a tuning constant by giving a field a value, never by
patching a module global. Every constraint and pruning rule here is sound (models/flood.md,
models/strengthening.md, models/bounds.md); switching one off only makes the proof slower.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kamicp.errors import UsageError
from kamicp.prover.prior import After


@dataclass(frozen=True)
class ModelOptions:
    """The CP-SAT model's optional constraints (read by `model.FloodModel`)."""

    colour_count_bound: bool = True  # colours present after step t <= T - t + 1
    smallest_root: bool = True  # the connectivity root of a clicked set is its smallest region
    # The strengthenings below are proved in models/strengthening.md.
    tight_colours: bool = True  # no wiggle room (colours = moves left + 1): click every region of the old colour
    commuting_order: bool = True  # consecutive independent moves in increasing order of their smallest region
    radius_bound: bool = False  # connected boards: after step t some centre reaches every region within T - t
    radius_window: int = 0  # > 0: the radius constraint only for the steps with T - t <= radius_window
    symmetry: bool = False  # a colour-preserving involution sigma: first move on r only if r <= sigma(r)
    cpsat_parameters: tuple[tuple[str, object], ...] = ()  # extra CP-SAT parameters, e.g. (("num_workers", 8),)


@dataclass(frozen=True)
class CpSatOptions:
    """How the CP-SAT engine answers a horizon."""

    hints: bool = True  # hint the best known solution to CP-SAT (finds solutions faster, proves nothing)
    cubes: int = 4  # a horizon not solved whole within `cube_after` s is solved as this many first-move cubes
    cube_after: float = 2.0  # seconds CP-SAT tries a horizon whole first (1 part or fewer: always whole)


@dataclass(frozen=True)
class SearchOptions:
    """The IDA* search's pruning rules (the compiled core's; the Python reference always uses the full bound)."""

    compiled: bool | None = None  # None: the compiled search when built; False: pure Python
    por: bool = True  # the commuting-move order (same proof as the model's commuting_order)
    por_adjacent: bool = True  # ... also between adjacent moves that commute (models/strengthening.md §2)
    gather: bool = True  # prune with the gathering colour bound (models/bounds.md)
    ring: bool = True  # prune with the ring rule of the radius bound (models/bounds.md)
    symmetry: bool = False  # the model's symmetry rule at the search's root (measured slower: off)
    clusters: int = 8  # one-island nodes also pruned by the cluster gathering cost of up to this many regions (0: off)
    # one-island nodes also pruned by the pivot relation from this many far regions (0: off; models/pivot-free.md,
    # "At the search's nodes"): the layered bound of their pivot games (`pivot_layered`) at every node, their
    # A* optimum where the plain bound leaves `pivot_slack` moves of slack under the budget (0: at every such node;
    # benchmarks/topics/harder-set.md measures 0 against 1)
    pivot: int = 2
    pivot_slack: int = 0
    pivot_layered: bool = True
    # the compiled search paints only colours a neighbour of the region has, on a level of one island
    # (models/useful-colours.md: some optimal solution merges at every move, also with the commuting order)
    useful: bool = True
    # internal to cubes (kamicp/prover/prior.py): the compiled search answers "a solution canonical after this move?";
    # `solver.solve` refuses it (its "no" is not the level's answer), `solver.solve_after` takes it
    after: After | None = None
    # distributed proofs (prover/cubes.py): only canonical cubes, each child searched canonical after its last move
    cube_order: bool = True


@dataclass(frozen=True)
class BoundOptions:
    """The root lower bound (the first horizon of every engine; models/bounds.md)."""

    clusters: int = 8  # each colour's gathering cost also from clusters of up to this many of its regions (0: off)
    pivot: int = 16  # the pivot A*'s optimum from up to this many far regions per island (0: off; pivot-free.md)
    pivot_seconds: float = 2.0  # its budget (all islands and regions together) ...
    pivot_share: float = 0.05  # ... at most this share of a time limit


@dataclass(frozen=True)
class UpperOptions:
    """The upper-bound heuristics after the greedy (each proves nothing; each plan is replayed)."""

    beam: bool = True  # a compiled beam search (better than greedy)
    beam_seconds: float = 2.0  # its budget: its wide pass needs ~1 s at 100 regions
    beam_seconds_per_100: float = 2.5  # ... or this much per 100 regions, if more (a pass cut short finds no plan)
    beam_share: float = 0.05  # ... at most this share of a time limit
    rollout: bool = True  # then one move and a pivot rollout, every move tried
    rollout_seconds: float = 4.0  # its budget: 2.7 s at 89 regions
    rollout_share: float = 0.06  # ... at most this share of a time limit
    long_beam: bool = True  # the long proof: the beam again (LONG_BEAM_SCHEDULE), longer, if above the bound
    long_beam_seconds: float = 20.0  # its budget (the short one cuts the 32-wide pass on large boards) ...
    long_beam_share: float = 0.01  # ... at most this share of a time limit
    long_beam_min: float = 5.0  # seconds: with less, it is skipped (a pass cut short finds no plan)


@dataclass(frozen=True)
class RaceOptions:
    """The `auto` portfolio: the search and CP-SAT in two processes, sharing a ledger of proofs."""

    ledger: bool = True  # share proven horizons (and hand a lagging search's core to CP-SAT)
    top_down: bool = True  # CP-SAT skips to best - 1 when `top_down_span` horizons are left (strengthening.md §8)
    top_down_span: int = 2  # measured: tri-90b5c-proper-s405 skips horizon 9
    first_slice: float = 0.4  # seconds of search before the processes are started
    search_grace: float = 3.0  # seconds the search keeps a horizon CP-SAT solves in cubes before it helps
    search_helps_up_to: int = 110  # regions: on larger boards the search keeps its horizon (measured)
    wait_grace: float = 0.3  # seconds past the deadline the workers' answers are waited for, then they are stopped


@dataclass(frozen=True)
class SolveOptions:
    """Everything `solve` can be configured with, one part per owner."""

    model: ModelOptions = field(default_factory=ModelOptions)
    cpsat: CpSatOptions = field(default_factory=CpSatOptions)
    search: SearchOptions = field(default_factory=SearchOptions)
    bound: BoundOptions = field(default_factory=BoundOptions)
    upper: UpperOptions = field(default_factory=UpperOptions)
    race: RaceOptions = field(default_factory=RaceOptions)


def as_solve_options(options: SolveOptions | ModelOptions | None) -> SolveOptions:
    """`solve(options=...)` takes the whole configuration or only the model's constraints."""
    if options is None:
        return SolveOptions()
    if isinstance(options, ModelOptions):
        return SolveOptions(model=options)
    return options


@dataclass(frozen=True)
class Technique:
    """A `--no NAME` switch: which part of SolveOptions, which field, and its value when off."""

    part: str
    name: str
    off: object = False


# Techniques that can be switched off for ablation (CLI: solve --no NAME), in the order of --help.
TECHNIQUES: dict[str, Technique] = {
    "colour-count-bound": Technique("model", "colour_count_bound"),
    "tight-colours": Technique("model", "tight_colours"),
    "commuting-order": Technique("model", "commuting_order"),
    "smallest-root": Technique("model", "smallest_root"),
    "hints": Technique("cpsat", "hints"),
    "beam": Technique("upper", "beam"),
    "symmetry": Technique("model", "symmetry"),
    "search-por": Technique("search", "por"),
    "search-por-adjacent": Technique("search", "por_adjacent"),
    "useful-colours": Technique("search", "useful"),
    "search-gather": Technique("search", "gather"),
    "search-ring": Technique("search", "ring"),
    "ledger": Technique("race", "ledger"),
    "top-down": Technique("race", "top_down"),
    "search-helps": Technique("race", "search_helps_up_to", 0),  # the race's search keeps its horizon on every board
    "rollout": Technique("upper", "rollout"),
    "long-beam": Technique("upper", "long_beam"),  # the long proof without its longer beam
    "cubes": Technique("cpsat", "cubes", 1),  # one part: every horizon solved whole
    "compiled-search": Technique("search", "compiled"),
    "cluster-bound": Technique("bound", "clusters", 0),  # the root bound without the cluster gathering cost
    "pivot-bound": Technique("bound", "pivot", 0),  # the root bound (and the cubes') without the pivot relation
    "search-clusters": Technique("search", "clusters", 0),  # the search's pruning without it
    "search-pivot": Technique("search", "pivot", 0),  # the search's nodes without the pivot test
    "cube-order": Technique("search", "cube_order"),  # --dask: every cube, each child unrestricted
}


def options_without(names: list[str] | tuple[str, ...], base: SolveOptions | ModelOptions | None = None
                    ) -> SolveOptions:
    """`base` (default SolveOptions()) with the named techniques switched off."""
    unknown = [n for n in names if n not in TECHNIQUES]
    if unknown:
        raise UsageError(f"unknown technique {unknown[0]!r} (expected one of {', '.join(TECHNIQUES)})")
    options = as_solve_options(base)
    for name in names:
        t = TECHNIQUES[name]
        options = replace(options, **{t.part: replace(getattr(options, t.part), **{t.name: t.off})})
    return options
