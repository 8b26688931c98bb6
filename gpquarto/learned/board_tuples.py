"""The generic n-tuple features: what ``learn`` uses for a game that declares a ``Board`` but no features of its own.

A *tuple* is a straight run of ``n`` cells of the game's grid (:class:`~gpquarto.games.capabilities.Board`): along
a row, a column or either diagonal, at every place it fits. Each tuple has its own table of ``v**n`` weights
(``v`` = the board's ``cell_values``), indexed by the values of its cells; the value of an afterstate is ``tanh``
of the sum of its tuples' weights (:class:`~gpquarto.learned.models.NTupleModel`). ``n`` is the longest run up to
:data:`LONGEST` that fits the grid and keeps all the tables within :data:`MAX_WEIGHTS` weights (the bound of a
learned player's file, :mod:`gpquarto.learned.npz`): tic-tac-toe's 8 lines of 3 cells (216 weights), Connect
Four's 69 runs of 4 (5,589).

Cells are read from the point of view of the player who made the afterstate's turn (the seat *not* due in it):
where ``Board.seat_marks`` holds, values 1 and 2 are the seats' marks and are recoded to 1 for that player's mark,
2 for the other's, so a position and its colour-swapped twin (marks and the side to move swapped) read the same.
Elsewhere cell values are read as they are. No symmetry of the grid is assumed (gravity, for one, breaks them):
every tuple learns alone.
"""

from __future__ import annotations

import functools

import numpy as np

from gpquarto.games.capabilities import Board, LearningEncoders
from gpquarto.games.interface import GameState
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.registry import get_plugin
from gpquarto.learned.turns import LIMIT, Turn, iter_turns, terminal_value

#: The longest tuple tried.
LONGEST = 4
#: The most weights the features may have (a learned player's weights stay well inside the npz bounds).
MAX_WEIGHTS = 1_000_000


def straight_tuples(rows: int, columns: int, length: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` cells along a row, a column or a diagonal (down-right, then down-left) of the
    ``rows x columns`` grid, as row-major cell indices."""
    found = []
    for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row in range(rows):
            for column in range(columns):
                end_row, end_column = row + d_row * (length - 1), column + d_column * (length - 1)
                if 0 <= end_row < rows and 0 <= end_column < columns:
                    found.append(tuple((row + d_row * k) * columns + column + d_column * k for k in range(length)))
    return list(dict.fromkeys(found))  # a run of one cell is the same in every direction


class BoardTuples:
    """The generic n-tuple features of one game under one set of settings (see the module docstring)."""

    name = "board-tuples/1"

    def __init__(self, game: str, **settings: object) -> None:
        plugin = get_plugin(game)
        self.game = plugin.name
        self._settings = plugin.check_settings(settings)
        self.board: Board = plugin.capability(Board)
        self.rows, self.columns = self.board.shape(self._settings)
        self.values = int(self.board.cell_values(self._settings))
        if self.values < 2 or self.rows < 1 or self.columns < 1:
            raise ValueError(
                f"the board of {self.game} ({self.rows}x{self.columns}, {self.values} cell values) has no cells to learn from"
            )
        length = min(LONGEST, max(self.rows, self.columns))
        while True:
            tuples = straight_tuples(self.rows, self.columns, length)
            if len(tuples) * self.values**length <= MAX_WEIGHTS:
                break
            if length == 1:
                raise ValueError(f"the board of {self.game} needs more than {MAX_WEIGHTS:,} weights for its n-tuples")
            length -= 1
        self.length = length
        self.tuples = tuples
        #: ``cells[t]``: tuple ``t``'s cells; ``bases[t]``: where its table starts; one table of values**n each.
        self.cells = np.array(tuples, np.int64)
        self.bases = np.arange(len(tuples), dtype=np.int64) * self.values**length
        self.powers = self.values ** np.arange(length, dtype=np.int64)
        self.size = int(len(tuples) * self.values**length)
        #: ``recode[seat]``: cell values as seen by ``seat`` (its mark 1, the other's 2).
        identity = np.arange(self.values, dtype=np.int64)
        self.recode = [identity, identity.copy()]
        if self.board.seat_marks and self.values >= 3:
            self.recode[1][[1, 2]] = [2, 1]

    def settings(self) -> dict[str, object]:
        """The game settings the features are for."""
        return dict(self._settings)

    def board_codes(self, state: GameState) -> np.ndarray:
        """The cells of ``state`` as the seat not due there sees them (see the module docstring)."""
        cells = np.fromiter(self.board.cells(state), np.int64, count=self.rows * self.columns)
        if cells.min(initial=0) < 0 or cells.max(initial=0) >= self.values:
            raise ValueError(f"a cell of {self.game} holds a value outside 0..{self.values - 1}: {state.text()}")
        return self.recode[1 - state.player][cells]

    def indices(self, state: GameState) -> np.ndarray:
        """The weight indices (one per tuple) of an afterstate that is not over."""
        if state.is_over():
            raise ValueError(f"not an afterstate the features describe (the game is over): {state.text()}")
        return self.bases + self.board_codes(state)[self.cells] @ self.powers

    def turn_values(self, state: GameState, weights: np.ndarray) -> tuple[list[Turn], np.ndarray]:
        """Every turn of the player due and its afterstate's value for that player: the true value of a finished
        game, else the network's (:func:`~gpquarto.learned.models.generic_turn_values`, with the afterstates'
        indices looked up at once)."""
        mover = state.player
        turns: list[Turn] = []
        values: list[float] = []
        open_rows: list[int] = []
        rows: list[np.ndarray] = []
        for turn in iter_turns(state):
            final = terminal_value(state, mover)
            if final is None:
                open_rows.append(len(turns))
                rows.append(self.indices(state))
            turns.append(turn)
            values.append(0.0 if final is None else final)
        result = np.array(values)
        if rows:
            result[open_rows] = np.clip(np.tanh(weights[np.array(rows)].sum(axis=1)), -LIMIT, LIMIT)
        return turns, result


@functools.cache
def _encoders(plugin: GamePlugin) -> LearningEncoders:
    return LearningEncoders({BoardTuples.name: functools.partial(BoardTuples, plugin.name)}, default=BoardTuples.name)


def board_encoders(game: str) -> LearningEncoders:
    """The generic features of ``game`` (which offers ``Board``), as a ``LearningEncoders`` capability."""
    return _encoders(get_plugin(game))
