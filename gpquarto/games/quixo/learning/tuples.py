"""Quixo's n-tuple features: every line and every 2x3 rectangle of the board, shared over its symmetries.

The features are the TD-FARL / Othello kind (Lucas; Jaśkowski): a *tuple* is an ordered sequence of ``k``
cells, and it looks up one weight out of ``3**k`` by the contents of its cells, read from the point of view
of the player who made the afterstate's move: 0 blank, 1 that player's cube, 2 the opponent's. The value of
an afterstate is ``tanh`` of the sum of the weights of all its tuples.

The tuples are the lines (rows, columns, the two diagonals: ``3**n`` weights each) and the 2x3 rectangles
(``3**6`` weights each). Each candidate tuple belongs to an *orbit* under the 8 rotations and reflections of
the board (:func:`gpquarto.games.quixo.symmetry.cell_maps`), every orbit has one table of weights, and every
image of the orbit's first tuple under the 8 maps (as an ordered sequence of cells; equal sequences once)
reads that table. So an afterstate and its 8 images have the same value, and because the cells are read
from the mover's point of view the colour swap is free as well (``tests/test_learned_quixo.py``). On the
5x5 board that is 4 line orbits (edge, second and middle rows and columns; the diagonals) and 4 rectangle
orbits: 3,888 weights, 64 tuples read per afterstate. (The course rules' only board symmetry is the
identity; the features share the weights over the 8 maps all the same, an approximation there.)
"""

from __future__ import annotations

from collections import Counter
from typing import cast

import numpy as np

from gpquarto.games.interface import GameState
from gpquarto.games.quixo.board import QuixoQueries, QuixoRules
from gpquarto.games.quixo.game import QUIXO
from gpquarto.games.quixo.symmetry import cell_maps
from gpquarto.games.quixo.tables import tables
from gpquarto.learned.turns import LIMIT, Turn

#: Cell codes, from the point of view of the afterstate's mover.
BLANK, MINE, THEIRS = 0, 1, 2


def candidate_tuples(n: int) -> list[tuple[int, ...]]:
    """Every line (rows, columns, the main and the anti-diagonal) and every 2x3 and 3x2 rectangle of the
    ``n x n`` board, as cell sequences (row-major inside a rectangle)."""
    lines = [tuple(n * r + c for c in range(n)) for r in range(n)]
    lines += [tuple(n * r + c for r in range(n)) for c in range(n)]
    lines += [tuple(n * i + i for i in range(n)), tuple(n * i + n - 1 - i for i in range(n))]
    rectangles = [
        tuple(n * (r + dr) + c + dc for dr in range(height) for dc in range(width))
        for height, width in ((2, 3), (3, 2))
        for r in range(n - height + 1)
        for c in range(n - width + 1)
    ]
    return lines + rectangles


def tuple_orbits(n: int) -> list[list[tuple[int, ...]]]:
    """The orbits of :func:`candidate_tuples` under the 8 maps: for each, the distinct images (ordered
    sequences) of its first candidate, the candidate itself first."""
    orbits: list[list[tuple[int, ...]]] = []
    covered: set[frozenset[int]] = set()
    for candidate in candidate_tuples(n):
        if frozenset(candidate) in covered:
            continue
        images = list(dict.fromkeys(tuple(cell_map[c] for c in candidate) for cell_map in cell_maps(n)))
        covered.update(frozenset(image) for image in images)
        orbits.append(images)
    return orbits


class QuixoTuples:
    """The n-tuple features of Quixo afterstates (see the module docstring) for one board size."""

    name = "quixo-tuples/1"
    game = "quixo"

    def __init__(self, **settings: object) -> None:
        """``settings``: Quixo's (``size``, ``rules``, ``ply_limit``, ``repetitions``; checked, defaults filled)."""
        checked = QUIXO.check_settings(settings)
        self.n = int(cast(int, checked["size"]))
        self.rules = QuixoRules(cast(str, checked["rules"]))
        self.ply_limit = checked["ply_limit"]
        self.repetitions = checked["repetitions"]
        self.orbits = tuple_orbits(self.n)
        lengths = [len(orbit[0]) for orbit in self.orbits]
        #: Where each orbit's table starts in the weights.
        self.offsets = np.cumsum([0] + [3**k for k in lengths[:-1]]).astype(np.int64)
        self.size = int(sum(3**k for k in lengths))
        width = max(lengths)
        blank = self.n * self.n  # a padding cell that is always blank (code 0)
        instances = [(number, image) for number, orbit in enumerate(self.orbits) for image in orbit]
        #: ``cells[t]``: tuple ``t``'s cells, padded with the blank cell; ``bases[t]``: its orbit's offset.
        self.cells = np.array([list(image) + [blank] * (width - len(image)) for _, image in instances], np.int64)
        self.bases = np.array([self.offsets[number] for number, _ in instances], np.int64)
        self.powers = 3 ** np.arange(width, dtype=np.int64)
        self._bits = np.arange(self.n * self.n, dtype=np.int64)

    def settings(self) -> dict[str, object]:
        """The game settings the features are for."""
        return {"size": self.n, "rules": self.rules.value, "ply_limit": self.ply_limit, "repetitions": self.repetitions}

    def _indices(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """``indices[b, t]``: the weight of tuple ``t`` on board ``b`` (the masks of the afterstate's mover
        and of the opponent, one per board)."""
        codes = ((mine[:, None] >> self._bits) & 1) * MINE + ((theirs[:, None] >> self._bits) & 1) * THEIRS
        codes = np.hstack([codes, np.zeros((len(codes), 1), np.int64)])
        return self.bases + codes[:, self.cells] @ self.powers

    def indices(self, state: GameState) -> np.ndarray:
        """The weight indices (one per tuple) of an afterstate that is not over."""
        board = _board(state)
        if board.is_over():
            raise ValueError(f"not an afterstate the features describe (the game is over): {board.text()}")
        mine, theirs = (board.o_mask, board.x_mask) if board.player == 0 else (board.x_mask, board.o_mask)
        return self._indices(np.array([mine], np.int64), np.array([theirs], np.int64))[0]

    def turn_values(self, state: GameState, weights: np.ndarray) -> tuple[list[Turn], np.ndarray]:
        """Every move of the player due and its afterstate's value for that player: 1 or -1 when the move
        ends the game by a line, 0 when it draws (repetition or ply limit), else the network's value. The same
        as :func:`~gpquarto.learned.models.generic_turn_values` (tested), without playing the moves."""
        board = _board(state)
        actions = board.legal_actions()
        if not actions:
            return [], np.zeros(0)
        table = tables(board.size)
        own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
        course = board.rules is QuixoRules.COURSE
        cells = table.cells
        side = (board.player ^ 1) << (2 * cells)
        counts = Counter(board.position_keys())
        last_ply = len(board.history) + 1 >= board.ply_limit
        mine, theirs, finals = [], [], []
        for action in actions:
            after_own, after_other = table.play(own, other, action)
            result: float | None = table.mover_result(after_own, after_other, course)
            if not result:
                x, o = (after_own, after_other) if board.player == 0 else (after_other, after_own)
                if counts[x | o << cells | side] + 1 >= board.repetitions or last_ply:
                    result = 0.0
                else:
                    result = None
            finals.append(result)
            mine.append(after_own)
            theirs.append(after_other)
        values = np.array([0.0 if final is None else float(final) for final in finals])
        open_rows = [row for row, final in enumerate(finals) if final is None]
        if open_rows:
            indices = self._indices(np.array(mine, np.int64)[open_rows], np.array(theirs, np.int64)[open_rows])
            values[open_rows] = np.clip(np.tanh(weights[indices].sum(axis=1)), -LIMIT, LIMIT)
        return [(action,) for action in actions], values


def _board(state: GameState) -> QuixoQueries:
    if not isinstance(state, QuixoQueries):
        raise ValueError(f"the Quixo features need a Quixo position, got a {state.game_name} one")
    return state
