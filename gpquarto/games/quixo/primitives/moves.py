"""Move choices by a measure of the board a move leaves, and combinators of two proposed moves.

Each choice looks at every legal move and takes the one whose resulting board scores highest (the lowest
action on ties); none of them asks whether the move wins, loses or lets the opponent win (the ``quixo_tactical``
and ``quixo_lookahead`` families do). A comparison of two proposals returns the one that scores higher, the
first on ties, the other when one is ``NO_ACTION``.
"""

from __future__ import annotations

from gpquarto.games.quixo.gp.features import QuixoFeatures, lowest
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Move, better

FAMILY = "quixo_moves"


@primitive
def first_legal_move(features: QuixoFeatures) -> Move:
    """The lowest legal move (NO_ACTION when the game is over)."""
    return lowest(features.legal_moves)


@primitive
def longest_line_move(features: QuixoFeatures) -> Move:
    """The move after which the mover's longest line is longest."""
    return features.longest_line_move


@primitive
def potential_move(features: QuixoFeatures) -> Move:
    """The move leaving the best line potential for the mover.

    The potential is the alpha-beta search's ``lines`` heuristic: 4**k per line of k own cubes and none of the
    opponent's, minus the same for the opponent, plus the cube difference."""
    return features.potential_move


@primitive
def centre_move(features: QuixoFeatures) -> Move:
    """The move after which the mover holds the most cubes off the border."""
    return features.centre_move


@primitive
def diagonal_move(features: QuixoFeatures) -> Move:
    """The move after which the mover holds the most cubes on the diagonals."""
    return features.diagonal_move


@primitive
def blank_take_move(features: QuixoFeatures) -> Move:
    """A move taking a blank cube (the mover gains a cube)."""
    return lowest(features.blank_takes)


@primitive
def own_take_move(features: QuixoFeatures) -> Move:
    """A move taking one of the mover's own cubes (no cube gained)."""
    return lowest(features.own_takes)


@primitive
def takes_blank(features: QuixoFeatures, move: Move) -> bool:
    """The proposed move takes a blank cube."""
    return move in features.blank_take_set


@primitive
def move_or(features: QuixoFeatures, first: Move, second: Move) -> Move:
    """The first move if it is legal, else the second."""
    return first if features.is_legal_move(first) else second


@primitive
def longer_line_move(features: QuixoFeatures, a: Move, b: Move) -> Move:
    """The move after which the mover's longest line is longer."""
    return better(a, b, features.lines_after.__getitem__, higher=True)


@primitive
def higher_potential_move(features: QuixoFeatures, a: Move, b: Move) -> Move:
    """The move leaving the better line potential."""
    return better(a, b, features.potential_after.__getitem__, higher=True)
