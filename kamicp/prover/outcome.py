"""What a solve answers, as typed data that travels unchanged from each engine to the CLI.

The enums are `StrEnum`s: they compare equal to their old string values ("optimal", "infeasible",
"cpsat", ...) and are written as those strings in JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum

from kamicp.board.level import Level, Move
from kamicp.board.regions import Regions
from kamicp.prover.bounds import BoundReport
from kamicp.prover.estimate import Estimate

Plan = list[tuple[int, int]]  # (initial region index, colour index) per move


class Status(StrEnum):
    """How a solve ended."""

    OPTIMAL = "optimal"  # moves are a shortest solution; every shorter horizon was refuted
    NO_SOLUTION = "no-solution"  # no solution within max_steps moves (proven)
    UNKNOWN = "unknown"  # the time limit ended the search; see the bounds


class Outcome(StrEnum):
    """How one horizon ("a solution of this many moves?") was answered."""

    INFEASIBLE = "infeasible"  # proven impossible
    FEASIBLE = "feasible"  # solved
    UNKNOWN = "unknown"  # time ran out, or the horizon was stopped
    BOUND = "bound"  # ruled out by the lower bound, no search needed
    IMPLIED = "implied"  # ruled out by a higher horizon's proof (connected boards, strengthening.md §8)


class EngineName(StrEnum):
    """Who answered: a proving engine, the portfolio, the lower bound or an upper-bound heuristic."""

    CPSAT = "cpsat"
    SEARCH = "search"
    ASTAR = "astar"  # the Flood-It A* (kamicp.floodit.astar)
    AUTO = "auto"
    BOUND = "bound"
    GREEDY = "greedy"
    BEAM = "beam"
    ROLLOUT = "rollout"
    CUBES = "cubes"  # a distributed proof: every cube of the horizon refuted (kamicp.prover.distributed)
    UNREACHABLE = "unreachable"  # Flood-It: regions the flood cannot reach differ in colour (no solution)


KAMI_ENGINES = (EngineName.CPSAT, EngineName.SEARCH, EngineName.AUTO)  # the ones a caller may choose


class Verdict(StrEnum):
    """Is a designed par right? The solver's four (`Validation.verdict`), and a pack row's two more for a
    level that got no answer (kamicp.packs)."""

    CORRECT = "correct"  # achievable and minimal
    NOT_MINIMAL = "not-minimal"  # a shorter solution exists
    UNACHIEVABLE = "unachievable"  # no solution within par
    UNKNOWN = "unknown"  # the time limit ended the search (see the bounds)
    BAD_INPUT = "bad-input"  # a pack's file could not be read, or no par was given
    ERROR = "error"  # a pack level's process crashed, ran out of memory or overran its time: no answer

    @property
    def answered(self) -> bool:
        """An answer for these settings (so a pack's --resume skips it); bad input and errors are tried
        again."""
        return self not in (Verdict.BAD_INPUT, Verdict.ERROR)

    @property
    def proven(self) -> bool:
        """A proof: the par is correct, beatable or unachievable whatever time, engine or seed gave it."""
        return self in (Verdict.CORRECT, Verdict.NOT_MINIMAL, Verdict.UNACHIEVABLE)


@dataclass(frozen=True)
class Horizon:
    """One step of a proof: can the level be solved in `steps` moves? For an 'implied' row, `engine` is
    the engine of the higher horizon's proof that implies it."""

    steps: int
    outcome: Outcome
    seconds: float
    engine: EngineName


def _shows_better(new: Horizon, old: Horizon) -> bool:
    """A horizon's row to show over another: a definite answer over 'unknown', the longer 'unknown'."""
    if old.outcome != Outcome.UNKNOWN:
        return False
    return new.outcome != Outcome.UNKNOWN or new.seconds > old.seconds


@dataclass(frozen=True)
class Result:
    """What a solve established. `lower_bound` is proven; `upper_bound` is the length of `moves`,
    the best replayed solution found (None when there is none)."""

    level: str
    status: Status
    moves: tuple[Move, ...]
    lower_bound: int
    upper_bound: int | None
    max_steps: int | None
    proof: tuple[Horizon, ...]
    engine: EngineName
    seconds: float
    regions: int
    colours: int
    bound: BoundReport = field(repr=False, default=None)  # type: ignore[assignment]
    estimate: Estimate | None = None  # an unknown answer: the open horizon's predicted cost (never a bound)

    @property
    def optimum(self) -> int | None:
        return len(self.moves) if self.status == Status.OPTIMAL else None

    def proof_by_horizon(self) -> tuple[Horizon, ...]:
        """The proof for display, one step per horizon in increasing order. Where several engines
        answered the same horizon (the portfolio), the first definite answer is kept over 'unknown'; of
        several 'unknown' answers, the engine that worked on it longest (the one the time limit stopped, not
        one that gave up at once), so the table says the engine and time the --json rows show spent."""
        chosen: dict[int, Horizon] = {}
        for h in self.proof:
            old = chosen.get(h.steps)
            if old is None or _shows_better(h, old):
                chosen[h.steps] = h
        return tuple(chosen[k] for k in sorted(chosen))

    def to_dict(self, level: Level) -> dict:
        """Plain JSON-ready data, moves with the cell a player taps and the colour's name."""
        return {
            "level": self.level,
            "status": str(self.status),
            "optimum": self.optimum,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "max_steps": self.max_steps,
            "moves": [move_dict(level, m) for m in self.moves],
            "proof": [proof_row(h) for h in self.proof],
            "engine": str(self.engine),
            "seconds": round(self.seconds, 4),
            "regions": self.regions,
            "colours": self.colours,
            "bound": bound_dict(self.bound) if self.bound else None,
            **({} if self.estimate is None else {"estimate": self.estimate.to_dict()}),
        }


@dataclass(frozen=True)
class Validation:
    """Is a level's par right? See `Verdict`."""

    level: str
    par: int
    verdict: Verdict
    result: Result

    @property
    def optimum(self) -> int | None:
        return self.result.optimum


class StoppedBy(StrEnum):
    """What cut a count short."""

    LIMIT = "limit"  # the classes reached --limit
    TIME = "time"  # the time limit
    INTERRUPT = "interrupt"  # SIGINT or SIGTERM


@dataclass(frozen=True)
class CountResult:
    """Optimal solutions of a level (kamicp.designer.count for Kami, kamicp.floodit.count for Flood-It). `solutions`
    and `classes` are exact when `complete`, else lower bounds (the limit or the time limit cut the count
    short). `optimum` is None when the solver did not prove one (then the counts are 0 and
    `lower_bound`/`upper_bound` say what is known)."""

    level: str
    optimum: int | None
    solutions: int
    classes: int
    complete: bool
    lower_bound: int
    upper_bound: int | None
    examples: tuple[tuple[Move, ...], ...]  # the first class representatives found (normal forms)
    seconds: float
    solutions_complete: bool = False  # `solutions` is exact (it is counted before the classes)
    stopped_by: StoppedBy | None = None  # what cut the count short, or None

    @property
    def unique(self) -> bool:
        """One class of optimal solutions (proven only when complete)."""
        return self.complete and self.classes == 1

    def to_dict(self, level: Level) -> dict:
        return {
            "level": self.level,
            "optimum": self.optimum,
            "solutions": self.solutions,
            "classes": self.classes,
            "complete": self.complete,
            "solutions_complete": self.solutions_complete,
            "stopped_by": self.stopped_by,
            "unique": self.unique,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "examples": [[move_dict(level, m) for m in plan] for plan in self.examples],
            "seconds": round(self.seconds, 4),
        }


def move_dict(level: Level, move: Move) -> dict:
    """A move in every --json output: the cell a player taps, the colour's key, and how the level shows that
    colour (its palette entry, else the key itself: the only name a level without a palette gives it)."""
    name = level.display_colour(move.colour) or move.colour
    return {"tap": level.tap_data(move.cell), "colour": move.colour, "colour_name": name}


def proof_row(h: Horizon) -> dict:
    """One proof row, the same in every output (solve, prove, generate's files, ...):
    {"steps", "outcome", "seconds", "engine"}."""
    return {"steps": h.steps, "outcome": str(h.outcome), "seconds": h.seconds, "engine": str(h.engine)}


def bound_dict(bound: object) -> dict:
    """A `bounds.BoundReport` in the JSON outputs' words (British `colour`, as everywhere in them)."""
    data = asdict(bound)  # type: ignore[call-overload]
    for key in ("colours", "final_colour"):  # (last, where the JSON outputs have always had them)
        data[key] = data.pop(key)
    return data


def to_moves(regions: Regions, plan: Plan) -> tuple[Move, ...]:
    """A plan on region indices as moves on the level's cells and colour keys."""
    return tuple(Move(regions.ids[r], regions.palette[c]) for r, c in plan)
