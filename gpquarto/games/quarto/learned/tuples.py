"""Quarto's n-tuple features: lines seen through one characteristic at a time.

A Quarto afterstate (a board and the piece handed to the opponent) is described, for every winning line
``l`` and every characteristic ``c`` (tall, short, dark, plain...), by one weight looked up from the small
tuple

    (orbit of l, pieces on l that have c, pieces on l that lack c, does the handed piece have c,
     pieces still to be handed out that have c)

The value of the afterstate is ``tanh`` of the sum of the ``lines x 8`` weights. The tuple reads the four
squares of a line with per-cell codes relative to the characteristic (empty / has c / lacks c), counted
rather than ordered: a line wins whatever the order of its pieces, and counting is what makes the weights
shared over the symmetries. The 384 piece symmetries permute or complement the characteristics, and every
characteristic uses the same weights; the square symmetries map lines to lines of the same orbit (rows and
columns with each other; the diagonals with each other), and each orbit has its own weights. So every
symmetric image of an afterstate has the same value (``tests/test_learned.py`` checks it on the 12,288 maps).

Why these features (measured, ``docs/learning.md``): the piece in hand against the lines' counts is what
decides whether the opponent wins at once, and the count of pieces left with ``c`` is what decides who will
be forced to hand over a winning piece later.
"""

from __future__ import annotations

import numpy as np

from gpquarto.games.capabilities import LearningEncoders
from gpquarto.games.interface import GameState
from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, NO_PIECE
from gpquarto.games.quarto.symmetry import square_maps
from gpquarto.learned.turns import LIMIT, Turn

#: How many characteristics (tall, coloured, solid, square and their opposites).
CHARACTERISTIC_COUNT = 8
#: ``HAS[p, c]``: 1 when piece ``p`` has characteristic ``c`` (bit c of its characteristics mask).
HAS = np.array([[(CHARACTERISTICS[p] >> c) & 1 for c in range(CHARACTERISTIC_COUNT)] for p in range(16)], np.int64)
#: ``HAS`` with a 17th row of zeros for an empty cell (index 16).
_HAS_OR_EMPTY = np.vstack([HAS, np.zeros((1, CHARACTERISTIC_COUNT), np.int64)])
_OCCUPIED = np.array([1] * 16 + [0], np.int64)
#: ``PAIRS[has, lacks]``: the index of the pair of counts on a line (has + lacks <= 4), 15 pairs.
PAIRS = np.full((5, 5), -1, np.int64)
for _has in range(5):
    for _lacks in range(5 - _has):
        PAIRS[_has, _lacks] = int((PAIRS >= 0).sum())
PAIR_COUNT = 15
#: Values of "pieces still to hand out that have c": 0..8.
LEFT_COUNT = 9
#: Weights per line orbit: pairs x (handed piece has c or not) x pieces left with c.
PER_ORBIT = PAIR_COUNT * 2 * LEFT_COUNT


def line_orbits(rules: Rules) -> tuple[int, ...]:
    """For each winning line of ``rules``, the index of its orbit under the square symmetries (numbered in the
    order the orbits are first met)."""
    lines = [frozenset(line) for line in rules.lines]
    orbit_of: dict[frozenset, int] = {}
    for line in lines:
        if line in orbit_of:
            continue
        number = len(set(orbit_of.values()))
        for square_map in square_maps(rules):
            orbit_of[frozenset(square_map[s] for s in line)] = number
    return tuple(orbit_of[line] for line in lines)


class QuartoLineTuples:
    """The n-tuple features of Quarto afterstates (see the module docstring) for one rule set."""

    name = "quarto-lines/1"
    game = "quarto"

    def __init__(self, rules: Rules | str = Rules.CLASSIC) -> None:
        self.rules = Rules(rules)
        self.lines = np.array(self.rules.lines, np.int64)
        orbits = line_orbits(self.rules)
        self.orbit_count = max(orbits) + 1
        self.size = self.orbit_count * PER_ORBIT
        #: Offset of each line's weights: its orbit's block.
        self._base = (np.array(orbits, np.int64) * PER_ORBIT)[:, None]
        #: ``_through[s, l]``: 1 when square ``s`` is on line ``l``.
        self._through = np.zeros((16, len(self.lines)), np.int64)
        for index, line in enumerate(self.rules.lines):
            self._through[list(line), index] = 1

    def settings(self) -> dict[str, object]:
        """The game settings the features are for."""
        return {"rules": self.rules.value}

    # -- the features of one afterstate ------------------------------------------------------------------

    def _line_counts(self, cells: list[int] | tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Per line and characteristic: pieces that have it, pieces that lack it (two lines x 8 arrays)."""
        on_lines = np.array([16 if piece == NO_PIECE else piece for piece in cells], np.int64)[self.lines]
        has = _HAS_OR_EMPTY[on_lines].sum(axis=1)
        count = _OCCUPIED[on_lines].sum(axis=1)
        return has, count[:, None] - has

    def indices(self, state: GameState) -> np.ndarray:
        """The weight indices (``lines x 8``) of an afterstate that is not over: a piece is in hand."""
        board = _board(state)
        if board.in_hand == NO_PIECE or board.is_over():
            raise ValueError(f"not an afterstate the features describe (a piece must be in hand): {board.text()}")
        has, lacks = self._line_counts(board.raw_cells)
        handed = HAS[board.in_hand]
        left = HAS[list(board.available_pieces())].sum(axis=0) if board.available_mask else np.zeros(8, np.int64)
        return (self._base + PAIRS[has, lacks] * (2 * LEFT_COUNT) + handed * LEFT_COUNT + left).ravel()

    # -- every turn at once -----------------------------------------------------------------------------

    def turn_values(self, state: GameState, weights: np.ndarray) -> tuple[list[Turn], np.ndarray]:
        """Every turn of the player due and the value of its afterstate for that player, in the order of
        :func:`gpquarto.learned.turns.iter_turns`: a win is 1, a draw 0, any other afterstate
        ``tanh(sum of its weights)`` (kept inside (-1, 1))."""
        board = _board(state)
        if board.is_over():
            return [], np.zeros(0)
        has, lacks = self._line_counts(board.raw_cells)
        hand = board.in_hand
        if hand == NO_PIECE:  # only a choice is left in this turn
            pieces = list(board.available_pieces())
            raw = self._choice_sums(weights, has[None], lacks[None], pieces)[0]
            return [(piece,) for piece in pieces], np.clip(np.tanh(raw), -LIMIT, LIMIT)
        squares = list(board.empty_squares())
        through = self._through[squares][:, :, None]
        has_after = has[None] + through * HAS[hand]
        lacks_after = lacks[None] + through * (1 - HAS[hand])
        wins = ((has_after == 4) | (lacks_after == 4)).any(axis=(1, 2))
        pieces = list(board.available_pieces())
        turns: list[Turn] = []
        values: list[float] = []
        raw = self._choice_sums(weights, has_after, lacks_after, pieces) if pieces else None
        for row, square in enumerate(squares):
            place = PLACE_OFFSET + square
            if wins[row] or not pieces:
                turns.append((place,))
                values.append(1.0 if wins[row] else 0.0)
                continue
            turns.extend((place, piece) for piece in pieces)
            values.extend(np.clip(np.tanh(raw[row]), -LIMIT, LIMIT))  # type: ignore[index]  # raw is set when pieces are left
        return turns, np.array(values)

    def _choice_sums(self, weights: np.ndarray, has: np.ndarray, lacks: np.ndarray, pieces: list[int]) -> np.ndarray:
        """``sums[k, j]``: the sum of the weights of board ``k`` (counts ``has[k]``, ``lacks[k]``) with piece
        ``pieces[j]`` handed over. The weights of a line and characteristic depend on the piece only through
        "has c", so each board needs two sums per characteristic, and a piece picks one of each."""
        left = HAS[pieces].sum(axis=0)
        base = self._base[None] + PAIRS[has, lacks] * (2 * LEFT_COUNT)
        lacking = weights[base + np.maximum(left, 0)].sum(axis=1)  # (boards, 8): handed piece lacks c
        having = weights[base + LEFT_COUNT + np.maximum(left - 1, 0)].sum(axis=1)  # handed piece has c
        return lacking.sum(axis=1)[:, None] + (having - lacking) @ HAS[pieces].T


def _board(state: GameState) -> Board:
    if not isinstance(state, Board):
        raise ValueError(f"the Quarto features need a Quarto position, got a {state.game_name} one")
    return state


#: Quarto's n-tuple features, for ``learn`` (its plug-in's capability).
ENCODERS = LearningEncoders({QuartoLineTuples.name: QuartoLineTuples}, default=QuartoLineTuples.name)
