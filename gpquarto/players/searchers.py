"""The search players of every game, written once over the game interface: ``alphabeta``, ``mcts`` and
``solver``.

A game may register a faster player under the same name (an *accelerator*: Quixo's ``alphabeta`` counts
repetitions exactly, Quarto's ``mcts`` plays its fast playouts); the registry then gives that game its own, and
``tests/test_accelerators.py`` checks that it decides like the player here. Every search has a time budget
checked inside it (``seconds``, 0 for none; a timed game's budget too, :mod:`gpquarto.search.budget`) besides its
depth or iterations: a search completed within it decides as without one.
"""

from __future__ import annotations

import random

from gpquarto.games.capabilities import SearchHooks
from gpquarto.games.interface import GameView
from gpquarto.games.registry import get_plugin
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player
from gpquarto.search.alphabeta import AlphaBeta, SearchTimeout
from gpquarto.search.budget import MAX_SECONDS, check_seconds, decision_deadline
from gpquarto.search.mcts import MCTS

#: The deepest ``alphabeta`` searches (``depth=0``: until its budget runs out, at most this deep).
MAX_DEPTH = 64
#: The most positions the generic solver visits for one decision before it gives up (a one-line error).
SOLVER_NODES = 2_000_000


def search_hooks(game_name: str) -> SearchHooks | None:
    """The game's evaluation and move ordering for the generic searches, or None when it offers none."""
    plugin = get_plugin(game_name)
    return plugin.capability_or(SearchHooks, None)


@register_player("alphabeta", game=None, limits={"depth": (0, MAX_DEPTH), "seconds": (0, MAX_SECONDS)})
class AlphaBetaPlayer(BasePlayer):
    """Alpha-beta (negamax, iterative deepening, transposition table) to ``depth`` plies within ``seconds``.

    Any game: a finished game scores 1, ½ or 0 (quicker wins first) and a position at the depth limit what the
    game's :class:`~gpquarto.games.capabilities.SearchHooks` say (0 without them), which also order the actions;
    the transposition table is kept between decisions of a game. ``depth=0`` (with ``seconds``) deepens until the
    budget runs out (at most :data:`MAX_DEPTH` plies), as Quixo's ``alphabeta`` does.
    """

    game = None

    def __init__(self, depth: int = 4, seconds: float = 0.0) -> None:
        if depth < 0 or (depth == 0 and not seconds):
            raise ValueError(f"give depth >= 1 or seconds > 0 (got depth={depth}, seconds={seconds})")
        check_seconds(seconds)
        self.depth, self.seconds = depth, seconds
        self.name = f"alphabeta:depth={depth}" + (f",seconds={seconds:g}" if seconds else "")
        self._search = AlphaBeta()
        self._hooked: str | None = None

    def new_game(self, seat: int) -> None:
        self._search.clear()

    def decide(self, view: GameView) -> int:
        if self._hooked != view.game_name:
            hooks = search_hooks(view.game_name)
            self._search = AlphaBeta(hooks.evaluate if hooks else None, hooks.order if hooks else None)
            self._hooked = view.game_name
        result = self._search.search(view.copy(), self.depth or MAX_DEPTH, decision_deadline(self.seconds))
        assert result.action is not None
        return result.action


@register_player(
    "mcts", game=None, limits={"iterations": (1, 10_000_000), "seconds": (0, MAX_SECONDS), "exploration": (0, 100)}
)
class MCTSPlayer(BasePlayer):
    """UCT with random playouts (or the game's evaluation, where its
    :class:`~gpquarto.games.capabilities.SearchHooks` ask for it): ``iterations`` per decision within
    ``seconds``; the most visited action."""

    game = None

    def __init__(
        self, iterations: int = 1000, seconds: float = 0.0, exploration: float = 1.4, seed: int | None = None
    ) -> None:
        check_seconds(seconds)
        self.iterations, self.seconds = iterations, seconds
        self.name = f"mcts:iterations={iterations}"
        self._rng = random.Random(seed)
        self.exploration = exploration
        self._search = MCTS(self._rng, exploration)
        self._hooked: str | None = None

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def decide(self, view: GameView) -> int:
        if self._hooked != view.game_name:
            hooks = search_hooks(view.game_name)
            evaluate = hooks.evaluate if hooks is not None and hooks.mcts_evaluates else None
            self._search = MCTS(self._rng, self.exploration, evaluate=evaluate)
            self._hooked = view.game_name
        result = self._search.search(view.copy(), self.iterations, decision_deadline(self.seconds))
        assert result.action is not None
        return result.action


@register_player("solver", game=None, limits={"max_nodes": (1, 100_000_000), "seconds": (0, MAX_SECONDS)})
class SolverPlayer(BasePlayer):
    """Perfect play by exact search to the end of the game, for games small enough, within ``seconds``.

    A one-line error past ``max_nodes`` positions per decision; among the best actions, the lowest. An exact search
    has no shallower depth to fall back on: when the budget (``seconds``, or a timed game's) runs out, the best of
    the actions solved by then answers (the first legal action when none was)."""

    game = None

    def __init__(self, max_nodes: int = SOLVER_NODES, seconds: float = 0.0) -> None:
        check_seconds(seconds)
        self.name = "solver"
        self.max_nodes, self.seconds = max_nodes, seconds
        self._search = AlphaBeta()

    def decide(self, view: GameView) -> int:
        try:
            values = self._search.solve(view.copy(), self.max_nodes, decision_deadline(self.seconds))
        except SearchTimeout as timeout:
            values = timeout.values
            if not values:
                return view.legal_actions()[0]
        best = max(values.values())
        return min(action for action, value in values.items() if value == best)
