"""Building blocks for evaluators: richer facts than the counts of :mod:`~gpquarto.games.quarto.primitives.evaluation`.

* ``forced_loss``: -100 when the player to move cannot escape a forced win of the opponent: the piece in hand does
  not win at once, and every square for it and every safe piece to give after it leave the opponent a forced win
  (``forced_win`` seen from the opponent's side), or there is no such square and piece at all (guaranteed loss);
  else 0. It reads the board three placements ahead, on boards of at most six empty squares
  (``FORCED_LOSS_HORIZON``).
* ``forced_outcome``: the shallow game-theoretic outcome that the player to move can see: +100 where
  ``forced_win`` is 100, -100 where ``forced_loss`` is -100, else 0. The two never fire together (a square and a
  safe piece that put the opponent in guaranteed loss leave it no forced win, which is the escape ``forced_loss``
  looks for); if they did, the forced win would be read first. It reads the same facts as the two, so a leaf that
  holds it and either of them computes each once.
* ``safe_pair_parity``: the number of (square, piece to give) pairs for the piece in hand that hand over no win at
  once (``safe_pair_count``), modulo 2: the parity of the safe replies, which decides who runs out of them first
  when neither player can force anything.

A search's leaves compute them through the leaf's shared facts (:class:`~gpquarto.games.quarto.gp.features.
LeafFeatures`), once for every safe piece that could be given there; other positions walk the Board. All three
are ``GIVEN_NOTED``. The family is in the library of every player file, and in an evaluator run's only with
``EvolutionConfig.evaluator_blocks`` (off by default, and for every config saved before it existed, so that those
runs replay and resume as they were).
"""

from __future__ import annotations

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import GIVEN_NOTED, Features, LeafFeatures, reads_given_piece
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK
from gpquarto.games.quarto.pieces import MEMBERS
from gpquarto.games.quarto.search import tactics
from gpquarto.games.quarto.search.heuristics import HEURISTIC_LIMIT
from gpquarto.games.quarto.search.tactics import SearchLeaf
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Score

FAMILY = "evaluation_blocks"

#: The most empty squares on which ``forced_loss`` looks (0 on emptier boards).
FORCED_LOSS_HORIZON = 6


def board_forced_loss(board: Board, horizon: int = FORCED_LOSS_HORIZON) -> bool:
    """True when the player to move (a placement due) cannot escape a forced win of the opponent: its piece does not
    win at once, some piece is left to give, and every square for it and safe piece to give after it leave the
    opponent a square and a safe piece after which no square keeps a safe piece (or there is no such square and
    safe piece to give at all). False on boards of more than ``horizon`` empty squares. ``board`` is left as it was."""
    piece = board.in_hand
    if piece < 0 or (board.occupied_mask ^ ALL_SQUARES_MASK).bit_count() > horizon or not board.available_mask:
        return False
    if tactics.winning_squares(board, piece):
        return False
    for square in MEMBERS[tactics.safe_placements_mask(board, piece)]:
        board.place(square)
        escaped = False
        for reply in tactics.safe_pieces(board):
            board.choose(reply)
            leaf = SearchLeaf.from_board(board)
            escaped = not leaf.forced_wins(board.available_mask | 1 << reply, (reply,))[0]
            board.undo()
            if escaped:
                break
        board.undo()
        if escaped:
            return False
    return True


def _forced_losses(leaf: SearchLeaf, pieces: int, given: tuple[int, ...]) -> list[int]:
    if (leaf.occupied ^ ALL_SQUARES_MASK).bit_count() > FORCED_LOSS_HORIZON:
        return [0] * len(given)
    return [int(board_forced_loss(Board.from_cells(leaf.cells, piece, leaf.rules))) for piece in given]


def _is_forced_loss(features: Features) -> bool:
    """The fact behind ``forced_loss``, computed once per position (at a leaf, once for every piece given)."""
    if isinstance(features, LeafFeatures):
        return bool(features.given_piece_fact("evaluation_blocks.forced_loss", _forced_losses))
    return features.memo("evaluation_blocks.forced_loss", lambda facts: board_forced_loss(facts.board.copy()))


@primitive
@reads_given_piece(GIVEN_NOTED)
def forced_loss(features: Features) -> Score:
    """-100 (``-HEURISTIC_LIMIT``) when the player to move cannot escape a forced win of the opponent (every square
    for the piece in hand and safe piece to give after it leave the opponent a square and a safe piece after which
    no square keeps a safe piece, or there is none: guaranteed loss), looked for on boards of at most six empty
    squares (``FORCED_LOSS_HORIZON``); else 0 (and when choosing)."""
    return -HEURISTIC_LIMIT if _is_forced_loss(features) else 0


@primitive
@reads_given_piece(GIVEN_NOTED)
def forced_outcome(features: Features) -> Score:
    """The outcome the player to move can see two placements ahead: 100 (``HEURISTIC_LIMIT``) where ``forced_win``
    is 100, -100 where ``forced_loss`` is -100, else 0 (and when choosing). The two never fire together; the forced
    win is read first, and the forced loss only when there is none."""
    if features.forced_win:
        return HEURISTIC_LIMIT
    return -HEURISTIC_LIMIT if _is_forced_loss(features) else 0


@primitive
@reads_given_piece(GIVEN_NOTED)
def safe_pair_parity(features: Features) -> Score:
    """The (square, piece to give) pairs for the piece in hand that hand over no win at once, modulo 2 (0 when
    choosing): the parity of the safe replies."""
    return features.safe_pair_count % 2
