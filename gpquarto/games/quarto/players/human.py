"""Quarto's human player: you, at the terminal.

The board is drawn with its coordinates (columns a-d, rows 1-4) and each piece as ``hex:CODE``, where the
four-letter code reads T/S tall/short, D/L dark/light, O/H solid/hollow, Q/R square/round. Type squares as
``a1``..``d4`` or ``0``..``15`` and pieces as a hex digit (``0``..``F``) or a code (``TDOQ``). A bad answer
is asked again with a one-line reason. ``hint`` asks the exact solver (from 10 empty squares on), ``undo``
takes back your last decision, ``quit`` (or the end of the input) leaves the game (see
:class:`~gpquarto.players.human.TerminalPlayer`).

Example::

    >>> import io
    >>> from gpquarto.games.quarto import Board
    >>> player = HumanPlayer(input_stream=io.StringIO("TDOQ\\n"), output_stream=io.StringIO())
    >>> player.choose_piece(Board().view())
    15
"""

from __future__ import annotations

from typing import cast

from gpquarto.games.capabilities import VALUE_WORDS
from gpquarto.games.quarto.board import PLACE_OFFSET, BoardView
from gpquarto.games.quarto.lines import parse_square, square_name
from gpquarto.games.quarto.pieces import describe_piece, parse_piece
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.search.solver import hint
from gpquarto.players.human import TerminalPlayer
from gpquarto.players.registry import register_player


def _describe_action(action: int) -> str:
    if action >= PLACE_OFFSET:
        return f"place on {square_name(action - PLACE_OFFSET)}"
    return f"give {describe_piece(action)}"


class HumanPlayer(TerminalPlayer, QuartoPlayer):
    """You, at the terminal: the board is drawn, you type pieces and squares."""

    def _opening(self, seat: int) -> str:
        return "you choose the first piece" if seat == 0 else "your opponent chooses the first piece"

    def _hint(self) -> None:
        result = hint(cast(BoardView, self._board))  # a Quarto player sees Quarto's view
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


@register_player("human")
def human_player() -> HumanPlayer:
    """You, at the terminal: type pieces (hex digit or code such as TDOQ) and squares (a1..d4)."""
    return HumanPlayer()
