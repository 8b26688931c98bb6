"""Quarto's hints on the web server: the exact solver's verdict near the end of a game (the solver is quick from
the empty squares where hints start), the best actions as pieces and squares."""

from __future__ import annotations

from gpquarto.games.capabilities import VALUE_WORDS, HintService
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, action_name
from gpquarto.games.quarto.search.solver import hint as solver_hint
from gpquarto.web.sessions import RequestError


class QuartoHints(HintService):
    """See the module docstring; ``executor`` is unused (a hint takes milliseconds)."""

    def __init__(self, executor: object = None) -> None:
        self.executor = executor

    def hint(self, state: Board) -> dict:
        """The solver's verdict for the player to act, or ``solved: False`` when the position is too big to solve."""
        if state.is_over():
            raise RequestError("the game is over: no hint", status=409)
        result = solver_hint(state.copy())
        if isinstance(result, str):
            return {"solved": False, "text": result}
        actions = list(result.best_actions)
        return {
            "solved": True,
            "value": result.value,
            "best_actions": actions,
            "pieces": [action for action in actions if action < PLACE_OFFSET],
            "squares": [action - PLACE_OFFSET for action in actions if action >= PLACE_OFFSET],
            "text": f"{VALUE_WORDS[result.value]} with best play: " + ", ".join(action_name(a) for a in actions),
        }
