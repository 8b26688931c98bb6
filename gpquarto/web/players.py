"""Players for the web app: the one module that turns specs into players.

Every other web module goes through :class:`RequestPlayers` (or :func:`load_player`); specs
become players through the one resolver, :func:`gpquarto.resolve.make_unattended_player`, or for a searching
zoo player through its registry recipe, played in a worker process (:mod:`gpquarto.web.decisions`).

What a request may name is bounded: search budgets up to :data:`BUDGET_CAPS` (and an ``mcts`` time up to the
server's time limit), and player files only by a relative name inside the runs folder or a folder named at
start-up (``serve --players-dir``); a file outside them is answered exactly like a missing one. The same holds
for the evaluator file of a search with an evolved evaluator (``minimax:depth=2,evaluator=RUN/best_evaluator.json``),
which plays in a worker process within the same caps as its search.
"""

from __future__ import annotations

import os
import threading
import typing
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from gpquarto.games.defaults import training_defaults
from gpquarto.games.interface import GameState
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_game
from gpquarto.gp.evaluator_player import EVALUATOR_PARAMETER, evaluator_player, is_evaluator_spec
from gpquarto.gp.storage import SUFFIXES
from gpquarto.learned.storage import LEARNED_SUFFIX
from gpquarto.players.base import Player
from gpquarto.players.registry import available_players, named_player_recipe, parse_spec
from gpquarto.resolve import PLAYER_FILE_SUFFIXES, make_unattended_player
from gpquarto.runner.killable import KillablePool
from gpquarto.web.decisions import RemotePlayer
from gpquarto.web.hints import HintServices
from gpquarto.web.sessions import RequestError
from gpquarto.web.support import web_support

__all__ = ["RequestPlayers", "load_player", "player_names"]


#: Zoo players that decide in microseconds whatever they are given (their class says ``quick = True``): they play
#: in the server's threads (the quick lane: :func:`is_quick`).
def quick_player_names() -> frozenset[str]:
    """The names of the quick zoo players of every installed game."""
    return frozenset(
        info.name
        for game in game_names()
        for info in available_players(game)
        if isinstance(info.factory, type) and info.factory.__dict__.get("quick", False)
    )


#: The longest player spec a request may send.
MAX_SPEC = 300
#: Saved player files the server reads at once; more requests for files wait their turn (in the slow lane).
FILE_LOADS = 2
#: What an evaluator file may be called: an evolved evaluator's ``.json``, or a learned player's table.
EVALUATOR_SUFFIXES = (".json", LEARNED_SUFFIX)
_ADVICE = "in the browser, you are the human player"


class RequestPlayers:
    """Players for requests: zoo players within the budget caps, searching ones in ``pool``'s processes
    (``time_limit`` seconds per decision), and saved players found by name under ``roots`` only. A game's hint
    service may hold a game back until it is ready (Quixo's ``solver`` needs the solution of its board)."""

    def __init__(
        self,
        roots: Sequence[str | os.PathLike[str]],
        pool: KillablePool,
        time_limit: float,
        hints: HintServices | None = None,
    ) -> None:
        self.roots = [Path(root) for root in roots]
        self.pool = pool
        self.time_limit = time_limit
        self.hints = hints
        #: Saved player files read at once, at most (each may take a few hundred MB while it is read and checked).
        self._loading = threading.BoundedSemaphore(FILE_LOADS)

    def make(self, spec: object, seed: int | None = None, start: GameState | None = None) -> Player:
        """The player for a spec sent by a request, to play the game of ``start`` (the default game's start
        position when None); :class:`RequestError` (one line) when refused."""
        start = start if start is not None else get_game().new_state()
        game = start.game_name
        if not isinstance(spec, str) or not spec.strip():
            raise RequestError("choose a player: a name such as random or minimax:depth=2, or a saved player file")
        spec = spec.strip()
        if len(spec) > MAX_SPEC:
            raise RequestError(f"a player spec is at most {MAX_SPEC} characters")
        try:
            if is_evaluator_spec(spec):
                return self._evaluator_player(spec, seed, start)
            if _names_a_file(spec):
                path = self.player_file(spec)
                try:
                    with self._loading:
                        return make_unattended_player(str(path), seed=seed, advice=_ADVICE, game=game)
                except (ValueError, OSError, RecursionError, MemoryError) as error:
                    # named as the request named it: the server's folders are never shown
                    raise RequestError(self._without_paths(str(error) or type(error).__name__, path, spec)) from None
            info, kwargs = named_player_recipe(spec, seed=seed, game=game)
            self._check_budget(game, info.name, kwargs, start)
            if info.name in quick_player_names():
                return make_unattended_player(spec, seed=seed, advice=_ADVICE, game=game)
            if _interactive(info.factory):
                raise ValueError(f"player {spec!r} needs a person at the terminal: {_ADVICE}")
            info.factory(**kwargs)  # its own checks of the parameters, here, in one line
        except RequestError:
            raise
        except ValueError as error:
            raise RequestError(str(error)) from None
        except TypeError as error:
            raise RequestError(f"player {spec!r}: {error}") from None
        return RemotePlayer(spec, info.factory, kwargs, self.pool, self.time_limit, game=info.game)

    def _evaluator_player(self, spec: str, seed: int | None, start: GameState) -> Player:
        """A search with an evolved evaluator (``minimax:depth=2,evaluator=RUN/best_evaluator.json``): the file found
        under the roots like a player file, the search within the caps of its zoo player, the decisions in a worker
        (which reads the file by its checked path)."""
        if not training_defaults(start.game_name).evaluator_genomes:
            raise RequestError(f"evolved evaluators are not made for {start.game_name}")
        name, values = parse_spec(spec)
        file_name = values.pop(EVALUATOR_PARAMETER)
        if not file_name:
            raise RequestError(
                f"player spec {spec!r}: evaluator= needs an evaluator file, such as RUN/best_evaluator.json"
            )
        path = self.player_file(file_name, EVALUATOR_SUFFIXES)
        search = f"{name}:{','.join(f'{key}={value}' for key, value in values.items())}" if values else name
        info, kwargs = named_player_recipe(search, seed=seed, game=start.game_name)
        self._check_budget(start.game_name, info.name, kwargs, start)
        checked = f"{search}{',' if values else ':'}{EVALUATOR_PARAMETER}={path}"
        try:
            with self._loading:
                evaluator_player(checked, game=start.game_name)  # the file and the options checked here, in one line
        except ValueError as error:  # named as the request named it: the server's folders are not shown
            raise RequestError(self._without_paths(str(error).replace(checked, spec), path, file_name)) from None
        return RemotePlayer(
            spec,
            evaluator_player,
            {"spec": checked, "game": start.game_name},
            self.pool,
            self.time_limit,
            game=start.game_name,
        )

    def _check_budget(self, game: str, name: str, kwargs: dict, start: GameState) -> None:
        support = web_support(game)
        caps = support.budget_caps.get(name, {})
        for key, value in kwargs.items():
            cap = caps.get(key)
            if cap is not None and isinstance(value, int) and value > cap:
                raise RequestError(f"{name} {key} is at most {cap:,} on this server, got {value:,}")
        # ``seconds`` is every searching player's budget per decision; a game may name another time parameter
        for timed in dict.fromkeys((support.time_parameters.get(name), "seconds")):
            if timed is not None and kwargs.get(timed, 0) > self.time_limit:
                raise RequestError(
                    f"{name} {timed} is at most the {self.time_limit:g} s time limit on this server, "
                    f"got {kwargs[timed]:g}"
                )
        if self.hints is not None:
            self.hints.for_game(game).prepare(name, start)

    def is_quick_spec(self, spec: object) -> bool:
        """True when ``spec`` names a quick zoo player (:func:`quick_player_names`), by its text alone: making it reads no
        file and its decisions take microseconds."""
        if not isinstance(spec, str) or len(spec) > MAX_SPEC or _names_a_file(spec) or is_evaluator_spec(spec):
            return False
        try:
            return parse_spec(spec)[0] in quick_player_names()
        except ValueError:
            return True  # refused at once, in one line

    def _without_paths(self, message: str, path: Path, name: str) -> str:
        """``message`` with the file's path (as found and as resolved) said as ``name``, and any root's folder as
        ``<folder>``: a refusal never shows where the server keeps its files."""
        message = message.replace(str(path), name)
        for root in self.roots:
            for shown in {str(root.resolve()), str(root.absolute()), str(root)}:
                if shown not in ("", "."):
                    message = message.replace(shown, "<folder>")
        return message

    def player_file(self, name: str, suffixes: Sequence[str] = SUFFIXES) -> Path:
        """The saved player ``name`` (a relative path such as ``demo/best_player.json``, ending in one of
        ``suffixes``) in the first root that holds it, symlinks resolved and kept inside the root;
        :class:`RequestError` 404 otherwise."""
        parts = PurePosixPath(name).parts
        if "\\" not in name and parts and not PurePosixPath(name).is_absolute() and not {"..", "."} & set(parts):
            for root in self.roots:
                try:
                    inside = root.resolve()
                    path = (inside / name).resolve()
                    if path.is_relative_to(inside) and path.is_file() and path.suffix.lower() in suffixes:
                        return path
                except (OSError, ValueError):  # a name too long, a loop of links: not a file it can have
                    continue
        raise RequestError(f"no player file {name[:80]!r} in the runs folder or the players folders", status=404)

    def files(self) -> list[str]:
        """The saved players offered to the page, by the names :meth:`player_file` accepts: each run's
        ``best_player.json`` in the runs folder (the first root), and the player files directly in the others;
        then each evaluator run's best evaluator, as the search it was trained in."""
        candidates = [f"{path.parent.name}/{path.name}" for path in self._glob(0, "*/best_player.json")]
        for index in range(1, len(self.roots)):
            candidates += [path.name for path in self._glob(index, "*") if path.suffix.lower() in SUFFIXES]
        found: list[str] = []
        for name in candidates:
            try:
                self.player_file(name)
            except RequestError:
                continue
            if name not in found:
                found.append(name)
        return found + self._evaluator_specs()

    def _evaluator_specs(self) -> list[str]:
        from gpquarto.gp.evaluator_files import read_evaluator_file
        from gpquarto.web.runs import BEST_EVALUATOR, evaluator_spec

        specs = []
        for path in self._glob(0, f"*/{BEST_EVALUATOR}"):
            try:
                data = read_evaluator_file(self.player_file(f"{path.parent.name}/{path.name}"))
            except (RequestError, ValueError, OSError):
                continue
            specs.append(evaluator_spec(path.parent.name, data))
        return specs

    def _glob(self, index: int, pattern: str) -> list[Path]:
        root = self.roots[index] if index < len(self.roots) else None
        return sorted(root.glob(pattern)) if root is not None and root.is_dir() else []


def is_quick(player: Player) -> bool:
    """True for the quick zoo players a request can name (:func:`quick_player_names`: microseconds a decision, played in the
    server's quick lane of threads)."""
    return bool(type(player).__dict__.get("quick", False))  # the class's own word: a subclass may be slow


def _names_a_file(spec: str) -> bool:
    """True when a request's spec names a file (by its suffix or a path separator), never by looking."""
    return os.path.splitext(spec)[1].lower() in PLAYER_FILE_SUFFIXES or "/" in spec or "\\" in spec


def load_player(spec: str, *, seed: int | None = None, game: str = DEFAULT_GAME) -> Player:
    """The player of ``game`` for ``spec`` (a name with parameters, or any saved player file: not for requests,
    see :class:`RequestPlayers`); ``ValueError`` when unknown.

    Interactive players (``human``) are refused: in the browser, the person at the page is the human.
    """
    return make_unattended_player(spec, seed=seed, advice=_ADVICE, game=game)


def player_names(game: str = DEFAULT_GAME) -> list[dict]:
    """Every registered player of ``game`` that can play unattended: name, one-line summary and parameter names."""
    return [
        {"name": info.name, "summary": info.summary, "parameters": [parameter.name for parameter in info.parameters]}
        for info in available_players(game)
        if not _interactive(info.factory)
    ]


def _interactive(factory) -> bool:
    """True when a registered factory makes players that need a person (a class, or a function's return type)."""
    if isinstance(factory, type):
        return bool(getattr(factory, "interactive", False))
    try:
        made = typing.get_type_hints(factory).get("return")
    except Exception:  # unresolvable annotations: assume an ordinary player
        return False
    return bool(getattr(made, "interactive", False))
