"""Quarto's grade bank (:class:`~gpquarto.games.capabilities.GradingBank`): positions from games between its zoo
players, 6 to 10 empty squares unless told, solved by Quarto's exact solver (every action that keeps the value;
the solver does not rank them by distance). Its banks' files and cache keys keep the form they had before other
games existed."""

from __future__ import annotations

from collections.abc import Mapping

from gpquarto.games.capabilities import GradingBank
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search.solver import solve

#: The games positions are taken from: weak and stronger play, so that both sloppy and sharp endgames occur.
QUARTO_PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "novice"),
    ("novice", "minimax:depth=1"),
    ("minimax:depth=1", "frontier"),
    ("random", "random"),
)
#: Empty squares of a bank's positions unless told.
DEFAULT_EMPTIES = (6, 10)
#: Empty squares a bank may ask for: fewer leave no real decision, more take the solver minutes.
EMPTIES_LIMITS = (2, 12)


def solve_position(text: str) -> tuple[int, tuple[int, ...], int]:
    """(value, every optimal action, number of legal actions) of the Quarto position ``text``."""
    board = Board.from_text(text)
    result = solve(board)
    return result.value, result.best_actions, len(board.legal_actions())


class QuartoBank(GradingBank):
    """Quarto's bank: see the module docstring."""

    pairings = QUARTO_PAIRINGS
    knows_best = False
    names_game = False

    def settings(self, given: Mapping[str, object]) -> dict[str, object]:
        if "size" in given:
            raise ValueError("a Quarto bank has no size")
        unknown = sorted(set(given) - {"rules"})
        if unknown:
            raise ValueError(f"a Quarto bank has no setting {unknown[0]!r}")
        return {"rules": Rules(given.get("rules") or Rules.CLASSIC).value}

    def default_empties(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return DEFAULT_EMPTIES

    def empties_limits(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return EMPTIES_LIMITS

    def key(self, settings: Mapping[str, object]) -> dict[str, object]:
        return {}

    def describe(self, settings: Mapping[str, object]) -> str:
        return f"{settings['rules']} rules"

    def tag(self, settings: Mapping[str, object]) -> str:
        return ""

    def solve(self, state: Board) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
        value, best, legal = solve_position(state.text())
        return value, best, legal, ()


BANK = QuartoBank()
