"""The smallest Quixo vocabulary: a legal move, a winning move, whether a win is in reach.

Enough to evolve and test Quixo rule players end to end; the richer Quixo families build on the same facts.
"""

from __future__ import annotations

from gpquarto.gp.primitives import primitive
from gpquarto.gp.quixo.features import QuixoFeatures
from gpquarto.gp.types import NO_ACTION, Move

FAMILY = "quixo_basics"


def _winning_move(features: QuixoFeatures) -> int:
    """The lowest legal move after which the mover has a line and the opponent none (official rules), or the
    course's first line is the mover's (course rules); ``NO_ACTION`` when there is none."""
    table = features.tables
    for action in features.legal_moves:
        own, other = table.play(features.own, features.other, action)
        if table.mover_result(own, other, features.course) == 1:
            return action
    return NO_ACTION


@primitive
def first_legal_move(features: QuixoFeatures) -> Move:
    """The lowest-numbered legal move (``NO_ACTION`` when the game is over)."""
    moves = features.legal_moves
    return moves[0] if moves else NO_ACTION


@primitive
def winning_move(features: QuixoFeatures) -> Move:
    """A move that wins at once (the lowest), or ``NO_ACTION``."""
    return _winning_move(features)


@primitive
def can_win(features: QuixoFeatures) -> bool:
    """True when a move wins at once."""
    return _winning_move(features) != NO_ACTION


@primitive
def move_or(features: QuixoFeatures, first: Move, second: Move) -> Move:
    """``first`` if it is a legal move, else ``second``."""
    return first if features.is_legal_move(first) else second
