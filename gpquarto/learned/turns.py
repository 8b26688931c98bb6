"""Turns and afterstates, for any game of the interface.

A *turn* is the sequence of actions one player makes before the other is due (Quarto: place then choose, or
only choose at the start; Quixo: one move). The *afterstate* of a turn is the position it leaves: the
learners value afterstates, from the point of view of the player who made the turn, and a learned player
takes the turn whose afterstate it values most.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from gpquarto.games.interface import GameState

#: Values beyond this (in absolute value) are kept just inside, so that a won game (exactly 1) always ranks
#: above any position that is not won yet.
LIMIT = 1.0 - 1e-9

Turn = tuple[int, ...]


def turn_ends(state: GameState, mover: int) -> bool:
    """True when ``mover``'s turn is over in ``state`` (the game ended, or the other player is due)."""
    return state.is_over() or state.player != mover


def iter_turns(state: GameState) -> Generator[Turn, None, None]:
    """Every turn of the player due in ``state``, in ascending order of its actions; ``state`` is left as it
    was, also when the caller stops early (close the generator, or let it go). While a turn is yielded,
    ``state`` holds its afterstate (read it before asking for the next)."""
    mover = state.player
    stack: list[int] = []

    def walk() -> Iterator[Turn]:
        for action in state.legal_actions():
            state.apply(action)
            stack.append(action)
            try:
                if turn_ends(state, mover):
                    yield tuple(stack)
                else:
                    yield from walk()
            finally:  # also when the caller stops early: the state is always given back as it was
                stack.pop()
                state.undo()

    yield from walk()


def terminal_value(state: GameState, mover: int) -> float | None:
    """The value of a finished game for ``mover`` on the learners' scale (+1 win, 0 draw, -1 loss), or None
    while the game goes on."""
    outcome = state.outcome()
    if outcome is None:
        return None
    return 2.0 * outcome.score(mover) - 1.0
