"""The HTTP side of the web app: a Starlette application serving the page and a small JSON API.

Routes (all JSON; an error is a 4xx answer ``{"error": "one line"}``, never a crash of the server):

========================================  ===================================================================
``GET /``                                 the page (``static/index.html``; assets under ``/static/``)
``GET /games/{name}/page.js``             a game's own page script (its drawings and controls), where it has one
``GET /api/players?game=G``               the game's registered players, and saved player files (runs,
                                          ``--players-dir``)
``POST /api/games``                       new game ``{"game", "opponent", "seat", "rules", "size", "ply_limit",
                                          "position", "seed"}`` (``game`` quarto, the default, or quixo)
``GET /api/games/{id}``                   the game's state
``POST /api/games/{id}/move``             ``{"action": A}`` (the game's int, or a name: ``"b1 to bottom"``), or in
                                          Quarto ``{"piece": P}`` or ``{"square": S}``; the opponent answers at once
``POST /api/games/{id}/undo``             take back your last action (and the opponent's reply)
``GET /api/games/{id}/hint``              the exact solver's best actions (Quarto near the end; Quixo on 3x3 and
                                          4x4, ``pending`` while its solution is first computed), or why not
``GET /api/games/{id}/record``            the finished game's record (JSON of ``GameRecord``), as a download
``POST /api/watch``                       a whole game ``{"players": [A, B], "game", "rules", "size", "position",
                                          "seed"}``
``POST /api/replay``                      frames of a saved game record (the JSON of ``GameRecord``)
``GET /api/runs``, ``/api/runs/{name}``   training runs: logbook, hall of fame, best player's rules
``GET /api/runs/{name}/fitness.png``      the run's fitness plot
========================================  ===================================================================

Blocking work (a player's decision, a solve, a watched game) runs in threads, never on the event loop, in two
lanes by cost: the quick lane (:data:`QUICK_THREADS`) takes what only quick players do (``random``, ``novice``:
their games, decisions and watches), the slow lane (:data:`THREADS`) everything else (searching players, saved
player files, hints, run folders), so a quick request never waits behind expensive ones. A searching player
decides in a worker process killed at the time limit (:mod:`gpquarto.web.decisions`).
What a request may ask is bounded: a body of at most :data:`MAX_BODY_BYTES` (refused with 413 before it is
read) that arrives within ``body_seconds`` (else 408: a client that sends half a body does not hold its
connection), JSON nested at most :data:`MAX_JSON_DEPTH` deep, search budgets and player files as
:mod:`gpquarto.web.players` allows, games kept per client (:class:`~gpquarto.web.sessions.SessionStore`: a
client's new game drops only that client's oldest). A request that changes state (any method but GET and HEAD)
must name a trusted host (``Host`` exactly ``name`` or ``name:port``; by default the loopback names, against DNS
rebinding) and, when it has an ``Origin``, come from exactly ``http://`` that host and port (no other scheme,
user, path or query; against cross-site requests): otherwise 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from gpquarto.arena.record import MAX_SEED
from gpquarto.arena.views import game_view
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_plugin, register_plugin
from gpquarto.runner.killable import KillablePool
from gpquarto.web import BODY_SECONDS, runs
from gpquarto.web.decisions import DecisionsStopped
from gpquarto.web.hints import HintServices
from gpquarto.web.players import RequestPlayers, is_quick, player_names
from gpquarto.web.sessions import (
    DEFAULT_TIME_LIMIT,
    PlaySession,
    RequestError,
    SessionStore,
    action_of,
    game_catalog,
    load_record,
    parse_start,
    play_opponent,
    watch_game,
)
from gpquarto.web.support import web_support
from gpquarto.web.threads import ServerThreads

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 1_000_000
#: Arrays and objects nested deeper than this in a request body are refused (the API's own go 3 deep).
MAX_JSON_DEPTH = 32
#: Host names a loopback server answers state-changing requests for.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
#: Threads for blocking work; they mostly wait (on a worker process, a file), so there are many.
THREADS = 32
#: Threads of the quick lane: quick players' games and decisions (microseconds each).
QUICK_THREADS = 8
_log = logging.getLogger(__name__)


def create_app(
    *,
    runs_dir: str | Path = "runs",
    players_dirs: Sequence[str | Path] = (),
    time_limit: float = DEFAULT_TIME_LIMIT,
    watch_seconds: float | None = None,
    workers: int = 2,
    trusted_hosts: Sequence[str] | None = LOOPBACK_NAMES,
    body_seconds: float = BODY_SECONDS,
    games: Sequence[str] = (),
) -> Starlette:
    """The web app. ``runs_dir`` is the folder of training runs, ``players_dirs`` more folders of saved players
    a request may name; ``time_limit`` the seconds per decision; ``watch_seconds`` the seconds a watched game may
    take in all, past which the player to move forfeits (None: :data:`~gpquarto.web.sessions.WATCH_SECONDS`); ``workers`` the processes in which searching
    players decide; ``trusted_hosts`` the host names state-changing requests may be sent to (None: any);
    ``body_seconds`` the seconds a request body may take to arrive; ``games`` the games a provider makes that the
    server offers beside the installed ones (``openspiel:connect_four``: registered for this process).
    ``app.state.stop()`` kills the worker processes at once (for a prompt Ctrl-C)."""
    for name in games:
        register_plugin(get_plugin(name))
    store = SessionStore()
    threads = ServerThreads(THREADS)
    quick_threads = ServerThreads(QUICK_THREADS, "gpquarto-web-quick")
    pool = KillablePool(workers)
    hints = HintServices(threads.executor)
    runs_root = Path(runs_dir)
    players = RequestPlayers([runs_root, *players_dirs], pool, time_limit, hints)

    in_thread = threads.run

    def lane(*quick: bool):
        """The threads of work that only quick players (or quick specs) do, else the slow lane's."""
        return quick_threads.run if all(quick) else threads.run

    async def json_body(request: Request) -> dict:
        return await read_json_body(request, body_seconds)

    def client_of(request: Request) -> str:
        return request.client.host if request.client is not None else ""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def player_list(request: Request) -> Response:
        game = request.query_params.get("game", DEFAULT_GAME)
        if game not in game_names():
            raise RequestError(f"game must be {' or '.join(game_names())}, got {game[:40]!r}")
        return JSONResponse({"game": game, "players": player_names(game), "files": await in_thread(players.files)})

    async def new_game(request: Request) -> Response:
        body = await json_body(request)
        seed = optional_int(body, "seed")
        seat = body.get("seat", 0)
        start = parse_start(body)
        spec = body.get("opponent")
        opponent = await lane(players.is_quick_spec(spec))(players.make, spec, seed, start)
        session = PlaySession(str(spec).strip(), opponent, human_seat=seat, start=start)
        store.add(session, client_of(request))
        async with session.lock:
            await play_opponent(session, lane(is_quick(opponent)), time_limit)
            return JSONResponse(session.state(), status_code=201)

    async def game(request: Request) -> Response:
        return JSONResponse(store.get(request.path_params["key"]).state())

    async def move(request: Request) -> Response:
        session = store.get(request.path_params["key"])
        action = action_of(await json_body(request), session.board)
        async with session.lock:
            session.human_move(action)
            await play_opponent(session, lane(is_quick(session.opponent)), time_limit)
            return JSONResponse(session.state())

    async def undo(request: Request) -> Response:
        session = store.get(request.path_params["key"])
        async with session.lock:
            session.undo()
            return JSONResponse(session.state())

    async def game_record(request: Request) -> Response:
        record = store.get(request.path_params["key"]).record()
        download = {"Content-Disposition": f'attachment; filename="{record.game}-game.json"'}
        return JSONResponse(record.to_dict(), headers=download)

    async def game_types(request: Request) -> Response:
        return JSONResponse({"games": game_catalog()})

    async def page_script(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in game_names():
            raise HTTPException(404, f"no game {name[:40]!r}")
        text = web_support(name).page_script_text()
        if text is None:
            raise HTTPException(404, f"game {name!r} has no page script of its own")
        return Response(text, media_type="text/javascript")

    async def game_hint(request: Request) -> Response:
        session = store.get(request.path_params["key"])
        async with session.lock:
            if session.over:
                raise RequestError("the game is over: no hint", status=409)
            board = session.board.copy()
        answer = hints.for_game(board.game_name).hint
        return JSONResponse({"position": board.text(), **await in_thread(answer, board)})

    async def watch(request: Request) -> Response:
        body = await json_body(request)
        specs = body.get("players")
        if not isinstance(specs, list) or len(specs) != 2:
            raise RequestError('watch needs two players: {"players": ["random", "novice"]}')
        start = parse_start(body)
        seed = optional_int(body, "seed")
        first, second = [await lane(players.is_quick_spec(spec))(players.make, spec, seed, start) for spec in specs]
        names = (str(specs[0]).strip(), str(specs[1]).strip())
        view = await lane(is_quick(first), is_quick(second))(
            watch_game,
            (first, second),
            names=names,
            start=start,
            seed=seed,
            time_limit=time_limit,
            budget=watch_seconds,
        )
        return JSONResponse(view)

    async def replay(request: Request) -> Response:
        body = await json_body(request)
        return JSONResponse(await in_thread(lambda: game_view(load_record(body))))

    async def run_list(request: Request) -> Response:
        return JSONResponse({"folder": str(runs_root), "runs": await in_thread(runs.list_runs, runs_root)})

    async def run_detail(request: Request) -> Response:
        return JSONResponse(await in_thread(runs.run_summary, runs_root, request.path_params["name"]))

    async def run_plot(request: Request) -> Response:
        path = await in_thread(runs.run_file, runs_root, request.path_params["name"], runs.FITNESS_PLOT)
        return FileResponse(path)

    routes = [
        Route("/", index),
        Route("/api/players", player_list),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games", game_types, methods=["GET"]),
        Route("/games/{name}/page.js", page_script),
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
    handlers = {
        RequestError: request_error,
        DecisionsStopped: stopping_error,
        HTTPException: http_error,
        Exception: server_error,
    }

    def stop() -> None:
        pool.close()
        hints.close()
        threads.stop()
        quick_threads.stop()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        pool.start_in_background()  # requests that need no worker are answered while the workers start
        yield
        stop()

    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.add_middleware(TrustedRequests, trusted_hosts=trusted_hosts)
    app.state.sessions = store
    app.state.pool = pool
    app.state.hints = hints
    app.state.stop = stop
    return app


class TrustedRequests:
    """ASGI middleware: a state-changing request (not GET or HEAD) gets 403 unless its ``Host`` names a
    trusted host (any when ``trusted_hosts`` is None) and its ``Origin``, when it has one, is that same host
    and port; a body announced over :data:`MAX_BODY_BYTES` gets 413 before it is read."""

    def __init__(self, app: ASGIApp, trusted_hosts: Sequence[str] | None = LOOPBACK_NAMES) -> None:
        self.app = app
        self.trusted = None if trusted_hosts is None else {name.lower().strip("[]") for name in trusted_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
            refusal = self.refusal(headers)
            if refusal is not None:
                status, message = refusal
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, headers: dict[str, str]) -> tuple[int, str] | None:
        """``(status, one line)`` when a state-changing request with these headers is refused, else None."""
        length = headers.get("content-length", "0").strip()
        if not length.isdigit() or len(length) > 12:
            return 400, "bad Content-Length"
        if int(length) > MAX_BODY_BYTES:
            return 413, f"request body over {MAX_BODY_BYTES} bytes"
        host = headers.get("host", "").strip().lower()
        name = _host_name(host)
        if name is None or (self.trusted is not None and name not in self.trusted):
            return 403, f"requests that change state must be sent to this server by its own name, not {host[:80]!r}"
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower() != f"http://{host}":
            return 403, f"cross-site request refused (Origin {origin[:80]!r} is not 'http://{host[:80]}')"
        return None


#: A ``Host`` header: a host name or IPv4 address, or an IPv6 address in brackets, then an optional port; nothing else.
_HOST = re.compile(r"(?P<name>[a-z0-9](?:[a-z0-9.-]{0,252}[a-z0-9])?|\[(?P<ipv6>[0-9a-f:.]{2,45})\])(?::[0-9]{1,5})?")


def _host_name(host: str) -> str | None:
    """The name in a ``Host`` header (lower case, without the port or an IPv6 address's brackets), or None when
    the header is not exactly a host and an optional port (``127.0.0.1:1@evil.com`` is not)."""
    match = _HOST.fullmatch(host.strip().lower())
    if match is None:
        return None
    return match.group("ipv6") or match.group("name")


async def read_json_body(request: Request, seconds: float = BODY_SECONDS) -> dict:
    """The request's JSON object; ``RequestError`` when it is too big (413, counted while it streams in, so a
    big body is never held whole), slower to arrive than ``seconds`` (408), not JSON, nested too deep or not an
    object."""
    chunks: list[bytes] = []

    async def receive() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise RequestError(f"request body over {MAX_BODY_BYTES} bytes", status=413)
            chunks.append(chunk)

    try:
        await asyncio.wait_for(receive(), seconds)
    except TimeoutError:
        raise RequestError(f"the request body did not arrive within {seconds:g} s", status=408) from None
    raw = b"".join(chunks)
    try:
        body = json.loads(raw or b"{}")
    except RecursionError:
        body = None
    except ValueError as error:  # not JSON, not UTF-8, a number of more than 4300 digits
        raise RequestError(f"the request body is not JSON: {str(error)[:200]}") from None
    if body is None or _too_deep(body):
        raise RequestError(f"the request body is nested more than {MAX_JSON_DEPTH} deep")
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    return body


def _too_deep(value: object) -> bool:
    """True when lists and dicts in ``value`` nest deeper than :data:`MAX_JSON_DEPTH` (no recursion)."""
    level = [value]
    for _ in range(MAX_JSON_DEPTH + 1):
        level = [
            item
            for container in level
            if isinstance(container, (list, dict))
            for item in (container.values() if isinstance(container, dict) else container)
        ]
        if not level:
            return False
    return True


def optional_int(body: dict, key: str) -> int | None:
    """``body[key]`` as a whole number 0..2**63-1, or None when absent."""
    value = body.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_SEED:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise RequestError(f"{key} must be a whole number 0..2**63-1, got {shown}")
    return value


async def request_error(request: Request, error: Exception) -> Response:
    status = getattr(error, "status", 400)
    closing = {"Connection": "close"} if status in (408, 413) else None  # the rest of the body is not read
    return JSONResponse({"error": str(error)}, status_code=status, headers=closing)


async def stopping_error(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": "the server is stopping"}, status_code=503)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, status_code=error.status_code)


async def server_error(request: Request, error: Exception) -> Response:
    _log.exception("error while answering %s %s", request.method, request.url.path)
    return JSONResponse({"error": f"internal error: {type(error).__name__}: {error}"}, status_code=500)
