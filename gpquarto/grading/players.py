"""The one place where grading turns a player spec or a saved player file into a player."""

from __future__ import annotations

from gpquarto.resolve import make_player, make_unattended_player

__all__ = ["make_player", "make_unattended_player"]
