"""Leaves of the Monte Carlo tree search scored by a heuristic instead of a playout (``mcts:evaluator=FILE``).

An evaluation (an evolved evaluator, :mod:`gpquarto.gp.evaluator_player`, or a built-in heuristic) scores a position
where a piece is in hand and cannot win at once. :func:`leaf_reward` scores any unfinished position for the player
to act, with the tactics every search in gpquarto knows:

* a placement is due: a piece in hand that wins at once is a win (reward 1); otherwise the heuristic's score;
* a choice is due: with no safe piece to give, a loss (reward 0); otherwise the best of the safe pieces for the
  chooser, the score the opponent would have with it, negated.

The score becomes a reward in ``[0, 1]`` through the logistic function ``1 / (1 + exp(-score / scale))``: a score
of 0 is a draw's 0.5, and ``scale`` says how many points make a clear advantage. Scores are deterministic, so a
search with a seed stays reproducible.

Example::

    >>> from gpquarto.games.quarto import Board
    >>> from gpquarto.games.quarto.search.heuristics import get_heuristic
    >>> leaf_reward(Board.from_text("012./..../..../.... 5"), get_heuristic("wins"), searcher=1, scale=10.0)
    (0, 1.0)
"""

from __future__ import annotations

import math

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS
from gpquarto.games.quarto.search.heuristics import Heuristic
from gpquarto.games.quarto.search.tactics import SearchLeaf, threat_characteristics
from gpquarto.games.quarto.tables import PIECES_MEETING


def leaf_reward(board: Board, heuristic: Heuristic, *, searcher: int, scale: float) -> tuple[int, float]:
    """The player to act in the unfinished ``board`` and its reward in ``[0, 1]`` (see the module docstring);
    ``searcher`` is the player the search decides for (a heuristic that credits the searcher scores for it)."""
    player = board.player
    threats = threat_characteristics(board)
    if board.placement_due:
        if CHARACTERISTICS[board.in_hand] & threats:
            return player, 1.0
        score = _score(heuristic, board, SearchLeaf.from_board(board), board.in_hand, board.available_mask, searcher)
        return player, _squash(score, scale)
    safe = ~PIECES_MEETING[threats] & board.available_mask
    if not safe:
        return player, 0.0
    leaf = SearchLeaf.from_board(board)
    best = None
    for piece in MEMBERS[safe]:
        board.push_choice(piece)  # the opponent is to act, with the piece in hand
        score = -_score(heuristic, board, leaf, piece, board.available_mask, searcher)
        board.undo()
        if best is None or score > best:
            best = score
    assert best is not None  # safe holds a piece
    return player, _squash(best, scale)


def _score(heuristic: Heuristic, board: Board, leaf: SearchLeaf, piece: int, available: int, searcher: int) -> int:
    """The heuristic's score of ``board`` (``piece`` in hand, ``available`` left; ``leaf`` is its board) for the
    player to act."""
    score = heuristic.leaf(leaf, available, piece)[0] if heuristic.leaf is not None else heuristic.evaluate(board)
    return -score if heuristic.credits_searcher and board.player != searcher else score


def _squash(score: float, scale: float) -> float:
    return 1.0 / (1.0 + math.exp(-score / scale))
