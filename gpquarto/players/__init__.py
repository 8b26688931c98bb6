"""Players: the protocol, the registry of players by name, and the players themselves."""

from gpquarto.players.base import BasePlayer, Player
from gpquarto.players.registry import available_players, make_player, register_player

__all__ = ["BasePlayer", "Player", "available_players", "make_player", "register_player"]
