"""The play server: a Starlette app over the library, served by uvicorn on 127.0.0.1.

The server keeps no game state but the level: every request carries the moves played so far, and the
rules engine replays them (it is the one authority on the rules; a bad move is answered with the
broken rule). Hint and solve run the solver with a time limit in a worker thread, one solve at a time,
so the page never blocks and no request can starve the others. The page itself is static HTML/JS/CSS
shipped in the package (kamicp/play/static), nothing fetched from anywhere else.

Endpoints (JSON): GET /api/level; POST /api/move, /api/hint, /api/solve, /api/optimum with {"token",
"moves"} (/api/move also takes "prove": false: a win answers at once, "checking" when the level's optimum
is not proven yet, and /api/optimum proves it, so the page can say it is checking meanwhile);
POST /api/open?name=FILE with the file's bytes as the body (at most MAX_UPLOAD bytes).
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kamicp.errors import KamiError, UsageError
from kamicp.formats.upload import load_upload, safe_name
from kamicp.hint import hint, move_from_data, position_level
from kamicp.level import Level, Move
from kamicp.play.view import level_view
from kamicp.rules import replay
from kamicp.solver import OPTIMAL, move_dict, solve

MAX_UPLOAD = 20 * 1024 * 1024  # bytes: a level file or a screenshot, never more
MAX_MOVES = 1000  # a request replaying more moves than this is refused
MAX_BODY = 1024 * 1024  # bytes of a JSON request (1000 moves fit many times over)
DEFAULT_TIME_LIMIT = 20.0  # seconds for a hint or a solve


@dataclass
class Game:
    """The server's one piece of state: the level being played, with a token that changes when another
    level is opened (a page still showing the old level gets a clear error, not a wrong answer)."""

    level: Level
    time_limit: float = DEFAULT_TIME_LIMIT
    engine: str = "auto"
    token: int = 1
    optimum: dict[int, int | None] = field(default_factory=dict)  # token -> proven optimum of the start
    lock: threading.Lock = field(default_factory=threading.Lock)  # one solver call at a time (in worker threads)
    _tokens: itertools.count = field(default_factory=lambda: itertools.count(2))

    def open(self, level: Level) -> None:
        self.level = level
        self.token = next(self._tokens)


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int, name: str) -> bytes:
    """The request's body, refused (413) as soon as it grows past `limit` bytes."""
    data = bytearray()
    async for chunk in request.stream():
        data.extend(chunk)
        if len(data) > limit:
            raise BadRequest(f"{name}: larger than {limit // (1024 * 1024)} MB", 413)
    return bytes(data)


async def _request(request: Request) -> dict:
    try:
        body = json.loads(await _body(request, MAX_BODY, "the request"))
    except ValueError:
        raise BadRequest("the request is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    return body


def _moves(body: dict, game: Game) -> tuple[Move, ...]:
    """The moves a request's body carries, read against the current level (a stale token is refused)."""
    if body.get("token") != game.token:
        raise BadRequest("another level was opened: reload the page", 409)
    items = body.get("moves", [])
    if not isinstance(items, list) or len(items) > MAX_MOVES:
        raise BadRequest(f"moves must be a list of at most {MAX_MOVES} moves")
    return tuple(move_from_data(game.level, item, f"move {k}") for k, item in enumerate(items, start=1))


def _handler(work: Callable[[Request, Game], Any]) -> Callable[[Request], Any]:
    """Wrap an endpoint: bad requests and every KamiError become {"error": one line} with status 400."""

    async def endpoint(request: Request) -> JSONResponse:
        game: Game = request.app.state.game
        try:
            return JSONResponse(await work(request, game))
        except BadRequest as e:
            return _error(str(e), e.status)
        except KamiError as e:
            return _error(str(e))

    return endpoint


def _status(level: Level, moves: int, solved: bool) -> str:
    if solved:
        return "solved"
    return "failed" if level.par is not None and moves >= level.par else "playing"


async def _solver(game: Game, call: Callable[[], Any]) -> Any:
    def locked() -> Any:
        with game.lock:
            return call()

    return await run_in_threadpool(locked)


async def get_level(request: Request, game: Game) -> dict:
    return level_view(game.level, game.token)


async def _optimum(game: Game) -> int | None:
    """The level's proven optimum (None: the time limit ran out first), solved once per level."""
    token, level = game.token, game.level
    if token not in game.optimum:
        result = await _solver(game, lambda: solve(level, time_limit=game.time_limit, engine=game.engine))
        game.optimum[token] = result.optimum
    return game.optimum[token]


def _verdict(optimum: int | None, moves: int) -> dict:
    return {"optimum": optimum, "optimal": None if optimum is None else moves <= optimum}


async def post_move(request: Request, game: Game) -> dict:
    """The position after the moves (each checked by the rules engine), and on a win how good it was;
    with "prove": false a win whose optimum is not proven yet answers at once with "checking": true."""
    body = await _request(request)
    moves = _moves(body, game)
    board = replay(game.level, moves)[-1]
    reply = {"colors": list(board.colors), "moves": len(moves), "status": _status(game.level, len(moves), board.solved),
             "optimum": None, "optimal": None, "checking": False}
    if board.solved:
        if body.get("prove", True) is False and game.token not in game.optimum:
            reply["checking"] = True
        else:
            reply.update(_verdict(await _optimum(game), len(moves)))
    return reply


async def post_optimum(request: Request, game: Game) -> dict:
    """Whether a win was optimal: the level's proven optimum (at most the time limit) against its moves."""
    moves = _moves(await _request(request), game)
    if not replay(game.level, moves)[-1].solved:
        raise BadRequest("the moves do not solve the level")
    return {"moves": len(moves), **_verdict(await _optimum(game), len(moves))}


async def post_hint(request: Request, game: Game) -> dict:
    moves = _moves(await _request(request), game)
    level = game.level
    answer = await _solver(game, lambda: hint(level, moves, time_limit=game.time_limit, engine=game.engine))
    return answer.to_dict(level, region=True)


async def post_solve(request: Request, game: Game) -> dict:
    """A proven optimal solution from the position (or the best found, status 'unknown', at the time limit)."""
    moves = _moves(await _request(request), game)
    level = game.level
    board = replay(level, moves)[-1]
    if board.solved:
        return {"status": "solved", "moves": [], "remaining": 0}
    result = await _solver(game, lambda: solve(position_level(level, board), time_limit=game.time_limit,
                                               engine=game.engine))
    return {"status": result.status, "moves": [move_dict(level, m) for m in result.moves],
            "remaining": len(result.moves) if result.status == OPTIMAL else None,
            "lower_bound": result.lower_bound}


async def post_open(request: Request, game: Game) -> dict:
    """Open another level: the file's bytes as the body, its name in ?name=."""
    name = safe_name(request.query_params.get("name", "upload"))
    data = await _body(request, MAX_UPLOAD, name)
    if not data:
        raise UsageError(f"{name}: the file is empty")
    level = await run_in_threadpool(load_upload, name, data)
    game.open(level)
    return level_view(level, game.token)


def create_app(level: Level, *, time_limit: float = DEFAULT_TIME_LIMIT, engine: str = "auto") -> Starlette:
    """The play app for `level`; hint and solve get `time_limit` seconds each."""
    routes = [
        Route("/api/level", _handler(get_level), methods=["GET"]),
        Route("/api/move", _handler(post_move), methods=["POST"]),
        Route("/api/hint", _handler(post_hint), methods=["POST"]),
        Route("/api/solve", _handler(post_solve), methods=["POST"]),
        Route("/api/optimum", _handler(post_optimum), methods=["POST"]),
        Route("/api/open", _handler(post_open), methods=["POST"]),
        Mount("/", StaticFiles(packages=[("kamicp.play", "static")], html=True), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.game = Game(level, time_limit=time_limit, engine=engine)
    return app


def bind(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1 (`port` 0: a free port the system picks)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {e.strerror}") from None
    sock.listen(64)
    return sock


def serve(app: Starlette, sock: socket.socket, on_ready: Callable[[str], None] | None = None) -> None:
    """Serve `app` on `sock` until Ctrl-C (uvicorn handles the signal and shuts down cleanly)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            if on_ready is not None and self.started:
                on_ready(url_of(sock))

    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    Server(config).run(sockets=[sock])


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}/"
