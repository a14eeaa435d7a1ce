"""Katamino challenges the way the game states them, and books of them.

A challenge is an ordered list of pieces and a starting width: its puzzles are the 5 x w boards for
w = start .. the number of pieces, each with the first w pieces (the game's slider). A book is a named
list of challenges. Plain data in (parsed JSON, read by the Katamino file reader), typed data out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from kamicp.errors import FormatError, UsageError
from kamicp.katamino.pieces import Rule
from kamicp.katamino.puzzle import Puzzle, check_pieces, read_rule
from kamicp.katamino.solver import AUTO, KataminoResult, solve_katamino
from kamicp.runtime.clock import Deadline
from kamicp.runtime.text import short

ROWS = 5  # the game's tray is 5 cells high
MAX_CHALLENGES = 10_000  # a book holds at most this many (bounded time on hostile input)
MAX_NAME = 200


@dataclass(frozen=True)
class Challenge:
    name: str
    pieces: str  # distinct letters, in the order the slider uncovers them
    start: int  # the first width played
    rule: Rule = Rule.KATAMINO

    @property
    def widths(self) -> range:
        return range(self.start, len(self.pieces) + 1)

    def puzzle(self, width: int) -> Puzzle:
        """The 5 x width board with the first `width` pieces."""
        return Puzzle(ROWS, width, self.pieces[:width], name=f"{self.name} 5x{width}", rule=self.rule)

    def puzzles(self) -> tuple[Puzzle, ...]:
        return tuple(self.puzzle(w) for w in self.widths)


@dataclass(frozen=True)
class Book:
    name: str
    challenges: tuple[Challenge, ...]

    @property
    def size(self) -> int:
        """The number of puzzles in the book."""
        return sum(len(c.widths) for c in self.challenges)

    def with_rule(self, rule: Rule) -> Book:
        return Book(self.name, tuple(Challenge(c.name, c.pieces, c.start, rule) for c in self.challenges))


def _name(value: Any, source: str, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise FormatError(f"must be a string of at most {MAX_NAME} characters, got {short(value)}",
                          source=source, where=where)
    return value


def challenge_from_data(data: Any, source: str = "", where: str = "", *, number: int = 1,
                        rule: Rule = Rule.KATAMINO) -> Challenge:
    """One challenge from `{"pieces": "LYPNU...", "start": 3, "name"?, "rule"?}`."""
    at = f"{where} " if where else ""
    if not isinstance(data, dict):
        raise FormatError('must be a JSON object {"pieces", "start", "name"}', source=source, where=where or None)
    for key in ("pieces", "start"):
        if key not in data:
            raise FormatError("is missing", source=source, where=f"{at}field {key!r}")
    pieces = data["pieces"]
    if not isinstance(pieces, str):
        raise FormatError(f'must be a string of piece letters such as "LYPNU", got {short(pieces)}',
                          source=source, where=f"{at}field 'pieces'")
    pieces = pieces.strip().upper()
    try:
        check_pieces(pieces)
    except UsageError as e:
        raise FormatError(str(e), source=source, where=f"{at}field 'pieces'") from None
    start = data["start"]
    if isinstance(start, bool) or not isinstance(start, int) or not 1 <= start <= len(pieces):
        raise FormatError(f"must be a width from 1 to the number of pieces ({len(pieces)}), got {short(start)}",
                          source=source, where=f"{at}field 'start'")
    name = _name(data.get("name", f"{number}"), source, f"{at}field 'name'")
    if "rule" in data:
        rule = read_rule(data["rule"], source, f"{at}field 'rule'")
    return Challenge(name or f"{number}", pieces, start, rule)


def book_from_data(data: Any, source: str = "", default_name: str = "") -> Book:
    """A book `{"name"?, "rule"?, "challenges": [challenge, ...]}`, or one challenge alone (a book of one);
    FormatError naming the challenge and the field."""
    if isinstance(data, dict) and "challenges" not in data and "pieces" in data:
        return Book(default_name, (challenge_from_data(data, source),))
    if not isinstance(data, dict):
        raise FormatError('must be a JSON object {"name", "challenges": [...]}', source=source)
    items = data.get("challenges")
    if not isinstance(items, list) or not items:
        raise FormatError("must be a non-empty list of challenges", source=source, where="field 'challenges'")
    if len(items) > MAX_CHALLENGES:
        raise FormatError(f"holds {len(items)} challenges, at most {MAX_CHALLENGES} are read", source=source,
                          where="field 'challenges'")
    rule = read_rule(data["rule"], source) if "rule" in data else Rule.KATAMINO
    name = _name(data.get("name", default_name), source, "field 'name'")
    challenges = tuple(challenge_from_data(item, source, f"challenge {k}", number=k, rule=rule)
                       for k, item in enumerate(items, start=1))
    return Book(name or default_name, challenges)


def solve_book(book: Book, *, engine: str = AUTO, count: bool = False, time_limit: float | None = None,
               deadline: Deadline | None = None) -> Iterator[tuple[int, KataminoResult]]:
    """Every puzzle of every challenge in turn, as (challenge index, result). The time limit (or the
    caller's `deadline`) holds for the whole book: once it is spent no puzzle is started (the iteration
    ends early; the caller sees which puzzles it got). Each result's puzzle is a fresh copy, without the
    placements the solve computed, so the results of a long book cost little memory each."""
    if time_limit is not None and time_limit <= 0:
        raise UsageError(f"time limit must be positive, got {time_limit}")
    deadline = Deadline.after(time_limit) if deadline is None else deadline
    for k, challenge in enumerate(book.challenges):
        for puzzle in challenge.puzzles():  # (each puzzle's clock times it; the book's deadline holds)
            if deadline.expired():
                return
            result = solve_katamino(puzzle, engine=engine, count=count, deadline=deadline.within(None))
            yield k, replace(result, puzzle=replace(result.puzzle))  # (drops the cached placements)
