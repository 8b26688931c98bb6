"""The game layer: one interface every game speaks (:mod:`gpquarto.games.interface`), and the games on it.

Everything above this folder (search, players, the arena, GP, grading, the CLI and the web app) reaches a
game through this package; nothing here imports anything above it. ``docs/games.md`` tells how a game plugs in.
"""

from gpquarto.games.interface import (
    DecisionKind,
    Game,
    GameState,
    GameView,
    IllegalActionError,
    Outcome,
    Termination,
)
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_game, register_game

__all__ = [
    "DEFAULT_GAME",
    "DecisionKind",
    "Game",
    "GameState",
    "GameView",
    "IllegalActionError",
    "Outcome",
    "Termination",
    "game_names",
    "get_game",
    "register_game",
]
