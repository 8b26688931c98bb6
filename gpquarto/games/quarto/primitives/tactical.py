"""Tactics: immediate wins and safe pieces (one move deep). Leave the family out with ``tactical=False``.

A piece is *safe* when no empty square lets it complete a winning line on the current board (in a
placement decision, that is the board before the piece in hand is placed). A square is *safe* when placing
the piece in hand there wins at once or leaves at least one safe piece to give. The facts come from
:mod:`gpquarto.games.quarto.search.tactics` through :class:`~gpquarto.games.quarto.gp.features.Features`.
"""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import GIVEN_NOTHING, Features, reads_given_piece
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Count, Piece, Square

FAMILY = "tactical"


@primitive
def winning_square(features: Features) -> Square:
    """A square where the piece in hand wins at once (NO_ACTION if none, or when choosing)."""
    squares = features.winning_squares
    return squares[0] if squares else NO_ACTION


@primitive
@reads_given_piece(GIVEN_NOTHING)
def winning_square_exists(features: Features) -> bool:
    """The piece in hand can win at once."""
    return bool(features.winning_squares)


@primitive
def safe_square(features: Features) -> Square:
    """A square after which the opponent can be given a safe piece (or that wins)."""
    squares = features.safe_squares
    return squares[0] if squares else NO_ACTION


@primitive
def tightest_safe_square(features: Features) -> Square:
    """A square that wins at once, else a safe square after which the fewest safe pieces are left to give."""
    if features.winning_squares:
        return features.winning_squares[0]
    return features.tightest_safe_square


@primitive
def is_safe_square(features: Features, square: Square) -> bool:
    """The proposed square wins or leaves a safe piece to give."""
    return square in features.safe_squares


@primitive
def safe_piece(features: Features) -> Piece:
    """An available piece that the opponent cannot win with at once."""
    pieces = features.safe_pieces
    return pieces[0] if pieces else NO_ACTION


@primitive
def is_safe_piece(features: Features, piece: Piece) -> bool:
    """The proposed piece gives the opponent no immediate win."""
    return piece in features.safe_pieces


@primitive
@reads_given_piece(GIVEN_NOTHING)
def safe_piece_exists(features: Features) -> bool:
    """Some available piece gives the opponent no immediate win."""
    return bool(features.safe_pieces)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def safe_pieces_left(features: Features) -> Count:
    """How many available pieces give the opponent no immediate win."""
    return len(features.safe_pieces)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def threatened_lines(features: Features) -> Count:
    """Lines holding three pieces that share a characteristic."""
    return features.threatened_lines
