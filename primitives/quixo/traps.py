"""Traps: a move after which the mover wins next turn whatever the opponent replies.

The one family that looks at the mover's next move as well: after a safe move (no win at once, and no winning
reply for the opponent) each reply of the opponent is played and the mover's winning moves are looked for; a
reply that loses at once for the opponent counts as a win. Three plies in all, and no deeper.
"""

from __future__ import annotations

from gpquarto.gp.quixo.features import QuixoFeatures
from gpquarto.gp.types import NO_ACTION, Move

FAMILY = "quixo_traps"


def trap_move(features: QuixoFeatures) -> Move:
    """A move after which every reply of the opponent leaves the mover a winning move."""
    return features.trap_move


def trap_exists(features: QuixoFeatures) -> bool:
    """Some move sets a trap: the mover wins next turn whatever the opponent replies."""
    return features.trap_move != NO_ACTION
