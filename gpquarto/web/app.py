"""The HTTP side of the web app: a Starlette application serving the page and a small JSON API.

Routes (all JSON; an error is a 4xx answer ``{"error": "one line"}``, never a crash of the server):

========================================  ===================================================================
``GET /``                                 the page (``static/index.html``; assets under ``/static/``)
``GET /api/players``                      registered players and saved player files found under the runs folder
``POST /api/games``                       new game ``{"opponent", "seat", "rules", "position", "seed"}``
``GET /api/games/{id}``                   the game's state
``POST /api/games/{id}/move``             ``{"piece": P}`` or ``{"square": S}``; the opponent answers at once
``POST /api/games/{id}/undo``             take back your last action (and the opponent's reply)
``GET /api/games/{id}/hint``              the exact solver's best actions, or "too early to solve"
``GET /api/games/{id}/record``            the finished game's record (JSON of ``GameRecord``), as a download
``POST /api/watch``                       a whole game ``{"players": [A, B], "rules", "position", "seed"}``
``POST /api/replay``                      frames of a saved game record (the JSON of ``GameRecord``)
``GET /api/runs``, ``/api/runs/{name}``   training runs: logbook, hall of fame, best player's rules
``GET /api/runs/{name}/fitness.png``      the run's fitness plot
========================================  ===================================================================

Blocking work (a player's decision, a solve, a watched game) runs in a thread pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gpquarto.web import runs
from gpquarto.web.players import player_names
from gpquarto.web.sessions import (
    DEFAULT_TIME_LIMIT,
    PlaySession,
    RequestError,
    SessionStore,
    action_of,
    game_view,
    hint,
    load_record,
    make_player_for_request,
    parse_start,
    play_opponent,
    watch_game,
)

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 1_000_000
_log = logging.getLogger(__name__)


def create_app(*, runs_dir: str | Path = "runs", time_limit: float = DEFAULT_TIME_LIMIT, workers: int = 4) -> Starlette:
    """The web app. ``runs_dir`` is the folder of training runs; ``time_limit`` the seconds per decision."""
    store = SessionStore()
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gpquarto-web")
    runs_root = Path(runs_dir)

    async def in_thread(function, *args, **kwargs):
        return await asyncio.get_running_loop().run_in_executor(executor, lambda: function(*args, **kwargs))

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def players(request: Request) -> Response:
        return JSONResponse({"players": player_names(), "files": runs.player_files(runs_root)})

    async def new_game(request: Request) -> Response:
        body = await json_body(request)
        seed = optional_int(body, "seed")
        seat = body.get("seat", 0)
        start = parse_start(body.get("position"), body.get("rules"))
        opponent = await in_thread(make_player_for_request, body.get("opponent"), seed)
        session = store.add(PlaySession(str(body.get("opponent")).strip(), opponent, human_seat=seat, start=start))
        async with session.lock:
            await play_opponent(session, executor, time_limit)
            return JSONResponse(session.state(), status_code=201)

    async def game(request: Request) -> Response:
        return JSONResponse(store.get(request.path_params["key"]).state())

    async def move(request: Request) -> Response:
        session = store.get(request.path_params["key"])
        action = action_of(await json_body(request))
        async with session.lock:
            session.human_move(action)
            await play_opponent(session, executor, time_limit)
            return JSONResponse(session.state())

    async def undo(request: Request) -> Response:
        session = store.get(request.path_params["key"])
        async with session.lock:
            session.undo()
            return JSONResponse(session.state())

    async def game_record(request: Request) -> Response:
        record = store.get(request.path_params["key"]).record()
        download = {"Content-Disposition": 'attachment; filename="quarto-game.json"'}
        return JSONResponse(record.to_dict(), headers=download)

    async def game_hint(request: Request) -> Response:
        session = store.get(request.path_params["key"])
        async with session.lock:
            if session.over:
                raise RequestError("the game is over: no hint", status=409)
            board = session.board.copy()
        return JSONResponse({"position": board.text(), **await in_thread(hint, board)})

    async def watch(request: Request) -> Response:
        body = await json_body(request)
        specs = body.get("players")
        if not isinstance(specs, list) or len(specs) != 2:
            raise RequestError('watch needs two players: {"players": ["random", "novice"]}')
        start = parse_start(body.get("position"), body.get("rules"))
        seed = optional_int(body, "seed")
        view = await in_thread(watch_game, (specs[0], specs[1]), start=start, seed=seed, time_limit=time_limit)
        return JSONResponse(view)

    async def replay(request: Request) -> Response:
        return JSONResponse(game_view(load_record(await json_body(request))))

    async def run_list(request: Request) -> Response:
        return JSONResponse({"folder": str(runs_root), "runs": runs.list_runs(runs_root)})

    async def run_detail(request: Request) -> Response:
        return JSONResponse(await in_thread(runs.run_summary, runs_root, request.path_params["name"]))

    async def run_plot(request: Request) -> Response:
        return FileResponse(runs.run_file(runs_root, request.path_params["name"], runs.FITNESS_PLOT))

    routes = [
        Route("/", index),
        Route("/api/players", players),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{key}", game),
        Route("/api/games/{key}/move", move, methods=["POST"]),
        Route("/api/games/{key}/undo", undo, methods=["POST"]),
        Route("/api/games/{key}/hint", game_hint),
        Route("/api/games/{key}/record", game_record),
        Route("/api/watch", watch, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/runs", run_list),
        Route("/api/runs/{name}", run_detail),
        Route("/api/runs/{name}/fitness.png", run_plot),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {RequestError: request_error, HTTPException: http_error, Exception: server_error}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        executor.shutdown(wait=False, cancel_futures=True)

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.sessions = store
    return app


async def json_body(request: Request) -> dict:
    """The request's JSON object; ``RequestError`` when it is too big, not JSON or not an object."""
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise RequestError(f"request body over {MAX_BODY_BYTES} bytes", status=413)
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RequestError(f"the request body is not JSON: {error}") from None
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    return body


def optional_int(body: dict, key: str) -> int | None:
    """``body[key]`` as a non-negative int, or None when absent."""
    value = body.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RequestError(f"{key} must be a whole number >= 0, got {value!r}")
    return value


async def request_error(request: Request, error: Exception) -> Response:
    status = getattr(error, "status", 400)
    return JSONResponse({"error": str(error)}, status_code=status)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, status_code=error.status_code)


async def server_error(request: Request, error: Exception) -> Response:
    _log.exception("error while answering %s %s", request.method, request.url.path)
    return JSONResponse({"error": f"internal error: {type(error).__name__}: {error}"}, status_code=500)
