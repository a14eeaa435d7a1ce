"""Hints: the best next move from any position of a level, with the proven optimum from there.

The moves played so far are replayed by the rules engine (the authority: an illegal move is a RuleError
naming the broken rule). The position becomes a Level of its own (same cells, same labels, the current
colours) and is solved by the public `kamicp.prover.solver.solve`, so the hint carries the same proof as any
solve. Cells keep their indices in the position, so the solver's first move (a region named by its
top-left cell) is a tap on the original board.

A colour that has vanished from the board stays a legal move (as in the game): the position keeps it as
a spare colour, so the solver, its bounds and the rules engine all count it and the optimum from the
position is over exactly the moves a player has. The tests cross-check it against an exhaustive search.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kamicp.board.level import Label, Level, Move
from kamicp.board.rules import Board, apply_move
from kamicp.errors import RuleError, UsageError
from kamicp.limits import MAX_DIGITS, MAX_PLAYED, too_many_played
from kamicp.prover.request import Budget
from kamicp.prover.solver import OPTIMAL, Progress, Result, move_dict, solve
from kamicp.runtime.clock import Deadline
from kamicp.runtime.text import cut, json_int, short


class HintStatus(StrEnum):
    OPTIMAL = "optimal"  # `move` starts a proven shortest solution; `remaining` is the proven optimum
    SOLVED = "solved"  # the moves already solve the board: no move to give
    UNKNOWN = "unknown"  # the time limit cut the proof short: `move` starts the best solution found, if any


@dataclass(frozen=True)
class Hint:
    """The answer from one position. `remaining` is the proven optimum from it (None when unknown; then
    `lower_bound`..`upper_bound` bound it). `par_still_possible` is None when the level has no par or the
    bounds do not decide it. `region` holds the cells of the region `move` taps (to highlight it)."""

    level: str
    played: int
    status: HintStatus
    move: Move | None
    remaining: int | None
    lower_bound: int
    upper_bound: int | None
    par: int | None
    par_still_possible: bool | None
    region: tuple[int, ...]
    seconds: float

    def to_dict(self, level: Level, *, region: bool = False) -> dict:
        """Plain JSON-ready data; the move as {tap, colour, colour_name} like `solve --json`; with `region`,
        the taps of every cell of the region to tap (the play page highlights them)."""
        data = {
            "level": self.level,
            "played": self.played,
            "status": self.status.value,
            "move": None if self.move is None else move_dict(level, self.move),
            "remaining": self.remaining,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "par": self.par,
            "par_still_possible": self.par_still_possible,
            "seconds": round(self.seconds, 4),
        }
        if region:
            data["region"] = [level.tap_data(c) for c in self.region]
        return data


def position_level(level: Level, board: Board) -> Level:
    """The position as a level of its own (`Level.position`: same cells, current colours, the colours that
    have left the board kept as spare colours)."""
    return level.position(board.colours)


def _par_verdict(par: int | None, played: int, lower: int, upper: int | None) -> bool | None:
    if par is None:
        return None
    if played + lower > par:
        return False
    if upper is not None and played + upper <= par:
        return True
    return None


def hint(level: Level, moves: Sequence[Move] = (), *, time_limit: float | None = None, engine: str = "auto",
         workers: int | None = None, seed: int = 0, progress: Progress | None = None,
         budget: Budget | None = None) -> Hint:
    """Play `moves` from the start (checked by the rules engine), then find an optimal next move and prove
    the optimum from the position. With a time limit the answer may be UNKNOWN with bounds. `budget`: the
    time limit, workers, seed, engine and progress in one (it replaces those keywords; its max_steps is
    not used: a hint proves the optimum from the position, however long)."""
    if budget is None:
        budget = Budget.start(time_limit, workers=workers, seed=seed, engine=engine, progress=progress)
    clock = budget.deadline  # (the limit is the hint's: the replay's and the solve's; it times the hint)
    if len(moves) > MAX_PLAYED:
        raise UsageError(f"moves: {too_many_played()}")
    board = _replay_within(level, moves, clock)
    played = len(moves)
    if board is None:  # (the time limit passed in the replay: nothing is known of the position)
        return Hint(level.name, played, HintStatus.UNKNOWN, None, None, 0, None, level.par, None, (),
                    clock.elapsed())
    if board.solved:
        return Hint(level.name, played, HintStatus.SOLVED, None, 0, 0, 0, level.par,
                    _par_verdict(level.par, played, 0, 0), (), clock.elapsed())
    result: Result = solve(position_level(level, board), budget=budget.but(max_steps=None))
    first = result.moves[0] if result.moves else None
    status = HintStatus.OPTIMAL if result.status == OPTIMAL else HintStatus.UNKNOWN
    return Hint(
        level=level.name,
        played=played,
        status=status,
        move=first,
        remaining=result.optimum,
        lower_bound=result.lower_bound,
        upper_bound=result.upper_bound,
        par=level.par,
        par_still_possible=_par_verdict(level.par, played, result.lower_bound, result.upper_bound),
        region=tuple(board.region_at(first.cell)) if first else (),
        seconds=clock.elapsed(),
    )


def _replay_within(level: Level, moves: Sequence[Move], deadline: Deadline) -> Board | None:
    """The board after `moves` (each checked by the rules engine), keeping only the current board (a board
    per move grew the memory by the board's size per move); None once the deadline has passed."""
    board = Board.start(level)
    for step, move in enumerate(moves, start=1):
        if deadline.expired():
            return None
        board = apply_move(board, move, step=step)
    return board


# --- reading moves ------------------------------------------------------------------------------------
_GRID_TAP = re.compile(rf"\(?\s*([0-9]{{1,{MAX_DIGITS}}})\s*,\s*([0-9]{{1,{MAX_DIGITS}}})\s*\)?")  # int()-safe


def _colour_key(level: Level, text: str, where: str) -> str:
    """A colour key, or the palette name of one (case-insensitive), as written by a player."""
    if level.key_position(text) is not None:
        return text
    by_name = [k for k, v in level.palette if v.lower() == text.lower() or k.lower() == text.lower()]
    if len(by_name) == 1:
        return by_name[0]
    raise RuleError("known-colour", f"{where}: colour {cut(repr(text))} is not one of the level's colours "
                    f"({level.keys_text()})")


def _cell(level: Level, tap: object, where: str) -> int:
    label: Label
    if level.geometry == "graph":
        if isinstance(tap, list | tuple) or tap is None:
            raise UsageError(f"{where}: a graph level's tap is a node id, got {short(tap)}")
        label = str(tap)
    else:
        if isinstance(tap, str):
            m = _GRID_TAP.fullmatch(tap.strip())
            if not m:
                raise UsageError(f"{where}: a tap is 'row,col', got {cut(repr(tap))}")
            tap = [int(m.group(1)), int(m.group(2))]
        if not (isinstance(tap, list | tuple) and len(tap) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in tap)):
            raise UsageError(f"{where}: a tap is [row, col], got {short(tap)}")
        label = (tap[0], tap[1])
    if not level.has_cell(label):
        shown = cut(repr(label)) if isinstance(label, str) else f"({label[0]}, {label[1]})"
        raise RuleError("cell-exists", f"{where}: {shown} is not a cell of the level")
    return level.index(label)


def move_from_data(level: Level, item: object, where: str = "move") -> Move:
    """One move as JSON data: {"tap": [r, c] or "ID", "colour": KEY} (what `solve --json` prints; the older
    spelling "color" is read too)."""
    colour = item.get("colour", item.get("color")) if isinstance(item, dict) else None
    if not isinstance(item, dict) or "tap" not in item or colour is None:
        raise UsageError(f"{where}: expected {{\"tap\": ..., \"colour\": ...}}, got {short(item)}")
    if not isinstance(colour, str):
        raise UsageError(f"{where}: colour must be a string, got {short(colour)}")
    return Move(_cell(level, item["tap"], where), _colour_key(level, colour, where))


def parse_moves(level: Level, text: str) -> tuple[Move, ...]:
    """Moves as a player writes them: the JSON `solve --json` prints (the whole object or its "moves"
    list), or 'r,c:COLOUR;r,c:COLOUR' on grid levels, 'ID:COLOUR;ID:COLOUR' on graph levels."""
    text = text.strip()
    if not text:
        return ()
    if text[0] in "[{":
        try:  # integers of more than MAX_DIGITS digits stay HugeNumber, refused as taps
            data = json.loads(text, parse_int=json_int)
        except json.JSONDecodeError as e:
            raise UsageError(f"moves: not valid JSON ({e.msg} at character {e.pos + 1})") from None
        except RecursionError:  # the C decoder stops cleanly at the interpreter's recursion limit
            raise UsageError("moves: not valid JSON (nested too deeply)") from None
        items = data.get("moves") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise UsageError("moves: expected a list of moves or an object with a \"moves\" list")
        if len(items) > MAX_PLAYED:
            raise UsageError(f"moves: {too_many_played()}")
        return tuple(move_from_data(level, item, f"move {k}") for k, item in enumerate(items, start=1))
    moves = []
    for k, part in enumerate((p for p in text.split(";") if p.strip()), start=1):
        if k > MAX_PLAYED:
            raise UsageError(f"moves: {too_many_played()}")
        tap, sep, colour = part.rpartition(":")
        if not sep or not tap.strip() or not colour.strip():
            raise UsageError(f"move {k}: expected TAP:COLOUR, got {cut(repr(part.strip()))}")
        moves.append(move_from_data(level, {"tap": tap.strip(), "color": colour.strip()}, f"move {k}"))
    return tuple(moves)
