"""The games by name: ``get_game("quarto")``. Quarto is the default game everywhere."""

from __future__ import annotations

from gpquarto.games.interface import Game
from gpquarto.games.quarto.game import QUARTO
from gpquarto.games.quixo.game import QUIXO

DEFAULT_GAME = "quarto"

_GAMES: dict[str, Game] = {QUARTO.name: QUARTO, QUIXO.name: QUIXO}


def register_game(game: Game) -> None:
    """Make ``game`` known by its name (a game of the same name is replaced only by the same object)."""
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game


def game_names() -> tuple[str, ...]:
    """The registered games' names, the default first."""
    return (DEFAULT_GAME, *sorted(name for name in _GAMES if name != DEFAULT_GAME))


def get_game(name: str | Game = DEFAULT_GAME) -> Game:
    """The game called ``name`` (a game object is returned as it is); ``ValueError`` naming the known games."""
    if not isinstance(name, str):
        return name
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(game_names())})") from None
