"""The game layer: one interface every game speaks (:mod:`gpquarto.games.interface`), and the games on it.

Everything above this folder (search, players, the arena, GP, grading, the CLI and the web app) reaches a
game through this package: games are plug-ins found through the entry point ``gpquarto.games``
(:mod:`gpquarto.games.registry`), each a :class:`GamePlugin` with a settings schema and capabilities.
``docs/design/game-plugins.md`` is the design; ``docs/games.md`` tells how a game plugs in.
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
from gpquarto.games.plugin import GamePlugin, MissingCapability
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_game, get_plugin, plugins, register_plugin
from gpquarto.games.settings import Setting

__all__ = [
    "DEFAULT_GAME",
    "DecisionKind",
    "Game",
    "GamePlugin",
    "GameState",
    "GameView",
    "IllegalActionError",
    "MissingCapability",
    "Outcome",
    "Setting",
    "Termination",
    "game_names",
    "get_game",
    "get_plugin",
    "plugins",
    "register_plugin",
]
