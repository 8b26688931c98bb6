"""A learned Quarto value as the leaf evaluation of the minimax family: ``minimax:depth=2,evaluator=FILE.npz``.

The search's heuristics score a position where a placement is due (a piece in hand) for the player to move,
in ``[-100, 100]`` (:mod:`gpquarto.games.quarto.search.heuristics`). That position is exactly an afterstate of the player
who handed the piece over, which the learned model values from that player's side in ``(-1, 1)``; so the
leaf score is ``-round(100 * value)``. The evaluator file is any learned Quarto player (``learned_player.npz``).
"""

from __future__ import annotations

import os
from pathlib import Path

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.game import QUARTO
from gpquarto.games.quarto.search.heuristics import HEURISTIC_LIMIT, Heuristic
from gpquarto.learned.models import ValueModel
from gpquarto.learned.storage import load_learned_player


class LearnedEvaluator:
    """A learned model as a search heuristic (it scores for the player to move)."""

    def __init__(self, model: ValueModel, name: str) -> None:
        self.model = model
        self.name = name

    def __call__(self, board: Board) -> int:
        return -round(HEURISTIC_LIMIT * self.model.value(board))

    def heuristic(self) -> Heuristic:
        """This evaluation as a search heuristic."""
        return Heuristic(f"learned:{self.name}", self, credits_searcher=False)


def load_learned_evaluator(path: str | os.PathLike[str]) -> LearnedEvaluator:
    """The learned Quarto player in ``path`` as an evaluator; one-line ``ValueError`` on any problem."""
    player = load_learned_player(path, game=QUARTO.name)
    return LearnedEvaluator(player.model, Path(path).stem)
