"""OpenSpiel's bots as players of every game, registered when ``pyspiel`` can be imported:

* ``openspiel-mcts:simulations=N`` -- OpenSpiel's MCTS with random rollouts: its C++ ``pyspiel.MCTSBot`` on
  OpenSpiel's own games (``openspiel:NAME``), its Python ``open_spiel.python.algorithms.mcts.MCTSBot`` on every
  other game, through :mod:`gpquarto.adapters.openspiel` (the C++ bot crashes on Python-registered games, so it is
  never given one);
* ``openspiel-alphabeta:depth=D`` -- OpenSpiel's ``minimax.alpha_beta_search`` to ``depth`` plies, its leaves
  valued by the game's :class:`~gpquarto.games.capabilities.SearchHooks` evaluation where it has one (else 0).

They are the zoo's outside yardstick: nobody here wrote them. Every random choice comes from the seed the arena
gives (0 when none is given).

``openspiel-alphabeta`` takes ``seconds``, the budget per decision of every searching player
(:mod:`gpquarto.search.budget`): with a budget (its own or a timed game's) it calls OpenSpiel's search depth after
depth to ``depth``, the clock read every :data:`CHECK_LEAVES` leaf evaluations, and the deepest depth completed
answers (depth 1 always completes); without one, one search at ``depth`` as before. ``openspiel-mcts`` has no such budget:
OpenSpiel's bots count simulations and offer no way to stop one on time from outside (the C++ bot in particular);
at equal time, use gpquarto's ``mcts:iterations=N,seconds=S``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from gpquarto.games.interface import GameState, GameView
from gpquarto.games.openspiel.state import OpenSpielState
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player
from gpquarto.players.searchers import search_hooks
from gpquarto.search.budget import MAX_SECONDS, Deadline, OutOfTime, check_seconds, decision_deadline

#: OpenSpiel's exploration constant in its examples.
UCT_C = 2.0
#: Leaf evaluations between two readings of the clock in ``openspiel-alphabeta`` with a budget: OpenSpiel's search
#: clones a state at every node, which costs about a millisecond on gpquarto's games (Quixo), so the clock is read
#: far more often than :data:`~gpquarto.search.budget.CHECK_EVERY` nodes.
CHECK_LEAVES = 16


def spiel_state(state: GameState) -> tuple[Any, bool]:
    """(the ``pyspiel`` state of ``state``, whether it is OpenSpiel's own C++ game): an OpenSpiel game's own
    state, or gpquarto's game registered with ``pyspiel`` by the adapter around a copy of ``state``."""
    if isinstance(state, OpenSpielState):
        return state.spiel_state, True
    from gpquarto.adapters.openspiel.game import SpielState, spiel_game

    return SpielState(spiel_game(state.game_name, state.settings()), state), False


class OpenSpielMCTSPlayer(BasePlayer):
    """OpenSpiel's MCTS with random rollouts, ``simulations`` a decision (no ``seconds``: see the module).

    Its C++ bot on OpenSpiel's games, its Python bot on the others; ``simulations`` per decision, ``rollouts``
    random rollouts per leaf, UCT exploration ``exploration``, proven nodes solved (OpenSpiel's defaults); seeded by
    the arena's seed (0 when none is given)."""

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
    """OpenSpiel's minimax.alpha_beta_search to depth plies within ``seconds``, the game's evaluation at the leaves.

    The evaluation is the game's :class:`~gpquarto.games.capabilities.SearchHooks` where it has them (else 0); among
    equal actions, the first in OpenSpiel's order. With a budget it deepens depth by depth (see the module)."""

    game = None

    def __init__(self, depth: int = 4, seconds: float = 0.0) -> None:
        check_seconds(seconds)
        self.depth, self.seconds = depth, seconds
        self.name = f"openspiel-alphabeta:depth={depth}" + (f",seconds={seconds:g}" if seconds else "")

    def decide(self, view: GameView) -> int:
        from open_spiel.python.algorithms.minimax import alpha_beta_search

        state, native = spiel_state(view.copy())
        me = view.player
        hooks = None if native else search_hooks(view.game_name)
        deadline: Deadline | None = None
        leaves = 0

        def value(leaf: Any) -> float:
            nonlocal leaves
            leaves += 1
            if deadline is not None and not leaves % CHECK_LEAVES:
                deadline.check()
            if hooks is None:
                return 0.0
            position = leaf.position
            worth = hooks.evaluate(position)
            return worth if position.player == me else -worth

        def search(depth: int) -> int:
            _, action = alpha_beta_search(
                state.get_game(), state=state, value_function=value, maximum_depth=depth, maximizing_player_id=me
            )
            return int(action)

        budget = decision_deadline(self.seconds)
        if budget is None:
            return search(self.depth)
        action = search(1)
        deadline = budget
        for depth in range(2, self.depth + 1):
            try:
                action = search(depth)
            except OutOfTime:
                break
        return action


if importlib.util.find_spec("pyspiel") is not None:
    register_player(
        "openspiel-mcts",
        game=None,
        limits={"simulations": (1, 10_000_000), "rollouts": (1, 1000), "exploration": (0, 100)},
    )(OpenSpielMCTSPlayer)
    register_player("openspiel-alphabeta", game=None, limits={"depth": (1, 64), "seconds": (0, MAX_SECONDS)})(
        OpenSpielAlphaBetaPlayer
    )
