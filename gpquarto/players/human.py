"""The human player: you, at the terminal.

The board is drawn with its coordinates (columns a-d, rows 1-4) and each piece as ``hex:CODE``, where the
four-letter code reads T/S tall/short, D/L dark/light, O/H solid/hollow, Q/R square/round. Type squares as
``a1``..``d4`` or ``0``..``15`` and pieces as a hex digit (``0``..``F``) or a code (``TDOQ``). A bad answer
is asked again with a one-line reason. ``hint`` asks the exact solver (from 10 empty squares on), ``undo``
takes back your last decision (raising :class:`TakeBack`), ``quit`` (or the end of the input) leaves the
game by raising :class:`QuitGame`.

Example::

    >>> import io
    >>> from gpquarto import Board
    >>> player = HumanPlayer(input_stream=io.StringIO("TDOQ\\n"), output_stream=io.StringIO())
    >>> player.choose_piece(Board().view())
    15
"""

from __future__ import annotations

import sys
from typing import TextIO

from gpquarto.games.capabilities import VALUE_WORDS
from gpquarto.games.drawing import text_drawing
from gpquarto.games.interface import GameView
from gpquarto.games.quarto.board import PLACE_OFFSET, BoardView
from gpquarto.games.quarto.lines import parse_square, square_name
from gpquarto.games.quarto.pieces import describe_piece, parse_piece
from gpquarto.players.base import BasePlayer, PlayerQuit, QuartoPlayer
from gpquarto.players.registry import register_player
from gpquarto.search.solver import hint

QUIT_WORDS = ("quit", "q", "exit")
UNDO_WORDS = ("undo", "u")
HINT_WORDS = ("hint", "h", "?")


class QuitGame(PlayerQuit):
    """The human left the game (typed ``quit`` or closed the input); the arena stops instead of forfeiting."""


class TakeBack(PlayerQuit):
    """The human typed ``undo``: the game is to go back to the human's previous decision (the position text
    is :attr:`HumanPlayer.positions` ``[-2]``); ``gpquarto play`` restarts the game from there."""


def _describe_action(action: int) -> str:
    if action >= PLACE_OFFSET:
        return f"place on {square_name(action - PLACE_OFFSET)}"
    return f"give {describe_piece(action)}"


class TerminalPlayer(BasePlayer):
    """What every human player at the terminal shares, whatever the game: the streams, the greeting, the board
    drawn at each decision, and the prompt that understands ``hint``, ``undo`` and ``quit``. A game's human
    player writes its decisions, :meth:`_opening` and :meth:`_hint`."""

    name = "human"
    interactive = True  # matches and tournaments refuse it: they run with nobody at the terminal

    def __init__(self, input_stream: TextIO | None = None, output_stream: TextIO | None = None) -> None:
        self._input = input_stream
        self._output = output_stream
        #: The position text at each of this player's decisions, oldest first (``undo`` goes back to them).
        self.positions: list[str] = []
        self._board: GameView | None = None
        self._greeted = False

    # ------------------------------------------------------------------ the protocol
    def new_game(self, seat: int) -> None:
        if self._greeted:
            return  # the same game, taken back to an earlier decision
        self._greeted = True
        self._say(
            f"New game: you are player {seat} ({self._opening(seat)}). Type 'hint', 'undo' or 'quit' at any prompt."
        )

    def _opening(self, seat: int) -> str:
        """Who opens the game, as the greeting says it."""
        return "you move first" if seat == 0 else "your opponent moves first"

    def _hint(self) -> None:
        """Say what perfect (or good) play would do in the position of the decision due."""
        self._say("no hints in this game")

    # ------------------------------------------------------------------ terminal input and output
    def _start_decision(self, board: GameView) -> None:
        self._board = board
        self.positions.append(board.text())
        self._show(board)

    def _show(self, board: GameView) -> None:
        self._say("")
        self._say(str(board))

    def _say(self, text: str) -> None:
        output = self._output if self._output is not None else sys.stdout
        print(text, file=output, flush=True)

    def _ask(self, prompt: str) -> str:
        """One line of input; raises :class:`QuitGame` on ``quit`` or at the end of the input."""
        output = self._output if self._output is not None else sys.stdout
        stream = self._input if self._input is not None else sys.stdin
        print(prompt, end="", file=output, flush=True)
        line = stream.readline()
        if not line:
            print(file=output, flush=True)
            raise QuitGame("end of input")
        answer = line.strip()
        if answer.lower() in QUIT_WORDS:
            raise QuitGame("quit")
        if answer.lower() in HINT_WORDS and self._board is not None:
            self._hint()
            return self._ask(prompt)
        if answer.lower() in UNDO_WORDS:
            if len(self.positions) < 2:
                self._say("nothing to undo yet: this is your first decision")
                return self._ask(prompt)
            raise TakeBack("undo")
        return answer


class HumanPlayer(TerminalPlayer, QuartoPlayer):
    """You, at the terminal: the board is drawn, you type pieces and squares."""

    def _opening(self, seat: int) -> str:
        return "you choose the first piece" if seat == 0 else "your opponent chooses the first piece"

    def _hint(self) -> None:
        result = hint(self._board)
        if isinstance(result, str):
            self._say(result)
            return
        best = ", ".join(_describe_action(action) for action in result.best_actions)
        self._say(f"hint: {VALUE_WORDS[result.value]} with best play: {best}")

    def choose_piece(self, board: BoardView) -> int:
        self._start_decision(board)
        self._say("Available pieces:")
        for piece in board.legal_pieces():
            self._say(f"  {describe_piece(piece)}")
        while True:
            answer = self._ask("Choose a piece for your opponent (hex digit or code): ")
            try:
                piece = parse_piece(answer)
            except ValueError as error:
                self._say(str(error))
                continue
            if piece not in board.legal_pieces():
                self._say(f"piece {describe_piece(piece)} is already used; choose one of the available pieces")
                continue
            return piece

    def place_piece(self, board: BoardView, piece: int) -> int:
        self._start_decision(board)
        history = board.history
        if len(history) >= 2 and history[-2] >= PLACE_OFFSET:
            square = history[-2] - PLACE_OFFSET
            self._say(f"Your opponent placed {describe_piece(board.piece_at(square))} on {square_name(square)}.")
        while True:
            answer = self._ask(f"Place piece {describe_piece(piece)} on a square, a1..d4 or 0..15: ")
            try:
                square = parse_square(answer)
            except ValueError as error:
                self._say(str(error))
                continue
            if board.piece_at(square) != -1:
                self._say(f"square {square_name(square)} is occupied by {describe_piece(board.piece_at(square))}")
                continue
            return square


#: The most positions the exact solver visits for one ``hint`` of a game without its own hints.
HINT_NODES = 200_000


class ActionHumanPlayer(TerminalPlayer):
    """You, at the terminal, in any game: the position is drawn (:func:`~gpquarto.games.drawing.text_drawing`),
    the legal actions listed by name, and you type one (its name, or its number with ``#``: ``#3``); ``hint``
    asks the game's exact solver (the generic one within a budget of positions)."""

    game = None

    def _show(self, board: GameView) -> None:
        self._say("")
        self._say(text_drawing(board))

    def _hint(self) -> None:
        from gpquarto.games.registry import get_plugin
        from gpquarto.search.exact import GenericSolver, exact_solver

        board = self._board
        assert board is not None
        solver = exact_solver(get_plugin(board.game_name))
        solver = GenericSolver(HINT_NODES) if isinstance(solver, GenericSolver) else solver
        why = solver.why_not(board)
        if why is not None:
            self._say(f"no hint here: {why}")
            return
        try:
            solution = solver.solve(board.copy())
        except ValueError as error:
            self._say(f"no hint yet: {error}")
            return
        best = ", ".join(board.action_name(action) for action in solution.best_actions)
        self._say(f"hint: {VALUE_WORDS[solution.value]} with best play: {best}")

    def decide(self, view: GameView) -> int:
        self._start_decision(view)
        legal = view.legal_actions()
        self._say("Your moves: " + ", ".join(view.action_name(action) for action in legal))
        while True:
            answer = self._ask("Your move: ")
            try:
                action = view.parse_action(answer[1:] if answer.startswith("#") else answer)
            except ValueError as error:
                self._say(str(error))
                continue
            if action not in legal:
                self._say(f"{view.action_name(action)} is not a legal move now")
                continue
            return action


@register_player("human", game=None)
def any_human_player() -> ActionHumanPlayer:
    """You, at the terminal, in any game: type a move by its name (the legal ones are listed)."""
    return ActionHumanPlayer()


@register_player("human")
def human_player() -> HumanPlayer:
    """You, at the terminal: type pieces (hex digit or code such as TDOQ) and squares (a1..d4)."""
    return HumanPlayer()
