"""``import gpquarto.openspiel``: the issue's name for :mod:`gpquarto.adapters.openspiel`, which registers gpquarto's
games (Quarto, Quixo, every installed plug-in) with ``pyspiel`` as ``python_gpquarto_NAME``."""

from gpquarto.adapters.openspiel import PREFIX, register_game, registered_name, spiel_game

__all__ = ["PREFIX", "register_game", "registered_name", "spiel_game"]
