"""The options and arguments commands share (their types, names, help and ranges), and reading the
level a command's LEVEL argument names."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kamicp.board.level import Level
from kamicp.cli.console import bad_input, fail
from kamicp.formats import load_level
from kamicp.formats.flood99 import looks_like_flood99
from kamicp.prover.request import Rules
from kamicp.prover.solver import SEED_RANGE, TECHNIQUES, options_without
from kamicp.rulebook import rules_named


class EngineChoice(StrEnum):
    """The --engine option's choices (the engines a caller may pick: `outcome.KAMI_ENGINES`); not the engine
    objects of kamicp.prover.engines, nor `outcome.EngineName`, who answered a horizon."""

    CPSAT = "cpsat"
    SEARCH = "search"
    AUTO = "auto"


class RuleName(StrEnum):
    """The --rules option's choices (kamicp.rulebook.RULES); not the rules objects (kamicp.prover.request.Rules)."""

    FREE = "free"
    PIVOT = "pivot"


class Geometry(StrEnum):
    """The --geometry option's choices (the lattices of a text grid)."""

    TRIANGLE = "triangle"
    SQUARE = "square"


LevelArg = Annotated[Path, typer.Argument(metavar="LEVEL", help="Level file (.json, .puz, .xml, a screenshot "
                                          ".png/.jpg, a Flood-It board named rows_cols_colours_index, FILE#K for "
                                          "board K of a pack file, or a text grid with --geometry).",
                                          show_default=False)]
MaxSteps = Annotated[int | None, typer.Option("--max-steps", min=0, metavar="N",
                                                help="Look for solutions of at most N moves.")]
TimeLimit = Annotated[float | None, typer.Option("--time-limit", min=0.001, metavar="SECONDS",
                                                 help="Seconds for the whole command; then 'unknown'.")]
MAX_WORKERS = 256  # CP-SAT takes a 32-bit count; more threads than this only slow a machine down
Workers = Annotated[int | None, typer.Option("--workers", min=1, max=MAX_WORKERS, metavar="N",
                                             help=f"CP-SAT worker threads, and the Flood-It A*'s under --rules pivot "
                                             f"(default: the CPUs, at most 8) (1 to {MAX_WORKERS}).")]
EngineOpt = Annotated[EngineChoice, typer.Option("--engine", help="cpsat (the model), search (IDA*) or auto (both "
                                                 "race, first proof wins).")]
NoOpt = Annotated[list[str] | None, typer.Option("--no", metavar="TECHNIQUE", help="Switch a proof technique off "
                                                 f"(repeatable): {', '.join(TECHNIQUES)} (cube-order: --dask "
                                                 "only; the only one --dask takes).")]
SEED_MAX = SEED_RANGE[1]  # CP-SAT's random_seed is 32-bit, and the race adds small offsets to it
Seed = Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, metavar="N",
                                   help=f"Random seed passed to CP-SAT (0 to {SEED_MAX}).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
FormatOpt = Annotated[str | None, typer.Option("--format", metavar="FORMAT",
                                                help="Level format (json, text, puz, xml, flood99, floodpack, image); "
                                                "default: by extension (flood99: by name; FILE#K: floodpack).")]
GeometryOpt = Annotated[Geometry | None, typer.Option("--geometry", help="Geometry of a text grid.")]
StepsDirOpt = Annotated[Path | None, typer.Option("--steps-dir", metavar="DIR", help="Write one SVG and PNG per move "
                                                  "(step-01.svg, ...) and strip.svg/.png into DIR.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]
RulesOpt = Annotated[RuleName, typer.Option("--rules", help="free (Kami: tap any region) or pivot (Flood-It: every "
                                            "move repaints the region holding the pivot cell).")]
PivotOpt = Annotated[str | None, typer.Option("--pivot", metavar="R,C", help="The pivot cell for --rules pivot "
                                              "(row,col; a node id on graph levels); default the top-left cell.")]


def flood_it_note(path: Path, fmt: str | None, rules: RuleName) -> str | None:
    """The line that says a Flood-It board is being solved under Kami's rules (the default for every file:
    one level, one answer, whatever file it came in; hint and play know only Kami's rules), or None."""
    flood_it = fmt == "flood99" or (fmt is None and looks_like_flood99(path))
    if not flood_it or rules != RuleName.FREE:
        return None
    return ("note: a Flood-It board, solved under Kami's rules (tap any region); Flood-It's own rules "
            "(every move repaints the pivot's region): --rules pivot")


def rules_of(level: Level, rules: RuleName, pivot: str | None, no: list[str] | None = None) -> Rules:
    """The rules the options name, for `level` (kamicp.rulebook; UsageError when --pivot is malformed, not a
    cell, or without --rules pivot); `no`: the --no switches (Kami's)."""
    return rules_named(level, rules.value, pivot, options=options_without(no or []))


def load(path: Path, fmt: str | None, geometry: Geometry | None) -> Level:
    if path.is_dir():
        raise fail(f"{path}: is a directory, and this command takes one level file (`kamicp validate` takes "
                   "folders)")
    with bad_input():
        return load_level(path, fmt, geometry.value if geometry else None)
