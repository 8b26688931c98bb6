"""The human Quixo player: you, at the terminal.

The board is drawn with its coordinates (columns a.., rows 1.., ``a1`` top left). A move is the border cube you
take and the end of its row or column where it goes back in: ``b1 bottom`` (also ``b1 to bottom``, ``b1 b``,
``b1b`` or the action's int). Type only the cube (``b1``) to hear where it may go back in. A move the rules do not
allow (an inner cube, the opponent's cube, pushing the cube back in where it was taken) is asked again with a
one-line reason. ``hint`` asks the exact solver on the 3x3 board and on a 4x4 board whose solution is cached,
else a short alpha-beta search; ``undo`` and ``quit`` work as in Quarto (:mod:`gpquarto.players.human`).

Example::

    >>> import io
    >>> from gpquarto.games import get_game
    >>> player = QuixoHumanPlayer(input_stream=io.StringIO("b2 top\\nb1 bottom\\n"), output_stream=io.StringIO())
    >>> get_game("quixo").new_state().action_name(player.decide(get_game("quixo").new_state().view()))
    'b1 to bottom'
"""

from __future__ import annotations

from typing import cast

from gpquarto.games.capabilities import VALUE_WORDS
from gpquarto.games.interface import GameView, IllegalActionError
from gpquarto.games.quixo.board import QuixoView
from gpquarto.games.quixo.notation import SYMBOLS, parse_action_text, parse_cell
from gpquarto.players.human import TerminalPlayer
from gpquarto.players.registry import register_player

#: The search that gives hints where the solver cannot.
HINT_DEPTH = 3


class QuixoHumanPlayer(TerminalPlayer):
    """You, at the terminal: the board is drawn, you type the cube you take and where it goes back in."""

    game = "quixo"

    def _opening(self, seat: int) -> str:
        return f"you play {SYMBOLS[seat]}, " + ("you move first" if seat == 0 else "your opponent moves first")

    def decide(self, view: GameView) -> int:
        self._start_decision(view)
        history = cast(QuixoView, view).history  # a Quixo player sees Quixo's view
        if history:
            self._say(f"Your opponent moved {view.copy().action_name(history[-1])}.")
        you = SYMBOLS[view.player]
        while True:
            answer = self._ask(f"Your move ({you}), a border cube and where it goes back in, e.g. 'b1 bottom': ")
            action, problem = self._read(view, answer)
            if problem:
                self._say(problem)
                continue
            return action

    def _read(self, view: GameView, answer: str) -> tuple[int, str]:
        """The legal action ``answer`` names, or a one-line reason why it names none."""
        size = view.size  # type: ignore[attr-defined]  # Quixo's view
        try:
            cell = parse_cell(size, answer)
        except ValueError:
            pass
        else:  # only a cube: say where it may go back in, or why it cannot be taken
            named = answer.strip().lower()
            ends = [view.action_name(a).split(" to ")[1] for a in view.legal_actions() if a // 4 == cell]
            if not ends:
                row, col = divmod(cell, size)
                if 0 < row < size - 1 and 0 < col < size - 1:
                    return -1, f"the cube at {named} is not on the border: take a cube at the edge"
                reasons = (self._why_not(view, action) for action in range(4 * cell, 4 * cell + 4))
                return -1, next(reason for reason in reasons if reason and "back in where" not in reason)
            listed = ", ".join(ends[:-1]) + " or " + ends[-1] if len(ends) > 1 else ends[0]
            return -1, f"the cube at {named} may go back in at the {listed}: type e.g. '{named} {ends[0]}'"
        try:
            action = parse_action_text(size, answer)
        except ValueError as error:
            return -1, str(error)
        problem = self._why_not(view, action)
        return (-1, problem) if problem else (action, "")

    @staticmethod
    def _why_not(view: GameView, action: int) -> str:
        """Why ``action`` is not legal now ("" when it is), as the rules say it."""
        trial = view.copy()
        try:
            trial.apply(action)
        except IllegalActionError as error:
            return str(error).replace(f"action {action} ", f"{view.action_name(action)}: ", 1)
        return ""

    def _hint(self) -> None:
        from gpquarto.games.quixo.search.alphabeta import QuixoSearch
        from gpquarto.games.quixo.search.solver import solution_path, solve

        board: QuixoView = self._board  # type: ignore[assignment]  # Quixo's view
        if board.size == 3 or (board.size == 4 and solution_path(4, board.rules.value).exists()):
            solution = solve(board.size, board.rules)
            value, _ = solution.lookup(board)
            best = ", ".join(board.action_name(action) for action in solution.best_actions(board))
            self._say(f"hint: {VALUE_WORDS[value]} with best play: {best}")
            return
        action = QuixoSearch(board.size, board.rules).search(board.copy(), HINT_DEPTH).action
        self._say(f"hint: alphabeta:depth={HINT_DEPTH} would play {board.action_name(action)} (not solved: too big)")


@register_player("human", game="quixo")
def quixo_human_player() -> QuixoHumanPlayer:
    """You, at the terminal: type the border cube you take and where it goes back in (b1 bottom)."""
    return QuixoHumanPlayer()
