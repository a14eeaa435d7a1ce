"""The play server: a Starlette app over the library, served by uvicorn on 127.0.0.1 (kamicp.play.serving).

The server holds levels, never games: each page plays the level of its token (kamicp.play.sessions) and
every request carries the moves played so far, which the rules engine replays (it is the one authority
on the rules; a bad move is answered with the broken rule). It is a local web service and treats every
request as possibly hostile: only the user's own tab may drive it (kamicp.play.guard), and no request
can hold the event loop or pile up work (kamicp.play.jobs): hint and solve run in a child process
that is killed when its client leaves, one at a time with a short queue (busy: 503 with Retry-After);
so does opening a level (reading an upload, drawing it: minutes for a level of thousands of colours),
so that stopping the server ends it at once; replays run in worker threads with deadlines. The page itself is static
HTML/JS/CSS shipped in the package (kamicp/play/static), nothing fetched from anywhere else.

Endpoints (JSON; errors are {"error": one line}): GET /api/level (the server's level and its token),
GET /api/levels (the bundled levels a page may pick); POST with a JSON body: /api/move, /api/hint,
/api/solve, /api/optimum with {"token", "moves"} (/api/move also takes "prove": false: a win answers at
once, "checking" when the level's optimum is not proven yet, and /api/optimum proves it, so the page can
say it is checking meanwhile), /api/pick with {"file"} (a bundled level); POST /api/open?name=FILE with
the file's bytes as an application/octet-stream body (at most MAX_UPLOAD bytes). Every body must arrive
within BODY_SECONDS (else 408), and is read before any gate is taken, so a slow sender holds no slot.
/api/pick and /api/open answer a new level under a new token; the server's own level and every other
page's stay as they are.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board
from kamicp.designer.hint import hint, move_from_data, position_level
from kamicp.errors import KamiError, UsageError
from kamicp.formats import load_level
from kamicp.formats.upload import load_upload, safe_name
from kamicp.play.guard import LocalOnly
from kamicp.play.jobs import Busy, Gate, Processes, Threads, unless_gone
from kamicp.play.sessions import UNKNOWN, Session, Sessions, Stale, TooSlow, new_token
from kamicp.play.view import level_view
from kamicp.prover.solver import OPTIMAL, move_dict, solve

MAX_UPLOAD = 20 * 1024 * 1024  # bytes: a level file or a screenshot, never more
MAX_MOVES = 1000  # a request replaying more moves than this is refused
MAX_BODY = 1024 * 1024  # bytes of a JSON request (1000 moves fit many times over)
BODY_SECONDS = 10.0  # a request's body must arrive within this (20 MB over 127.0.0.1 takes milliseconds)
MAX_RECEIVING = 3 * MAX_UPLOAD  # bytes of bodies being received at once, all connections together
DEFAULT_TIME_LIMIT = 20.0  # seconds for a hint or a solve
SOLVE_GRACE = 15.0  # seconds a solve's process may take beyond the time limit (start-up, bounds) before it is killed
WORK_SECONDS = 10.0  # deadline of a replay in a worker thread
OPEN_SECONDS = 60.0  # deadline of opening a level (reading it, drawing it) in its process
SOLVES_WAITING = 3  # hints and solves queued behind the running one; more are answered 503
WORK_SLOTS, WORK_WAITING = 2, 16  # replays and layouts at once, and queued
UPLOADS_WAITING = 2  # uploads queued behind the one being read (each holds up to MAX_UPLOAD bytes)
JSON_TYPE, UPLOAD_TYPE = "application/json", "application/octet-stream"


@dataclass(frozen=True)
class Settings:
    time_limit: float = DEFAULT_TIME_LIMIT
    engine: str = "auto"
    library: tuple[Path, ...] = ()  # bundled levels a page may pick


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Server:
    """What the endpoints share: the settings, the levels, and the gates of the heavy work."""

    def __init__(self, level: Level, settings: Settings) -> None:
        self.settings = settings
        self.sessions = Sessions(_new_session(level))
        self.solves = Processes(Gate("hints or solves", 1, SOLVES_WAITING, settings.time_limit))
        self.work = Threads(Gate("requests", WORK_SLOTS, WORK_WAITING, WORK_SECONDS))
        self.uploads = Processes(Gate("uploads", 1, UPLOADS_WAITING, WORK_SECONDS))
        self.picks = Processes(Gate("levels being opened", WORK_SLOTS, WORK_WAITING, WORK_SECONDS))
        self.receiving = 0  # bytes of request bodies being received (kept on the event loop: no lock)

    async def solve(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.solves.run(fn, *args, deadline=self.settings.time_limit + SOLVE_GRACE)

    async def open(self, opening: Processes, source: tuple[str, bytes] | Path) -> Response:
        """A new session for the level of `source` (an upload's name and bytes, or a bundled file), read
        and drawn in a child process (`open_job`) before its token is handed out."""
        token = new_token()
        level, view = await opening.run(open_job, source, token, deadline=OPEN_SECONDS)
        session = self.sessions.add(Session(level, view=view, token=token))
        return _view(session)

    def close(self) -> None:
        """Stop every piece of work now (the server is stopping; safe in a signal handler): the children
        are killed, replays stop at their next move, and nothing new starts."""
        for processes in (self.solves, self.uploads, self.picks):
            processes.close()
        self.work.close()


def bundled_levels() -> tuple[Path, ...]:
    """The bundled levels a page may pick: those installed with the package (kamicp/play/levels, which
    a built wheel carries, copied from puzzles/ by setup.py), else a checkout's puzzles/ folder."""
    here = Path(__file__).resolve()
    for folder in (here.parent / "levels", here.parents[2] / "puzzles"):
        if found := sorted(folder.glob("*.json")):
            return tuple(found)
    return ()


def _new_session(level: Level) -> Session:
    """A session for `level`, its view rendered to JSON once (a large level's view is megabytes: never
    rendered again, nor on the event loop)."""
    session = Session(level)
    session.view = _drawn(level, session.token)
    return session


def _drawn(level: Level, token: str) -> bytes:
    return json.dumps(level_view(level, token), separators=(",", ":")).encode()


def open_job(source: tuple[str, bytes] | Path, token: str) -> tuple[Level, bytes]:
    """In a child process: the level of an upload (name, bytes) or of a bundled file, and its view."""
    level = load_upload(*source) if isinstance(source, tuple) else load_level(source)
    return level, _drawn(level, token)


def _view(session: Session) -> Response:
    return Response(session.view, media_type="application/json")


def _error(message: str, status: int = 400, retry_after: int | None = None) -> JSONResponse:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _body(request: Request, limit: int, name: str) -> bytes:
    """The request's body, refused as soon as it grows past `limit` bytes (413), when it has not arrived
    within BODY_SECONDS (408: a slow sender, gone or hostile, holds a connection no longer), or when the
    bodies being received together pass MAX_RECEIVING bytes (503: memory stays bounded, though no gate
    is held while a body arrives)."""
    server: Server = request.app.state.server
    data = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                data.extend(chunk)
                server.receiving += len(chunk)
                if len(data) > limit:
                    raise BadRequest(f"{name}: larger than {limit // (1024 * 1024)} MB", 413)
                if server.receiving > MAX_RECEIVING:
                    raise Busy("busy: other uploads are being received; try again shortly", 1)
    except TimeoutError:
        raise BadRequest(f"{name}: the body did not arrive within {BODY_SECONDS:.0f} s", 408) from None
    finally:
        server.receiving -= len(data)
    return bytes(data)


async def _request(request: Request) -> dict:
    try:
        body = json.loads(await _body(request, MAX_BODY, "the request"))
    except RecursionError:
        raise BadRequest("the request is nested too deeply") from None
    except ValueError:
        raise BadRequest("the request is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    return body


def _moves(body: dict, level: Level) -> tuple[Move, ...]:
    items = body.get("moves", [])
    if not isinstance(items, list) or len(items) > MAX_MOVES:
        raise BadRequest(f"moves must be a list of at most {MAX_MOVES} moves")
    return tuple(move_from_data(level, item, f"move {k}") for k, item in enumerate(items, start=1))


async def _played(server: Server, body: dict) -> tuple[Session, tuple[Move, ...], Board]:
    """The request's session, its moves, and the board after them (replayed in a worker thread)."""
    session = server.sessions.get(body.get("token"))
    moves = _moves(body, session.level)
    return session, moves, await server.work.run(session.replay, moves, WORK_SECONDS, server.work.stopped)


def _handler(work: Callable[[Request, Server], Any]) -> Callable[[Request], Any]:
    """Wrap an endpoint: every refusal becomes {"error": one line} with its status."""

    async def endpoint(request: Request) -> Response:
        try:
            answer = await work(request, request.app.state.server)
            return answer if isinstance(answer, Response) else JSONResponse(answer)
        except BadRequest as e:
            return _error(str(e), e.status)
        except Busy as e:
            return _error(str(e), e.status, e.retry_after)
        except Stale as e:
            return _error(str(e), 409)
        except TooSlow as e:
            return _error(str(e), 503, round(WORK_SECONDS))
        except KamiError as e:
            return _error(str(e))
        except ClientDisconnect:  # the client went away mid-request: nobody reads the answer
            return Response(status_code=400)

    return endpoint


def _status(level: Level, moves: int, solved: bool) -> str:
    if solved:
        return "solved"
    return "failed" if level.par is not None and moves >= level.par else "playing"


# --- the solver's jobs, each run in a child process (kamicp.play.jobs) --------------------------------
def optimum_job(level: Level, time_limit: float, engine: str) -> int | None:
    return solve(level, time_limit=time_limit, engine=engine).optimum


def hint_job(level: Level, moves: tuple[Move, ...], time_limit: float, engine: str) -> dict:
    return hint(level, moves, time_limit=time_limit, engine=engine).to_dict(level, region=True)


def solve_job(level: Level, board: Board, time_limit: float, engine: str) -> dict:
    result = solve(position_level(level, board), time_limit=time_limit, engine=engine)
    return {"status": str(result.status), "moves": [move_dict(level, m) for m in result.moves],
            "remaining": len(result.moves) if result.status == OPTIMAL else None,
            "lower_bound": result.lower_bound}


async def _optimum(server: Server, session: Session) -> int | None:
    """The level's proven optimum (None: the time limit ran out first), solved once per level."""
    if session.optimum is UNKNOWN:
        s = server.settings
        session.optimum = await server.solve(optimum_job, session.level, s.time_limit, s.engine)
    return session.optimum  # type: ignore[return-value]


def _verdict(optimum: int | None, moves: int) -> dict:
    return {"optimum": optimum, "optimal": None if optimum is None else moves <= optimum}


# --- the endpoints -------------------------------------------------------------------------------------
async def get_level(request: Request, server: Server) -> Response:
    return _view(server.sessions.home)


async def get_levels(request: Request, server: Server) -> dict:
    return {"levels": [p.name for p in server.settings.library]}


async def post_move(request: Request, server: Server) -> dict | None:
    """The position after the moves (each checked by the rules engine), and on a win how good it was;
    with "prove": false a win whose optimum is not proven yet answers at once with "checking": true."""
    body = await _request(request)
    session, moves, board = await _played(server, body)
    reply = {"colors": list(board.colours), "moves": len(moves), "status": _status(session.level, len(moves),
                                                                                  board.solved),
             "optimum": None, "optimal": None, "checking": False}
    if board.solved:
        if body.get("prove", True) is False and session.optimum is UNKNOWN:
            reply["checking"] = True
        else:
            optimum = await unless_gone(request, lambda: _optimum(server, session))
            reply.update(_verdict(optimum, len(moves)))
    return reply


async def post_optimum(request: Request, server: Server) -> dict:
    """Whether a win was optimal: the level's proven optimum (at most the time limit) against its moves."""
    session, moves, board = await _played(server, await _request(request))
    if not board.solved:
        raise BadRequest("the moves do not solve the level")
    optimum = await unless_gone(request, lambda: _optimum(server, session))
    return {"moves": len(moves), **_verdict(optimum, len(moves))}


async def post_hint(request: Request, server: Server) -> dict:
    session, moves, _ = await _played(server, await _request(request))
    s = server.settings
    return await unless_gone(request, lambda: server.solve(hint_job, session.level, moves, s.time_limit, s.engine))


async def post_solve(request: Request, server: Server) -> dict:
    """A proven optimal solution from the position (or the best found, status 'unknown', at the time limit)."""
    session, _, board = await _played(server, await _request(request))
    if board.solved:
        return {"status": "solved", "moves": [], "remaining": 0}
    s = server.settings
    return await unless_gone(request, lambda: server.solve(solve_job, session.level, board, s.time_limit,
                                                           s.engine))


async def post_open(request: Request, server: Server) -> Response:
    """Open another level for this page: the file's bytes as the body, its name in ?name=."""
    name = safe_name(request.query_params.get("name", "upload"))
    # the body first, with its deadline: a slow sender must not hold the upload's slot (the gate then
    # bounds the bytes held: one upload read, UPLOADS_WAITING more)
    data = await _body(request, MAX_UPLOAD, name)
    if not data:
        raise UsageError(f"{name}: the file is empty")
    return await server.open(server.uploads, (name, data))


async def post_pick(request: Request, server: Server) -> Response:
    """Open a bundled level (by its file name, as GET /api/levels lists it) for this page."""
    wanted = (await _request(request)).get("file")
    path = next((p for p in server.settings.library if p.name == wanted), None)
    if path is None:
        raise BadRequest(f"no bundled level {wanted!r}", 404)
    return await server.open(server.picks, path)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A bug: the page gets one line (the traceback goes to the server's log, as uvicorn writes it)."""
    return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc} (a bug in kamicp)"},
                        status_code=500)


def create_app(level: Level, *, time_limit: float = DEFAULT_TIME_LIMIT, engine: str = "auto",
               library: tuple[Path, ...] = (), port: int | None = None) -> Starlette:
    """The play app for `level`; hint and solve get `time_limit` seconds each; `library`: the levels a
    page may pick; `port`: the one the server listens on (None: any port, for a test client)."""
    post = {"methods": ["POST"]}
    api = [
        Route("/level", _handler(get_level), methods=["GET"]),
        Route("/levels", _handler(get_levels), methods=["GET"]),
        Route("/move", _handler(post_move), **post),
        Route("/hint", _handler(post_hint), **post),
        Route("/solve", _handler(post_solve), **post),
        Route("/optimum", _handler(post_optimum), **post),
        Route("/pick", _handler(post_pick), **post),
        Route("/open", _handler(post_open), **post),
    ]
    routes = [Mount("/api", routes=api),
              Mount("/", StaticFiles(packages=[("kamicp.play", "static")], html=True), name="static")]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _internal_error})
    app.state.server = Server(level, Settings(time_limit, engine, tuple(library)))
    types = {f"/api{r.path}": JSON_TYPE for r in api if "POST" in (r.methods or ())}
    types["/api/open"] = UPLOAD_TYPE
    app.add_middleware(LocalOnly, port=port, content_types=types)
    return app
