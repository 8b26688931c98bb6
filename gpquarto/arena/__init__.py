"""The arena: games, game records, matches and their statistics."""

from gpquarto.arena.game import play_game
from gpquarto.arena.match import MatchResult, play_match
from gpquarto.arena.record import GameRecord
from gpquarto.arena.stats import wilson_interval

__all__ = ["GameRecord", "MatchResult", "play_game", "play_match", "wilson_interval"]
