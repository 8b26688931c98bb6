"""Seeded random openings: the first plies of a game played at random, so deterministic players meet in
different positions.

Two deterministic players repeat the same two games (one per seat order) however long the match. A match
with ``openings=K`` starts each *pair* of games (numbers ``2k`` and ``2k+1``, which swap the seats) from the
same position reached by ``K`` random plies, drawn from the match seed and the pair's number: the match stays
reproducible and fair (each side plays each opening from both seats). A random ply never ends the game: when
every legal action would, the opening stops early.
"""

from __future__ import annotations

import random

from gpquarto.games.interface import Game, GameState
from gpquarto.seeding import derive_seed

#: The most random plies an opening may have (Quarto's longest game has 32 plies).
MAX_OPENING_PLIES = 100


def random_opening(game: Game, settings: dict[str, object], plies: int, seed: int) -> GameState:
    """The position after ``plies`` random plies of ``game`` under ``settings``, none of which ends the game."""
    if not 0 <= plies <= MAX_OPENING_PLIES:
        raise ValueError(f"an opening has 0 to {MAX_OPENING_PLIES} random plies, got {plies}")
    rng = random.Random(seed)
    state = game.new_state(**settings)
    for _ in range(plies):
        actions = list(state.legal_actions())
        rng.shuffle(actions)
        for action in actions:
            state.apply(action)
            if not state.is_over():
                break
            state.undo()
        else:
            break  # every action ends the game: the opening stops here
    state.forget_history()
    return state


def opening_seed(match_seed: int, game_number: int) -> int:
    """The seed of the opening of game ``game_number``: shared by the two games of a pair (``2k``, ``2k+1``)."""
    return derive_seed(match_seed, "opening", game_number // 2)
