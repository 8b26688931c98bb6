"""Helpers shared by the tests."""

from __future__ import annotations

import random

from gpquarto.engine.board import Board
from gpquarto.engine.lines import Rules

#: The public raw state of a Board (everything but its history), as search code reads it.
RAW_STATE_FIELDS = (
    "rules",
    "raw_cells",
    "occupied_mask",
    "available_mask",
    "in_hand",
    "player",
    "winner_index",
    "placed_count",
)


def play_randomly(rng: random.Random, actions: int, rules: Rules | str = Rules.CLASSIC) -> Board:
    """The position after up to ``actions`` random legal actions from the start (fewer if the game ends)."""
    board = Board(rules)
    for _ in range(actions):
        if board.is_over():
            break
        board.apply(rng.choice(board.legal_actions()))
    return board


def random_positions(
    seed: int,
    count: int,
    rules: Rules | str = Rules.CLASSIC,
    *,
    min_actions: int = 1,
    max_actions: int = 31,
    keep_over: bool = False,
) -> list[Board]:
    """Positions reached by seeded random play, stopped after ``min_actions..max_actions`` actions
    (exclusive upper bound); finished games are skipped unless ``keep_over``."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = play_randomly(rng, rng.randrange(min_actions, max_actions), rules)
        if keep_over or not board.is_over():
            found.append(board)
    return found
