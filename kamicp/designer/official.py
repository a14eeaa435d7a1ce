"""Official solutions and level summaries: what a game file claims, checked by the rules engine.

A game file may ship the designer's solution (`Level.official`) and medal thresholds
(`Level.medals`). `check_official` replays that solution with `kamicp.board.rules.verify` and reports whether it
solves the board and whether its length equals the par; `summarize` gathers what `kamicp info` and
`kamicp convert` print.
"""

from __future__ import annotations

from dataclasses import dataclass

from kamicp.board.level import Level, Move
from kamicp.board.regions import regions_of
from kamicp.board.rules import verify
from kamicp.errors import RuleError
from kamicp.formats.json_format import move_data


@dataclass(frozen=True)
class OfficialReport:
    """The replay of a level's official solution.

    `valid` is True when every move is legal and the board ends in one colour; otherwise `error` is the
    RuleError text. `equals_par` is None when the level has no par.
    """

    moves: tuple[Move, ...]
    valid: bool
    error: str | None
    par: int | None

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def equals_par(self) -> bool | None:
        return None if self.par is None else self.length == self.par

    def describe(self) -> str:
        """One line: '3 moves, solves the board, equals par 3'."""
        n = self.length
        text = f"{n} move{'s' if n != 1 else ''}, "
        text += "solves the board" if self.valid else f"does not solve the board: {self.error}"
        if self.par is not None:
            text += f", {'equals' if self.equals_par else 'differs from'} par {self.par}"
        return text

    def to_dict(self, level: Level) -> dict:
        return {
            "moves": [_move(level, m) for m in self.moves],
            "length": self.length,
            "valid": self.valid,
            "error": self.error,
            "par": self.par,
            "equals_par": self.equals_par,
        }


def _move(level: Level, move: Move) -> dict:
    if 0 <= move.cell < level.size:
        return move_data(level, move)
    return {"tap": None, "cell": move.cell, "colour": move.colour}  # off the board: the replay says so


def check_official(level: Level) -> OfficialReport | None:
    """Replay the level's official solution (None when the level has none)."""
    if level.official is None:
        return None
    try:
        verify(level, level.official)
    except RuleError as e:
        return OfficialReport(level.official, False, str(e), level.par)
    return OfficialReport(level.official, True, None, level.par)


@dataclass(frozen=True)
class LevelSummary:
    """What a level file holds, as `kamicp info` shows it."""

    name: str
    geometry: str
    shape: tuple[int, int] | None
    cells: int
    regions: int
    colours: tuple[str, ...]
    palette: tuple[tuple[str, str], ...]
    par: int | None
    medals: tuple[tuple[str, int], ...]
    official: OfficialReport | None

    def to_dict(self, level: Level) -> dict:
        return {
            "name": self.name,
            "geometry": self.geometry,
            "shape": list(self.shape) if self.shape else None,
            "cells": self.cells,
            "regions": self.regions,
            "colours": list(self.colours),
            "palette": dict(self.palette),
            "par": self.par,
            "medals": dict(self.medals),
            "official": self.official.to_dict(level) if self.official else None,
        }


def summarize(level: Level) -> LevelSummary:
    """Size, region count, colours, par, medals and the official solution's replay of a level."""
    return LevelSummary(
        name=level.name,
        geometry=level.geometry,
        shape=level.shape,
        cells=level.size,
        regions=regions_of(level).size,
        colours=tuple(sorted(level.colour_keys)),
        palette=level.palette,
        par=level.par,
        medals=level.medals,
        official=check_official(level),
    )
