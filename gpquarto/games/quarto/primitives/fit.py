"""Fit: how well a piece matches the lines it could go on, from counts and characteristics only.

A piece *fits* a line when it shares at least one characteristic with every piece on it. The *fit* of a
piece through a square is the number of pieces on the fullest line through that square (lines of the rules,
the 2x2 blocks too under advanced rules; empty and complete lines left out) that the piece fits, 0 when it
fits none. Extending a line of three that the piece fits completes it; extending nothing keeps the board
quiet. Ties go to the lowest square or piece.
"""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Count, Piece, Square

FAMILY = "fit"


def _extreme(items: tuple[int, ...], scores: tuple[int, ...], *, highest: bool) -> int:
    """The first item with the highest (lowest) score, or ``NO_ACTION`` when there is none."""
    if not items:
        return NO_ACTION
    target = max(scores) if highest else min(scores)
    return items[scores.index(target)]


@primitive
def best_fit_square(features: Features) -> Square:
    """The free square where the piece in hand fits the fullest line (NO_ACTION when choosing)."""
    if features.in_hand == NO_PIECE:
        return NO_ACTION
    return _extreme(features.empty_squares, features.hand_fits, highest=True)


@primitive
def worst_fit_square(features: Features) -> Square:
    """The free square where the fullest line the piece in hand fits holds the fewest pieces (NO_ACTION when choosing)."""
    if features.in_hand == NO_PIECE:
        return NO_ACTION
    return _extreme(features.empty_squares, features.hand_fits, highest=False)


@primitive
def hand_fit(features: Features) -> Count:
    """Pieces on the fullest line the piece in hand fits through a free square (0 when choosing)."""
    return max(features.hand_fits, default=0)


@primitive
def least_fitting_piece(features: Features) -> Piece:
    """The available piece whose fullest fitting line (through a free square) holds the fewest pieces."""
    return _extreme(features.available_pieces, features.piece_fits, highest=False)


@primitive
def most_fitting_piece(features: Features) -> Piece:
    """The available piece whose fullest fitting line (through a free square) holds the most pieces."""
    return _extreme(features.available_pieces, features.piece_fits, highest=True)
