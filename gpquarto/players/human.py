"""The human player at the terminal, for every game.

:class:`TerminalPlayer` is what every human player at the terminal shares: the board drawn at each decision, and a
prompt that understands ``hint``, ``undo`` (raising :class:`TakeBack`) and ``quit`` (or the end of the input,
raising :class:`QuitGame`). :class:`ActionHumanPlayer` is the ``human`` of a game without its own: the legal moves
listed by name, one typed back. Quarto's and Quixo's humans (pieces and squares; a cube and an end) live in
their game folders.

Example::

    >>> import io
    >>> from gpquarto.games import get_game
    >>> player = ActionHumanPlayer(input_stream=io.StringIO("place a1\\n"), output_stream=io.StringIO())
    >>> state = get_game("quarto").new_state()
    >>> state.apply(5)
    >>> player.decide(state.view())
    16
"""

from __future__ import annotations

import sys
from typing import TextIO

from gpquarto.games.capabilities import VALUE_WORDS
from gpquarto.games.drawing import text_drawing
from gpquarto.games.interface import GameView
from gpquarto.players.base import BasePlayer, PlayerQuit
from gpquarto.players.registry import register_player

QUIT_WORDS = ("quit", "q", "exit")
UNDO_WORDS = ("undo", "u")
HINT_WORDS = ("hint", "h", "?")


class QuitGame(PlayerQuit):
    """The human left the game (typed ``quit`` or closed the input); the arena stops instead of forfeiting."""


class TakeBack(PlayerQuit):
    """The human typed ``undo``: the game is to go back to the human's previous decision (the position text
    is :attr:`HumanPlayer.positions` ``[-2]``); ``gpquarto play`` restarts the game from there."""


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
        from gpquarto.search.exact import NoHint, exact_hint, hint_solver

        board = self._board
        assert board is not None
        try:
            solution = exact_hint(board, hint_solver(get_plugin(board.game_name)))
        except NoHint as error:
            self._say(f"no hint here: {error}" if error.beyond else f"no hint yet: {error}")
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
