"""Static evaluations for depth-limited search (seeds 002 and 004).

A heuristic scores a position in which a placement is due (a piece is in hand), in
``[-HEURISTIC_LIMIT, HEURISTIC_LIMIT]``. The search only calls it on positions where that piece cannot win
at once (it checks that first), and proven results are scored outside that range, so a heuristic never
outweighs a real win or loss.

* ``wins``: 0 — the search only knows wins, losses and draws it can see.
* ``guaranteed_loss``: -100 for the player to move when every square for its piece leaves only winning
  pieces to give (seed 002's "guaranteed loss": it must then hand over a win), else 0.
* ``lines``: seed 002's 3-piece lines: each line holding three pieces that share a characteristic scores
  20 when an even number of the remaining pieces complete it (the seed weighs those heavier) and 10 when
  that number is odd; a line that no remaining piece completes is dead (0).
* ``quarticity``: seed 004's count of lines holding three pieces that share a characteristic (10 each).

Whose score? ``wins`` and ``guaranteed_loss`` score for the player to move. ``lines`` and ``quarticity``
measure *tension*, and tension is credited to the searching player wherever the depth limit falls: the
searcher never hands over a win it can see, while the opponents it is meant for err exactly when lines are
open. Crediting the player to move instead (seed 004's sign) makes play depend on the parity of the depth
(weaker at odd depths against the random player); crediting the searcher plays alike at every depth
(docs/defaults.md, the zoo).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.search.tactics import (
    PIECES_MEETING,
    SearchLeaf,
    safe_placements_mask,
    threat_line_count,
    threat_lines,
)

#: Largest absolute value a heuristic may return; proven wins and losses are scored beyond it.
HEURISTIC_LIMIT = 100
#: The four attributes of a piece (its bits): what a leaf evaluation that may read anything of the piece reads.
ALL_ATTRIBUTES = 0b1111


@dataclass(frozen=True)
class Heuristic:
    """A named evaluation and whose score it is: the player to move's, or the searching player's.

    ``leaf``, when given, is the same evaluation read from the fast search's own state instead of a Board:
    ``leaf(position, available, in_hand) -> (value, read)`` with the board as a
    :class:`~gpquarto.games.quarto.search.tactics.SearchLeaf`, the mask of the pieces left and the piece in hand; ``value``
    must equal ``evaluate`` on that position (the search then runs its fast form, :mod:`gpquarto.games.quarto.search.negamax`),
    and ``read`` is the mask of the attributes (bits) of ``in_hand`` it depended on (:data:`ALL_ATTRIBUTES` when
    unsure): the search gives the same value to every safe piece that agrees with ``in_hand`` on them. Evolved
    evaluators provide it.
    """

    name: str
    evaluate: Callable[[Board], int]
    credits_searcher: bool = False
    leaf: Callable[[SearchLeaf, int, int], tuple[int, int]] | None = None


def wins_only(board: Board) -> int:
    """No knowledge beyond the search: every unfinished position is worth 0."""
    return 0


def guaranteed_loss(board: Board) -> int:
    """-100 when the piece in hand has no square after which a safe piece remains to give, else 0."""
    if board.available_mask and not safe_placements_mask(board, board.in_hand):
        return -HEURISTIC_LIMIT
    return 0


def three_piece_lines(board: Board) -> int:
    """Live threat lines: 20 each if an even number of the remaining pieces complete it, else 10."""
    available = board.available_mask
    score = 0
    for _square, shared in threat_lines(board):
        winners = (PIECES_MEETING[shared] & available).bit_count()
        if winners:  # a line no remaining piece completes is dead
            score += 20 if winners % 2 == 0 else 10
    return min(score, HEURISTIC_LIMIT)


def quarticity(board: Board) -> int:
    """Ten times the number of lines with three pieces sharing a characteristic."""
    return min(10 * threat_line_count(board), HEURISTIC_LIMIT)


#: The heuristics by the names players use (``minimax:heuristic=quarticity``).
HEURISTICS: dict[str, Heuristic] = {
    heuristic.name: heuristic
    for heuristic in (
        Heuristic("wins", wins_only),
        Heuristic("guaranteed_loss", guaranteed_loss),
        Heuristic("lines", three_piece_lines, credits_searcher=True),
        Heuristic("quarticity", quarticity, credits_searcher=True),
    )
}


def get_heuristic(name: str | Heuristic) -> Heuristic:
    """The heuristic called ``name`` (a :class:`Heuristic` is its own answer: an evolved evaluator's, say);
    ``ValueError`` listing the valid names otherwise."""
    if isinstance(name, Heuristic):
        return name
    try:
        return HEURISTICS[name]
    except KeyError:
        raise ValueError(f"unknown heuristic {name!r} (choose from: {', '.join(HEURISTICS)})") from None
