"""Players: the protocol, the registry of the zoo's players by name, and the zoo itself.

Saved (evolved) players live with the GP code; :func:`gpquarto.resolve.make_player` turns any player spec,
a name or a file, into a player. A game's own player forms live in its package (Quarto's ``QuartoPlayer``:
:mod:`gpquarto.games.quarto.players.base`).
"""

from gpquarto.players.base import BasePlayer, Player
from gpquarto.players.registry import available_players, make_named_player, register_player

__all__ = ["BasePlayer", "Player", "available_players", "make_named_player", "register_player"]
