"""The levels the play server holds: the one it was started with, and those pages opened since, each under
an unguessable token. A page plays the level of its token: opening a level in one tab does not change
what another tab plays, and a reload starts again from the server's own level."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, apply_move
from kamicp.errors import KamiError
from kamicp.runtime.clock import Deadline

MAX_OPENED = 16  # levels opened by pages kept at once (the oldest is forgotten: its pages must reload)
UNKNOWN = object()  # a level's optimum not solved yet


class Stale(KamiError):
    """A token the server does not hold (another server, or a level forgotten since)."""


class TooSlow(KamiError):
    """A replay ran past its deadline."""


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Session:
    level: Level
    view: bytes = b""  # what the page draws (kamicp.play.view), as JSON, rendered once
    token: str = field(default_factory=new_token)
    optimum: object = UNKNOWN  # the proven optimum of the start (None: the time limit ran out)
    _last: tuple[tuple[Move, ...], Board] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def replay(self, moves: Sequence[Move], seconds: float, stopped: Callable[[], bool] = lambda: False) -> Board:
        """The board after `moves` (each applied by the rules engine), TooSlow past `seconds` or once
        `stopped()` (the server is stopping). The last position is kept: a page adding one move to its
        last request replays only that move."""
        moves = tuple(moves)
        end = Deadline.slice(seconds)
        with self._lock:
            last = self._last
        if last is not None and moves[: len(last[0])] == last[0]:
            done, board = len(last[0]), last[1]
        else:
            done, board = 0, Board.start(self.level)
        for step in range(done, len(moves)):
            board = apply_move(board, moves[step], step=step + 1)
            if step + 1 < len(moves):
                if end.expired():
                    raise TooSlow(f"replaying {len(moves)} moves took over {seconds:.0f} s ({step + 1} done)")
                if stopped():
                    raise TooSlow("the server is stopping")
        with self._lock:
            self._last = (moves, board)
        return board


class Sessions:
    """The server's level (`home`, never forgotten) and up to MAX_OPENED levels opened by pages."""

    def __init__(self, home: Session) -> None:
        self.home = home
        self._opened: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> Session:
        with self._lock:
            self._opened[session.token] = session
            while len(self._opened) > MAX_OPENED:
                self._opened.popitem(last=False)
        return session

    def get(self, token: object) -> Session:
        if isinstance(token, str):
            if secrets.compare_digest(token.encode("utf-8", "replace"), self.home.token.encode()):
                return self.home
            with self._lock:
                session = self._opened.get(token)
                if session is not None:
                    self._opened.move_to_end(token)
                    return session
        raise Stale("this level is no longer open on the server (it was restarted, or too many levels were "
                    "opened since): reload the page")
