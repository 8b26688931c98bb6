"""Tic-tac-toe as a game plug-in written only from the game interface, for the tests: the smallest game whose
every value is known (a draw from the start), so generic search, the plug-in machinery and the commands can be
checked on a game that ships nothing but its rules.

Cells 0..8 row-major, ``a1`` top left; an action is the cell. Position text: the three rows separated by
``/`` (``X``, ``O`` or ``.``), a space and the side to move. Setting ``misere`` (bool): three in a row loses.
"""

from __future__ import annotations

from gpquarto.games.capabilities import Board
from gpquarto.games.interface import DecisionKind, IllegalActionError, Outcome, Termination
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.settings import Setting

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
#: The lines through each cell: a move can complete only those.
LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))
#: The 8 rotations and reflections, each as the cell every cell goes to.
SYMMETRIES = tuple(
    tuple(transform(row, col) for row in range(3) for col in range(3))
    for transform in (
        lambda r, c: 3 * r + c,
        lambda r, c: 3 * c + (2 - r),
        lambda r, c: 3 * (2 - r) + (2 - c),
        lambda r, c: 3 * (2 - c) + r,
        lambda r, c: 3 * r + (2 - c),
        lambda r, c: 3 * (2 - r) + c,
        lambda r, c: 3 * c + r,
        lambda r, c: 3 * (2 - c) + (2 - r),
    )
)
MARKS = "XO"


class TicTacToe:
    """The game: 9 actions, one decision kind, one setting (``misere``)."""

    name = "tictactoe"
    rule_sets = ("standard",)
    action_count = 9
    decision_kinds = (DecisionKind.MOVE,)

    def check_settings(self, settings: dict[str, object]) -> dict[str, object]:
        unknown = sorted(set(settings) - {"misere"})
        if unknown:
            raise ValueError(f"tictactoe has no setting {unknown[0]!r}")
        misere = settings.get("misere", False)
        if misere.__class__ is not bool:
            raise ValueError(f"misere must be true or false, got {misere!r}")
        return {"misere": misere}

    def new_state(self, **settings: object) -> TicTacToeState:
        return TicTacToeState(**self.check_settings(settings))  # type: ignore[arg-type]

    def from_text(self, text: str, **settings: object) -> TicTacToeState:
        rows, _, side = text.strip().partition(" ")
        cells = rows.split("/")
        if len(cells) != 3 or any(len(row) != 3 or set(row) - set("XO.") for row in cells):
            raise ValueError(f"expected three rows of X, O or '.', got {rows!r}")
        if side not in MARKS:
            raise ValueError(f"the side to move must be X or O, got {side!r}")
        state = TicTacToeState(**self.check_settings(settings))  # type: ignore[arg-type]
        state.cells = [" XO".index(mark) - 1 if mark != "." else -1 for mark in "".join(cells)]
        state.player = MARKS.index(side)
        if abs(state.cells.count(0) - state.cells.count(1)) > 1:
            raise ValueError("the marks of the two sides differ by more than one")
        state._settle()
        return state


GAME = TicTacToe()


class TicTacToeState:
    """A position and its history (the interface's ``GameState``)."""

    game_name = GAME.name

    def __init__(self, misere: bool = False) -> None:
        self.misere = misere
        self.cells = [-1] * 9
        self.player = 0
        self.history: tuple[int, ...] = ()
        self._outcome: Outcome | None = None

    def _settle(self, lines: tuple[tuple[int, int, int], ...] = LINES) -> None:
        """The outcome, from ``lines`` (after a move, the lines through it: no other one can have changed)."""
        self._outcome = None
        cells = self.cells
        for first, second, third in lines:
            owner = cells[first]
            if owner >= 0 and cells[second] == owner and cells[third] == owner:
                self._outcome = Outcome(Termination.WIN, 1 - owner if self.misere else owner)
                return
        if -1 not in cells:
            self._outcome = Outcome(Termination.DRAW)

    def legal_actions(self) -> list[int]:
        return [] if self._outcome else [cell for cell in range(9) if self.cells[cell] < 0]

    def decision_kind(self) -> DecisionKind:
        return DecisionKind.MOVE

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def apply(self, action: int) -> None:
        if action.__class__ is not int or not 0 <= action < 9 or self.cells[action] >= 0 or self._outcome:
            raise IllegalActionError(f"{action!r} is not a legal move in {self.text()}")
        self.cells[action] = self.player
        self.player = 1 - self.player
        self.history = (*self.history, action)
        self._settle(LINES_THROUGH[action])

    def undo(self) -> int:
        if not self.history:
            raise IllegalActionError("no move to take back")
        action = self.history[-1]
        self.cells[action] = -1
        self.player = 1 - self.player
        self.history = self.history[:-1]
        self._outcome = None  # the game went on after this position
        return action

    def text(self) -> str:
        marks = "".join("." if cell < 0 else MARKS[cell] for cell in self.cells)
        return f"{marks[0:3]}/{marks[3:6]}/{marks[6:9]} {MARKS[self.player]}"

    def action_name(self, action: int) -> str:
        return f"{'abc'[action % 3]}{action // 3 + 1}"

    def parse_action(self, text: str) -> int:
        word = str(text).strip().lower()
        names = {self.action_name(action): action for action in range(9)}
        if word in names:
            return names[word]
        if word.isdigit() and int(word) < 9:
            return int(word)
        raise ValueError(f"not a tic-tac-toe move: {text!r} (a cell a1..c3, or 0..8)")

    def canonical_key(self) -> tuple:
        return min(tuple(self.cells[image[cell]] for cell in range(9)) for image in SYMMETRIES) + (self.player,)

    def copy(self) -> TicTacToeState:
        twin = TicTacToeState(self.misere)
        twin.cells, twin.player, twin.history, twin._outcome = (
            list(self.cells),
            self.player,
            self.history,
            self._outcome,
        )
        return twin

    def view(self) -> TicTacToeView:
        return TicTacToeView(self)

    def forget_history(self) -> None:
        self.history = ()

    def settings(self) -> dict[str, object]:
        return {"misere": self.misere}


class TicTacToeView:
    """The read-only face of a state."""

    def __init__(self, state: TicTacToeState) -> None:
        self._state = state

    game_name = GAME.name

    @property
    def player(self) -> int:
        return self._state.player

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions()

    def decision_kind(self) -> DecisionKind:
        return DecisionKind.MOVE

    def is_over(self) -> bool:
        return self._state.is_over()

    def outcome(self) -> Outcome | None:
        return self._state.outcome()

    def text(self) -> str:
        return self._state.text()

    def action_name(self, action: int) -> str:
        return self._state.action_name(action)

    def parse_action(self, text: str) -> int:
        return self._state.parse_action(text)

    def canonical_key(self) -> tuple:
        return self._state.canonical_key()

    def copy(self) -> TicTacToeState:
        return self._state.copy()


class TicTacToeBoard(Board):
    """The 3x3 grid: 0 empty, 1 an X, 2 an O."""

    def shape(self, settings):
        return (3, 3)

    def cells(self, state):
        cells = state.cells if isinstance(state, TicTacToeState) else state._state.cells  # a state or its view
        return tuple(cell + 1 for cell in cells)


BOARD = TicTacToeBoard()

PLUGIN = GamePlugin(
    game=GAME,
    title="Tic-tac-toe",
    summary="three in a row",
    settings=(Setting("misere", bool, False, help="three in a row loses"),),
    capabilities={Board: "tests.tictactoe:BOARD"},
)
