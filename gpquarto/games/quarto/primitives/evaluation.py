"""Evaluator primitives: numbers about a position (``Score``), the arithmetic and comparisons that combine them.

An evaluator tree (:mod:`gpquarto.gp.evaluator`) returns a ``Score`` for a position *from the point of view of
the player to move*; a search calls it at its leaves, where a piece is in hand and cannot win at once. Its
nodes are the primitives below plus every primitive of the library whose types are ``bool``, ``Count``,
``Characteristic`` or ``Score`` only (``equal``, ``pieces_with``, ``in_hand_has``...). Scores are integers
and every operation saturates at +-``SCORE_LIMIT``, so no tree can build huge numbers; a search clamps the
final value into its heuristic range.

* Lines: ``threats`` (lines of three sharing a characteristic), split into ``live_threats`` (some piece
  left completes it), ``even_threats`` and ``odd_threats`` (by the parity of the pieces left that complete
  it); ``open_lines_holding(n)`` (lines with ``n`` pieces and an empty square whose pieces share a
  characteristic) and ``open_lines_sharing(c)`` (lines with two or three pieces and an empty square that
  all have characteristic ``c``).
* Safety: ``safe_piece_count`` (pieces that could be given now without handing over a win),
  ``safe_parity`` (that count modulo 2), ``safe_square_count`` (squares for the piece in hand after which a
  safe piece remains, or that win), ``safe_pair_count`` (the (square, piece to give) pairs for the piece in
  hand that hand over no win), ``forced_win`` (100 when the piece in hand can put the opponent in guaranteed
  loss: a square and a safe piece after which every square for that piece leaves no safe piece to give back;
  looked for on boards of at most six empty squares).
* Squares: ``empty_square_count``; ``threat_making_squares`` (empty squares where the piece in hand would
  make a line of three sharing a characteristic: where it sets up the opponent).

The constants, conversion, arithmetic and comparisons of scores are every game's (the family of the same name in
``gpquarto_primitives.scores``); Quarto's library lists them after these, as it always has.
"""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import GIVEN_NOTED, GIVEN_NOTHING, Features, reads_given_piece
from gpquarto.games.quarto.pieces import CHARACTERISTICS
from gpquarto.games.quarto.search.heuristics import HEURISTIC_LIMIT
from gpquarto.games.quarto.tables import PIECES_MEETING
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Characteristic, Count, Score

FAMILY = "evaluation"


def _threat_parities(features: Features) -> tuple[int, int]:
    """(threat lines an even, nonzero number of pieces left completes; lines an odd number completes)."""

    def compute(features: Features) -> tuple[int, int]:
        available = features.available
        even = odd = 0
        for _mask, count, shared in features.open_lines:
            if count == 3 and shared:
                winners = (PIECES_MEETING[shared] & available).bit_count()
                if winners:
                    if winners % 2:
                        odd += 1
                    else:
                        even += 1
        return even, odd

    return features.memo("evaluation.threat_parities", compute)


# ---------------------------------------------------------------------- lines
@primitive
@reads_given_piece(GIVEN_NOTHING)
def threats(features: Features) -> Score:
    """Lines holding three pieces that share a characteristic."""
    return features.threatened_lines


@primitive
@reads_given_piece(GIVEN_NOTHING)
def live_threats(features: Features) -> Score:
    """Lines of three sharing a characteristic that some piece left (not the one in hand) completes."""
    even, odd = _threat_parities(features)
    return even + odd


@primitive
@reads_given_piece(GIVEN_NOTHING)
def even_threats(features: Features) -> Score:
    """Lines of three sharing a characteristic that an even number (not zero) of the pieces left completes."""
    return _threat_parities(features)[0]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def odd_threats(features: Features) -> Score:
    """Lines of three sharing a characteristic that an odd number of the pieces left completes."""
    return _threat_parities(features)[1]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def open_lines_holding(features: Features, pieces: Count) -> Score:
    """Lines with that many pieces (1..3) and an empty square whose pieces all share a characteristic."""
    return sum(1 for _mask, count, shared in features.open_lines if count == pieces and shared)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def open_lines_sharing(features: Features, characteristic: Characteristic) -> Score:
    """Lines with two or three pieces and an empty square that all have the characteristic."""
    bit = 1 << characteristic
    return sum(1 for _mask, count, shared in features.open_lines if count >= 2 and shared & bit)


# ---------------------------------------------------------------------- safety
@primitive
@reads_given_piece(GIVEN_NOTHING)
def safe_piece_count(features: Features) -> Score:
    """Pieces left that give the opponent no immediate win if given now."""
    return len(features.safe_pieces)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def safe_parity(features: Features) -> Score:
    """The number of safe pieces left, modulo 2 (the parity that decides many endgames)."""
    return len(features.safe_pieces) % 2


@primitive
@reads_given_piece(GIVEN_NOTED)
def safe_square_count(features: Features) -> Score:
    """Squares for the piece in hand that win or leave a safe piece to give (0 when a piece must be chosen)."""
    return features.safe_square_count


@primitive
@reads_given_piece(GIVEN_NOTED)
def safe_pair_count(features: Features) -> Score:
    """(Square, piece to give) pairs for the piece in hand that hand over no win at once (0 when choosing)."""
    return features.safe_pair_count


@primitive
@reads_given_piece(GIVEN_NOTED)
def forced_win(features: Features) -> Score:
    """100 (``HEURISTIC_LIMIT``, the score a search gives its best unproven leaf) when the piece in hand wins at once,
    or has a square and a safe piece to give after which the opponent is in guaranteed loss (every square for that
    piece leaves no safe piece to give back): a win two placements ahead, worth more than any count; else 0, and 0 on
    boards with more than six empty squares (``FORCED_WIN_HORIZON``: earlier the look is costly and rarely finds
    one). A score, not a condition, so that rule players (conditions) do not get it."""
    return HEURISTIC_LIMIT if features.forced_win else 0


# ---------------------------------------------------------------------- squares
@primitive
@reads_given_piece(GIVEN_NOTHING)
def empty_square_count(features: Features) -> Score:
    """Empty squares."""
    return len(features.empty_squares)


@primitive
def threat_making_squares(features: Features) -> Score:
    """Empty squares where the piece in hand would complete a line of three sharing a characteristic."""
    if features.in_hand < 0:
        return 0
    own = CHARACTERISTICS[features.in_hand]
    squares = 0
    for mask, count, shared in features.open_lines:
        if count == 2 and shared & own:
            squares |= mask
    return (squares & ~features.occupied).bit_count()
