"""``mcts`` for Quixo: UCT over the legal actions, a uniformly random playout from every new leaf
(:func:`gpquarto.games.quixo.playout.random_playout`), a fixed number of iterations per decision, fewer when the
decision's time budget runs out first (its own ``seconds``, 0 for none, or a timed game's:
:mod:`gpquarto.search.budget`)."""

from __future__ import annotations

import math
import random

from gpquarto.games.interface import GameView
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.playout import random_playout
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player
from gpquarto.search.budget import MAX_SECONDS, check_seconds, decision_deadline

#: The most iterations a spec may ask for per decision (as Quarto's ``mcts``).
MAX_ITERATIONS = 10_000_000


class _Node:
    __slots__ = ("children", "untried", "visits", "wins")

    def __init__(self, actions: tuple[int, ...]) -> None:
        self.children: dict[int, _Node] = {}
        self.untried = list(actions)
        self.visits = 0
        self.wins = 0.0  # for the player who moved into this node


@register_player(
    "mcts", game="quixo", limits={"iterations": (1, MAX_ITERATIONS), "c": (0, 100), "seconds": (0, MAX_SECONDS)}
)
class QuixoMCTSPlayer(BasePlayer):
    """UCT: ``iterations`` playouts a decision within ``seconds``, exploration constant ``c``; the most visited move.

    Random draws come from the player's own seeded generator."""

    game = "quixo"

    def __init__(self, iterations: int = 300, c: float = 1.4, seconds: float = 0.0, seed: int | None = None) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be >= 1, got {iterations}")
        check_seconds(seconds)
        self.seconds = seconds
        self.iterations = iterations
        self.c = c
        self.name = f"mcts:iterations={iterations}"
        self._rng = random.Random(seed)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def decide(self, view: GameView) -> int:
        board: QuixoBoard = view.copy()  # type: ignore[assignment]  # Quixo's view
        root = _Node(board.legal_actions())
        rng, c = self._rng, self.c
        budget = decision_deadline(self.seconds)
        for iteration in range(self.iterations):
            if budget is not None and iteration and not iteration & 7 and budget.expired():
                break  # the decision's time budget ran out first: the most visited action so far
            node, path, depth = root, [root], 0
            while not node.untried and node.children:
                log_visits = math.log(node.visits)
                action, node = max(
                    node.children.items(),
                    key=lambda item: item[1].wins / item[1].visits + c * math.sqrt(log_visits / item[1].visits),
                )
                board.apply(action)
                path.append(node)
                depth += 1
            if node.untried:
                action = node.untried.pop(int(rng.random() * len(node.untried)))
                board.apply(action)
                depth += 1
                child = _Node(board.legal_actions())
                node.children[action] = child
                path.append(child)
            winner = random_playout(board, rng)
            # The node reached after the k-th move was moved into by the player to move k plies before the end.
            mover = board.player ^ 1
            for node in reversed(path):
                node.visits += 1
                if winner < 0:
                    node.wins += 0.5
                elif winner == mover:
                    node.wins += 1
                mover ^= 1
            for _ in range(depth):
                board.undo()
        return max(root.children.items(), key=lambda item: item[1].visits)[0]
