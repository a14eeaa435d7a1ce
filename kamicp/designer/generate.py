"""A level generator with proven par: random blob boards, adjusted until the proven optimum is the par.

Each attempt paints a board of random blobs (a noisy Voronoi partition, touching blobs coloured apart
where the colours allow, optionally mirror- or rotation-symmetric) and asks the solver for its optimum
up to the par. Too easy: the next attempt has more blobs; too hard (or not proven in time): fewer. The
first board whose optimum is proven to be exactly the par (and, with `unique`, whose optimal solutions
form one class, `kamicp.designer.count`) is the level; the solver's proof goes with it. Deterministic for a seed
(level i of a pack draws from its own generator seeded by (seed, i)), as long as no attempt reaches its
time limit: which attempts time out depends on the machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from kamicp.board.level import Level
from kamicp.board.regions import regions_of
from kamicp.designer.count import CountResult, count_with
from kamicp.errors import SolverError, UsageError
from kamicp.limits import ENV, limits
from kamicp.prover.bounds import lower_bound
from kamicp.prover.outcome import proof_row
from kamicp.prover.request import Budget
from kamicp.prover.solver import OPTIMAL, Progress, Result, solve
from kamicp.runtime.clock import NEVER, Deadline

SIZES = {"triangle": (29, 10), "square": (10, 16)}  # the games' boards (Kami 2, Kami 1)
SYMMETRIES = ("none", "mirror", "rotate")
PALETTE = {"A": "#e9d8a6", "B": "#005f73", "C": "#ae2012", "D": "#ee9b00", "E": "#0a9396",
           "F": "#9b2226", "G": "#94d2bd", "H": "#3d405b", "I": "#f2cc8f"}
ATTEMPT_SECONDS = 10.0  # the solver's budget per board (less when the whole run's time is shorter)


@dataclass(frozen=True)
class GenerateSpec:
    """What to make. `rows`/`cols` default to the game's board; `time_limit` bounds a whole run."""

    geometry: str
    colours: int
    par: int
    rows: int | None = None
    cols: int | None = None
    symmetry: str = "none"
    unique: bool = False
    seed: int = 0
    time_limit: float | None = None
    max_attempts: int = 400
    engine: str = "auto"
    attempt_seconds: float = ATTEMPT_SECONDS  # a board not proven within this is dropped

    @property
    def shape(self) -> tuple[int, int]:
        rows, cols = SIZES.get(self.geometry, (0, 0))
        return self.rows or rows, self.cols or cols

    def check(self) -> None:
        if self.geometry not in SIZES:
            raise UsageError(f"geometry must be triangle or square, got {self.geometry!r}")
        if not 2 <= self.colours <= len(PALETTE):
            raise UsageError(f"colours must be 2 to {len(PALETTE)}, got {self.colours}")
        if self.par < 1:
            raise UsageError(f"par must be at least 1, got {self.par}")
        if self.par < self.colours - 1:
            raise UsageError(f"par {self.par} is too small for {self.colours} colours: a move removes at most one "
                             f"colour, so {self.colours} colours need at least {self.colours - 1} moves (give "
                             f"--par {self.colours - 1} or more, or --colours {self.par + 1} or fewer)")
        if self.seed < 0:
            raise UsageError(f"seed must be 0 or more, got {self.seed}")
        rows, cols = self.shape
        if rows < 1 or cols < 1 or rows * cols < 2:
            raise UsageError(f"the board must have at least 2 cells, got {rows} x {cols}")
        if self.par > rows * cols - 1:
            raise UsageError(f"par {self.par} is more than a {rows} x {cols} board can need: its {rows * cols} cells "
                             f"are one colour after at most {rows * cols - 1} moves (each move merges two regions "
                             "or more)")
        if rows * cols > limits().max_cells:  # as for a level read from a file: bounded memory
            raise UsageError(f"the board's {rows} x {cols} cells are over the limit of {limits().max_cells} "
                             f"cells (raise it with {ENV['max_cells']})")
        if self.symmetry not in SYMMETRIES:
            raise UsageError(f"symmetry must be one of {', '.join(SYMMETRIES)}, got {self.symmetry!r}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise UsageError(f"time-limit must be positive, got {self.time_limit!r}")
        symmetry_map(self.geometry, rows, cols, self.symmetry)  # raises if the board lacks that symmetry


@dataclass(frozen=True)
class Generated:
    """A level whose optimum is proven to be its par: the solver's `result` (its proof), the class
    count when uniqueness was asked for, and how many boards were tried."""

    level: Level
    result: Result
    count: CountResult | None
    attempts: int
    seconds: float
    seed: int
    index: int

    @property
    def regions(self) -> int:
        return self.result.regions

    def proof_data(self) -> dict:
        """The proof attached to the file: each horizon's outcome and engine, and the replayed solution."""
        from kamicp.formats.json_format import move_data  # (the format module builds the file)

        data: dict = {
            "optimum": self.result.optimum,
            "horizons": [proof_row(h) for h in self.result.proof_by_horizon()],
            "solution": [move_data(self.level, m) for m in self.result.moves],
            "regions": self.regions,
            "generator": {"seed": self.seed, "index": self.index, "attempts": self.attempts},
        }
        if self.count is not None:
            data.update(solutions=self.count.solutions, classes=self.count.classes,
                        complete=self.count.complete)
        return data


def symmetry_map(geometry: str, rows: int, cols: int, symmetry: str) -> list[int] | None:
    """The cell map of a mirror (left-right) or 180-degree rotation, checked to keep the cell graph;
    None for no symmetry. UsageError when the board's shape breaks it (triangles flip direction)."""
    if symmetry == "none":
        return None
    board = Level.from_rows(["A" * cols] * rows, geometry)
    image = {(r, c): (r, cols - 1 - c) if symmetry == "mirror" else (rows - 1 - r, cols - 1 - c)
             for r in range(rows) for c in range(cols)}
    sigma = [board.index(image[label]) for label in board.labels]  # type: ignore[index]
    edges = set(board.edges)
    if any(tuple(sorted((sigma[i], sigma[j]))) not in edges for i, j in edges):
        raise UsageError(f"a {rows} x {cols} {geometry} board has no {symmetry} symmetry "
                         f"(triangle boards need an even column count to mirror, an odd rows + cols to rotate)")
    return sigma


def blob_rows(rng: random.Random, geometry: str, rows: int, cols: int, blobs: int, colours: int,
              sigma: list[int] | None) -> list[str]:
    """A board of `blobs` noisy Voronoi blobs, touching blobs coloured apart when the colours allow."""
    aspect = 0.5 if geometry == "triangle" else 1.0  # triangle rows are half as tall
    seeds = [(rng.uniform(0, rows), rng.uniform(0, cols)) for _ in range(blobs)]
    owner = [min(range(blobs), key=lambda b: ((r - seeds[b][0]) * aspect) ** 2 + (c - seeds[b][1]) ** 2
                 + rng.uniform(0, 0.8)) for r in range(rows) for c in range(cols)]
    if sigma is not None:  # every cell takes the blob of the smaller cell of its pair
        owner = [owner[min(i, sigma[i])] for i in range(len(owner))]
    board = Level.from_rows(["A" * cols] * rows, geometry)
    touching: dict[int, set[int]] = {b: set() for b in range(blobs)}
    for i, j in board.edges:
        if owner[i] != owner[j]:
            touching[owner[i]].add(owner[j])
            touching[owner[j]].add(owner[i])
    keys = list(PALETTE)[:colours]
    colour: dict[int, str] = {}
    for b in sorted(range(blobs), key=lambda b: -len(touching[b])):
        free = [k for k in keys if all(colour.get(n) != k for n in touching[b])]
        colour[b] = rng.choice(free or keys)
    cells = [colour[b] for b in owner]
    return ["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)]


def level_name(spec: GenerateSpec, index: int) -> str:
    kind = "tri" if spec.geometry == "triangle" else "squ"
    return f"gen-{kind}-par{spec.par}-s{spec.seed}-{index + 1:03d}"


def generate_level(spec: GenerateSpec, index: int = 0, *, deadline: Deadline = NEVER,
                   progress: Progress | None = None) -> Generated:
    """The `index`-th level of `spec`'s pack. SolverError when `max_attempts` boards all missed the par;
    TimeoutError when the pack's `deadline` passes first. `progress` hears each board."""
    spec.check()
    clock = Deadline.never()  # (times this level)
    rng = random.Random(f"kamicp-generate/{spec.seed}/{index}")
    rows, cols = spec.shape
    sigma = symmetry_map(spec.geometry, rows, cols, spec.symmetry)
    blobs = max(2, min(rows * cols, 3 * spec.par))
    for attempt in range(1, spec.max_attempts + 1):
        attempt_deadline = deadline.within(spec.attempt_seconds)
        if attempt_deadline.left() <= 0:
            tried = f" ({attempt - 1} board{'s' if attempt > 2 else ''} tried for it)" if attempt > 1 else ""
            raise TimeoutError(f"the time limit ran out while making level {index + 1}{tried}")
        grid = blob_rows(rng, spec.geometry, rows, cols, blobs, spec.colours, sigma)
        used = sorted(set("".join(grid)))
        if len(used) < spec.colours:  # a level of fewer colours than asked for is not what was asked for
            blobs = min(rows * cols, blobs + 1)
            continue
        level = Level.from_rows(grid, spec.geometry, name=level_name(spec, index),
                                palette={k: PALETTE[k] for k in used})
        regions = regions_of(level)
        if lower_bound(regions.adj, regions.colours, len(regions.palette)) > spec.par:
            blobs = max(2, blobs - max(1, blobs // 6))  # too hard, by the bound alone: no need to solve
            continue
        result = solve(level, budget=Budget(max_steps=spec.par, deadline=attempt_deadline, engine=spec.engine))
        if progress:
            found = len(result.moves) if result.status == OPTIMAL else f"{result.status} {result.lower_bound}.."
            progress(f"board {attempt}: {blobs} blobs, {result.regions} regions, optimum {found}")
        if result.status == OPTIMAL and len(result.moves) < spec.par:
            blobs = min(rows * cols, blobs + max(1, blobs // 6))  # too easy
            continue
        if result.status != OPTIMAL:
            blobs = max(2, blobs - max(1, blobs // 6))  # too hard, or not proven in time
            continue
        count = None
        if spec.unique:
            count = count_with(level, result, limit=2, deadline=deadline.within(spec.attempt_seconds))
            if not count.unique:
                continue
        return Generated(level.with_par(spec.par), result, count, attempt, clock.elapsed(),
                         spec.seed, index)
    raise SolverError(f"no board of par {spec.par} found in {spec.max_attempts} attempts "
                      f"({spec.geometry} {rows} x {cols}, {spec.colours} colours)")


def generate_pack(spec: GenerateSpec, count: int, progress: Progress | None = None,
                  deadline: Deadline | None = None) -> Iterator[Generated]:
    """`count` levels (indices 0..count-1), each proven; stops with TimeoutError at `spec.time_limit` (or the
    caller's `deadline`, whose clock started earlier)."""
    spec.check()
    if count < 1:
        raise UsageError(f"count must be at least 1, got {count}")
    deadline = Deadline.after(spec.time_limit) if deadline is None else deadline
    for index in range(count):
        yield generate_level(spec, index, deadline=deadline, progress=progress)
