"""Hints on the web server, for every game: the game's own hint service where its
:class:`~gpquarto.games.capabilities.WebSupport` names one, else :class:`SolverHints`, the verdict of its exact
solver (the generic one for a game without its own) within a budget of positions a request can afford."""

from __future__ import annotations

import threading
from concurrent.futures import Executor

from gpquarto.games.capabilities import VALUE_WORDS, HintService
from gpquarto.games.plugin import GamePlugin, import_named
from gpquarto.games.registry import get_plugin
from gpquarto.search.exact import NoHint, exact_hint, hint_solver
from gpquarto.web.sessions import RequestError
from gpquarto.web.support import web_support


class SolverHints(HintService):
    """Hints by the game's exact solver: its verdict and best actions, or ``solved: False`` with the reason where
    the position is beyond the solver (too large, or more than :data:`~gpquarto.search.exact.HINT_NODES` positions for the generic one)."""

    def __init__(self, plugin: GamePlugin) -> None:
        self.solver = hint_solver(plugin)

    def hint(self, state) -> dict:
        if state.is_over():
            raise RequestError("the game is over: no hint", status=409)
        try:
            solution = exact_hint(state, self.solver)
        except NoHint as error:
            text = f"no exact hint here: {error}" if error.beyond else f"too early to solve: {error}"
            return {"solved": False, "pending": False, "text": text}
        words = VALUE_WORDS[solution.value]
        if solution.value and solution.distance is not None:
            words += f" in {solution.distance} pl{'y' if solution.distance == 1 else 'ies'}"
        actions = list(solution.best_actions)
        return {
            "solved": True,
            "pending": False,
            "value": solution.value,
            "best_actions": actions,
            "text": f"{words} with best play: " + ", ".join(state.action_name(action) for action in actions),
        }


class HintServices:
    """The hint service of each game the server has been asked about, made on first use with ``executor``."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor
        self._lock = threading.Lock()
        self._services: dict[str, HintService] = {}

    def for_game(self, game: str) -> HintService:
        with self._lock:
            service = self._services.get(game)
            if service is None:
                where = web_support(game).hints
                service = (
                    import_named(where, "hint service")(self._executor) if where else SolverHints(get_plugin(game))
                )
                self._services[game] = service
            return service

    def close(self) -> None:
        """Stop every game's background work (the server is stopping)."""
        with self._lock:
            services = list(self._services.values())
        for service in services:
            service.close()
