"""OpenSpiel's bots as players of every game, registered when ``pyspiel`` can be imported:

* ``openspiel-mcts:simulations=N`` -- OpenSpiel's MCTS with random rollouts: its C++ ``pyspiel.MCTSBot`` on
  OpenSpiel's own games (``openspiel:NAME``), its Python ``open_spiel.python.algorithms.mcts.MCTSBot`` on every
  other game, through :mod:`gpquarto.adapters.openspiel` (the C++ bot crashes on Python-registered games, so it is
  never given one);
* ``openspiel-alphabeta:depth=D`` -- OpenSpiel's ``minimax.alpha_beta_search`` to ``depth`` plies, its leaves
  valued by the game's :class:`~gpquarto.games.capabilities.SearchHooks` evaluation where it has one (else 0).

They are the zoo's outside yardstick: nobody here wrote them. Every random choice comes from the seed the arena
gives (0 when none is given).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from gpquarto.games.interface import GameState, GameView
from gpquarto.games.openspiel.state import OpenSpielState
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player
from gpquarto.players.searchers import search_hooks

#: OpenSpiel's exploration constant in its examples.
UCT_C = 2.0


def spiel_state(state: GameState) -> tuple[Any, bool]:
    """(the ``pyspiel`` state of ``state``, whether it is OpenSpiel's own C++ game): an OpenSpiel game's own
    state, or gpquarto's game registered with ``pyspiel`` by the adapter around a copy of ``state``."""
    if isinstance(state, OpenSpielState):
        return state.spiel_state, True
    from gpquarto.adapters.openspiel.game import SpielState, spiel_game

    return SpielState(spiel_game(state.game_name, state.settings()), state), False


class OpenSpielMCTSPlayer(BasePlayer):
    """OpenSpiel's MCTS with random rollouts (its C++ bot on OpenSpiel's games, its Python bot on the others).

    ``simulations`` per decision, ``rollouts`` random rollouts per leaf, UCT exploration ``exploration``, proven
    nodes solved (OpenSpiel's defaults); seeded by the arena's seed (0 when none is given)."""

    game = None

    def __init__(
        self, simulations: int = 1000, rollouts: int = 1, exploration: float = UCT_C, seed: int | None = None
    ) -> None:
        self.simulations, self.rollouts, self.exploration = simulations, rollouts, exploration
        self.name = f"openspiel-mcts:simulations={simulations}"
        self._seed = 0 if seed is None else seed
        self._bots: dict[str, Any] = {}

    def seed(self, seed: int | None) -> None:
        self._seed = 0 if seed is None else seed
        self._bots.clear()

    def decide(self, view: GameView) -> int:
        state, native = spiel_state(view.copy())
        bot = self._bots.get(view.game_name)
        if bot is None:
            bot = self._bots[view.game_name] = self._bot(state.get_game(), native)
        return int(bot.step(state))

    def _bot(self, game: Any, native: bool) -> Any:
        seed = self._seed % 2**31
        if native:
            import pyspiel

            evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, seed)
            return pyspiel.MCTSBot(game, evaluator, self.exploration, self.simulations, 1000, True, seed, False)
        import numpy as np
        from open_spiel.python.algorithms import mcts

        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed))
        return mcts.MCTSBot(
            game,
            self.exploration,
            self.simulations,
            evaluator,
            solve=True,
            random_state=np.random.RandomState(seed + 1),
        )


class OpenSpielAlphaBetaPlayer(BasePlayer):
    """OpenSpiel's minimax.alpha_beta_search to depth plies, the game's evaluation (or 0) at the leaves.

    The evaluation is the game's :class:`~gpquarto.games.capabilities.SearchHooks` where it has them; among equal
    actions, the first in OpenSpiel's order."""

    game = None

    def __init__(self, depth: int = 4) -> None:
        self.depth = depth
        self.name = f"openspiel-alphabeta:depth={depth}"

    def decide(self, view: GameView) -> int:
        from open_spiel.python.algorithms.minimax import alpha_beta_search

        state, native = spiel_state(view.copy())
        me = view.player
        hooks = None if native else search_hooks(view.game_name)

        def value(leaf: Any) -> float:
            if hooks is None:
                return 0.0
            position = leaf.position
            worth = hooks.evaluate(position)
            return worth if position.player == me else -worth

        _, action = alpha_beta_search(
            state.get_game(), state=state, value_function=value, maximum_depth=self.depth, maximizing_player_id=me
        )
        return int(action)


if importlib.util.find_spec("pyspiel") is not None:
    register_player(
        "openspiel-mcts",
        game=None,
        limits={"simulations": (1, 10_000_000), "rollouts": (1, 1000), "exploration": (0, 100)},
    )(OpenSpielMCTSPlayer)
    register_player("openspiel-alphabeta", game=None, limits={"depth": (1, 64)})(OpenSpielAlphaBetaPlayer)
