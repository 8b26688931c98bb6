"""``gpquarto serve``: the local web app (play, explain, watch, replay, runs) at http://127.0.0.1:PORT.

Needs the ``web`` extra: ``pip install "gpquarto[web]"``.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import signal
import socket
import sys
from pathlib import Path

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_plugin_argument, game_name, port_number, positive_int, positive_seconds
from gpquarto.web import BODY_SECONDS, WATCH_SECONDS

DEFAULT_PORT = 8000


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="play, watch and replay games in the browser",
        description="Start the web app: play against any player (with undo, solver hints and the rules an evolved "
        "player used), watch two players, replay a saved game record, look at training runs. Bound to the "
        "loopback address unless --host says otherwise. Needs the web extra: pip install 'gpquarto[web]'.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)"
    )
    parser.add_argument("--runs-dir", default="runs", metavar="DIR", help="folder of training runs (default runs)")
    parser.add_argument(
        "--players-dir",
        dest="players_dirs",
        action="append",
        default=[],
        metavar="DIR",
        type=_folder,
        help="a folder of saved players the page may name (repeatable); besides it, only the runs folder's",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=10.0,
        metavar="SECONDS",
        help="seconds a player may take per decision before it forfeits (default 10)",
    )
    parser.add_argument(
        "--watch-seconds",
        type=positive_seconds,
        default=WATCH_SECONDS,
        metavar="SECONDS",
        help=f"seconds a watched game may take in all before the player to move forfeits (default {WATCH_SECONDS:g})",
    )
    parser.add_argument(
        "--body-seconds",
        type=positive_seconds,
        default=BODY_SECONDS,
        metavar="SECONDS",
        help=f"seconds a request's body may take to arrive before it gets 408 (default {BODY_SECONDS:g})",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=2,
        help="processes in which searching players decide, each stopped at the time limit (default 2)",
    )
    parser.add_argument(
        "--game",
        dest="games",
        action="append",
        default=[],
        metavar="GAME",
        type=game_name,
        help="a game a provider makes, offered beside the installed games (repeatable): openspiel:connect_four",
    )
    add_plugin_argument(parser, "primitive plugin file that saved players need (repeatable)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from gpquarto.web.app import create_app
    except ImportError as error:
        raise UsageError(
            f"the web app needs the web extra ({error.name} is missing): pip install 'gpquarto[web]'"
        ) from None
    if args.plugins:
        from gpquarto.gp.storage import PLUGINS_VARIABLE, default_library

        plugins = tuple(str(Path(plugin).resolve()) for plugin in args.plugins)
        default_library(plugins)  # a broken plugin fails here, in one line, before the server starts
        os.environ[PLUGINS_VARIABLE] = os.pathsep.join(plugins)  # saved players named on the page load with them
    loopback = _is_loopback(args.host)
    if not loopback:
        print(
            f"gpquarto: warning: serving on {args.host}, not only this machine: anyone who can reach it may play "
            "and run searches on it (each bounded by --time-limit)",
            file=sys.stderr,
        )
    app = create_app(
        runs_dir=args.runs_dir,
        players_dirs=args.players_dirs,
        time_limit=args.time_limit,
        watch_seconds=args.watch_seconds,
        body_seconds=args.body_seconds,
        workers=args.workers,
        trusted_hosts=_trusted_hosts(args.host, loopback),
        games=args.games,
    )
    listener = listen(args.host, args.port)  # bound here: a port in use is one line, and port 0 prints the real one
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"gpquarto: serving on http://{shown}:{port}/ (Ctrl-C to stop)", flush=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    server = prompt_server(uvicorn.Server, app.state.stop)(config)
    server.run(sockets=[listener])
    if server.interrupted:  # uvicorn raises the Ctrl-C again once stopped; should it not, the exit is still 130
        raise KeyboardInterrupt
    return 0


def prompt_server(server_class: type, stop) -> type:
    """A subclass of uvicorn's ``Server`` whose Ctrl-C (or SIGTERM) first calls ``stop()`` (which kills the
    app's worker processes): requests in flight end at once, and the server exits within about a second
    however busy it was. Its ``interrupted`` says whether a Ctrl-C (SIGINT) stopped it."""

    class PromptServer(server_class):
        interrupted = False

        def handle_exit(self, sig, frame) -> None:
            if sig == signal.SIGINT:
                self.interrupted = True
            stop()
            super().handle_exit(sig, frame)

    return PromptServer


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _trusted_hosts(host: str, loopback: bool) -> tuple[str, ...] | None:
    """Host names state-changing requests may be sent to: the loopback names, and the address the server is
    bound to; None (any) when it listens on every address, whose names cannot be known."""
    from gpquarto.web.app import LOOPBACK_NAMES

    if loopback:
        return LOOPBACK_NAMES
    if host in ("", "0.0.0.0", "::"):
        return None
    return (*LOOPBACK_NAMES, host)


def _folder(text: str) -> str:
    """argparse type: an existing folder."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"not a folder: {text}")
    return text


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` and listening; ``OSError`` when the address is taken or unknown."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listener
