"""Tactics of one move: what wins or loses at once for the mover, and what the opponent threatens. Leave the
family out with ``tactical=False`` (which leaves out ``quixo_lookahead`` too).

The board's rules decide: under the official rules a move that completes an opponent line loses (even if it
completes the mover's too); under the course rules the first complete line in scan order wins, whoever moved.
A *threat* is a move that would win for the opponent if it were its turn now.
"""

from __future__ import annotations

from gpquarto.games.quixo.gp.features import QuixoFeatures, lowest
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Count, Move

FAMILY = "quixo_tactical"


@primitive
def winning_move(features: QuixoFeatures) -> Move:
    """A move that wins at once."""
    return lowest(features.winning_moves)


@primitive(aliases=["can_win"])
def can_win_now(features: QuixoFeatures) -> bool:
    """Some move wins at once."""
    return bool(features.winning_moves)


@primitive
def is_winning_move(features: QuixoFeatures, move: Move) -> bool:
    """The proposed move wins at once."""
    return move in features.winning_moves


@primitive
def non_losing_move(features: QuixoFeatures) -> Move:
    """A move that does not lose at once (official rules: completes no opponent line)."""
    return lowest(features.non_losing_moves)


@primitive
def is_losing_move(features: QuixoFeatures, move: Move) -> bool:
    """The proposed move loses at once."""
    return move in features.losing_moves


@primitive
def opponent_threat(features: QuixoFeatures) -> bool:
    """The opponent could win at once if it were its turn."""
    return bool(features.threats)


@primitive
def threat_count(features: QuixoFeatures) -> Count:
    """How many moves would win at once for the opponent if it were its turn."""
    return len(features.threats)
