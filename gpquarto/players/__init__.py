"""Players: the protocol, the registry of the zoo's players by name, and the zoo itself.

Saved (evolved) players live with the GP code; :func:`gpquarto.resolve.make_player` turns any player spec,
a name or a file, into a player.
"""

from gpquarto.players.base import BasePlayer, Player, QuartoPlayer
from gpquarto.players.registry import available_players, make_named_player, register_player

__all__ = ["BasePlayer", "Player", "QuartoPlayer", "available_players", "make_named_player", "register_player"]
