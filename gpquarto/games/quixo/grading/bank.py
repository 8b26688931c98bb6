"""Quixo's grade bank (:class:`~gpquarto.games.capabilities.GradingBank`): positions from games between Quixo's
players, on the 3x3 or 4x4 board exact, on 5x5 tactical.

On the 3x3 and 4x4 boards (the solved ones; 4x4 unless told), 4 to 12 blank cubes (2 to 5 on 3x3), each position
is solved by the retrograde solution of the board, which also gives the best moves (the fastest win, the slowest
loss).

The 5x5 board is not solved: its bank is *tactical*. Each move of a position is proven to win, proven to lose or
left unknown within :data:`TACTICAL_PLIES` plies (my move, any reply, my move: a win in one, a block of the
opponent's win in one and a trap, after which every reply loses, are all seen; see
:func:`~gpquarto.games.quixo.search.tactics.proven_outcomes`). A position is kept only where the proofs separate
its moves: when a move wins by force, the moves that do (value 1; the best are the fastest); otherwise, when some
moves lose by force and others do not, the moves not proven lost (value 0, which here means *not lost within the
horizon*, not a proven draw). The labels are exact for what they claim, but a move not proven lost may still lose
beyond the horizon, and a move kept as a win may not be the fastest win there is. 5 to 17 blank cubes unless told.

A 5x5 bank of kind ``traps`` (``grade --game quixo --size 5 --bank traps``, the accuracy term's
``accuracy_bank``) holds only *traps*: positions where some move wins by force within :data:`TACTICAL_PLIES` plies
and none wins at once. It takes every position of games of :data:`TRAP_PAIRINGS` (any number of blank cubes unless
told), screens each with :func:`~gpquarto.games.quixo.search.tactics.trap_screen` (compiled with numba when it is
installed) and labels those that pass as the tactical bank does: the correct moves are the forced wins, the best
the fastest. A position whose labels show no forced win is not kept (the screen and the proofs agree, so none is
expected).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from gpquarto.games.capabilities import GradingBank
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.game import QUIXO
from gpquarto.games.quixo.search.solver import SOLVABLE_SIZES
from gpquarto.games.quixo.search.solver import solve as solve_board
from gpquarto.games.quixo.search.tactics import TRAP, proven_outcomes, trap_screen

#: The board a bank is made on unless told (the largest that the solver solves).
BANK_SIZE = 4
#: Blank cubes of a bank's positions unless told, on 4x4 and on 3x3.
DEFAULT_EMPTIES = (4, 12)
DEFAULT_3X3_EMPTIES = (2, 5)
#: Blank cubes of a tactical (5x5) bank's positions unless told.
DEFAULT_TACTICAL_EMPTIES = (5, 17)
#: The horizon of a tactical bank's proofs, in plies (the move itself counts as the first).
TACTICAL_PLIES = 3
#: The kind of 5x5 bank that holds only traps, and the games it takes them from (traps come up most often between
#: random players).
TRAPS = "traps"
TRAP_PAIRINGS = (("random", "random"),)
#: The values of a position for the side to move, as the grade bank stores them.
WIN, DRAW, LOSS = 1, 0, -1


@functools.cache
def _solution(size: int, rules: str):
    """The solution of the board, read (or solved) once per process."""
    return solve_board(size, rules)


class QuixoBank(GradingBank):
    """Quixo's bank: see the module docstring."""

    def settings(self, given: Mapping[str, object]) -> dict[str, object]:
        size = BANK_SIZE if given.get("size") is None else given["size"]
        checked = QUIXO.check_settings({"rules": given.get("rules") or QUIXO.rule_sets[0], "size": size})
        return {"rules": checked["rules"], "size": checked["size"]}

    def default_empties(self, settings: Mapping[str, object]) -> tuple[int, int]:
        if tactical(settings):
            return DEFAULT_TACTICAL_EMPTIES
        return DEFAULT_3X3_EMPTIES if settings["size"] == 3 else DEFAULT_EMPTIES

    def empties_limits(self, settings: Mapping[str, object]) -> tuple[int, int]:
        size = int(settings["size"])  # type: ignore[call-overload]  # the game checked the settings
        return 0, size * size - 1

    def key(self, settings: Mapping[str, object]) -> dict[str, object]:
        key = {"game": QUIXO.name, "size": settings["size"]}
        return {**key, "proof_plies": TACTICAL_PLIES} if tactical(settings) else key

    def describe(self, settings: Mapping[str, object]) -> str:
        words = f"{QUIXO.name} {settings['size']}x{settings['size']} {settings['rules']} rules"
        if tactical(settings):
            return f"{words}, tactical: moves proven to win or lose within {TACTICAL_PLIES} plies, not solved"
        return words

    def tag(self, settings: Mapping[str, object]) -> str:
        return f"{QUIXO.name}{settings['size']}x{settings['size']}"

    def kinds(self, settings: Mapping[str, object]) -> tuple[str, ...]:
        return (TRAPS,) if tactical(settings) else ()

    def kind_pairings(self, kind: str) -> tuple[tuple[str, str], ...]:
        return TRAP_PAIRINGS

    def describe_kind(self, kind: str, settings: Mapping[str, object]) -> str:
        words = f"{QUIXO.name} {settings['size']}x{settings['size']} {settings['rules']} rules"
        return (
            f"{words}, traps: a move wins by force within {TACTICAL_PLIES} plies, none at once (tactical, not solved)"
        )

    def screen(self, kind: str, states: list[QuixoBoard]) -> list[bool]:
        return [trap_screen(state) == TRAP for state in states]

    def solve_kind(self, kind: str, state: QuixoBoard) -> tuple[int, tuple[int, ...], int, tuple[int, ...]] | None:
        solved = tactical_solve(state)
        return solved if solved[0] == WIN else None

    def legend(self, settings: Mapping[str, object]) -> tuple[str, str, str]:
        if not tactical(settings):
            return super().legend(settings)
        return (
            f"share of decisions that take a move proven to win within {TACTICAL_PLIES} plies where there is one, "
            "else a move not proven to lose (tactical, not exact)",
            "the fastest proven win",
            "won thrown: a proven win missed; draw lost: a move proven to lose",
        )

    def solve(self, state: QuixoBoard) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
        if state.size not in SOLVABLE_SIZES:
            return tactical_solve(state)
        solution = _solution(state.size, state.rules.value)
        values = solution.action_values(state)
        value = max(value for value, _ in values.values())
        keep = tuple(action for action, (kept, _) in values.items() if kept == value)
        return value, keep, len(values), tuple(solution.best_actions(state))


def tactical(settings: Mapping[str, object]) -> bool:
    """Whether a bank with these settings is tactical (a board the solver does not solve)."""
    return settings["size"] not in SOLVABLE_SIZES


def tactical_solve(state: QuixoBoard, plies: int = TACTICAL_PLIES) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
    """A tactical bank's :meth:`QuixoBank.solve` of ``state``: (1, the moves proven to win, their number of legal
    moves, the fastest of them) when a move wins by force within ``plies`` plies; else (0, the moves not proven to
    lose, ...), the best being those same moves; (-1, every move, ...) when every move loses by force. The value 0
    means *not lost within the horizon*: see the module docstring."""
    outcomes = proven_outcomes(state, plies)
    legal = tuple(outcomes)
    wins = {action: outcome for action, outcome in outcomes.items() if outcome > 0}
    if wins:
        fastest = min(wins.values())
        return WIN, tuple(wins), len(legal), tuple(action for action, plies in wins.items() if plies == fastest)
    kept = tuple(action for action in legal if outcomes[action] == 0)
    if not kept:
        return LOSS, legal, len(legal), legal
    return DRAW, kept, len(legal), kept


BANK = QuixoBank()
