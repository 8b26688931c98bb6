"""A cheap screen for Quixo's trap positions: does some move win by force within three plies, none at once?

:func:`screen` answers, for one position, what :func:`~gpquarto.games.quixo.search.tactics.proven_outcomes` at
three plies would show of it: :data:`WIN_IN_ONE` when a move wins at once, :data:`TRAP` when none does but some
move wins by force within three plies (my move, any reply, my move), else :data:`NOTHING`. It follows the same
rules along each line of play (official or course rules, the repetition draw counted on the game's positions since
the last blank cube was taken and on the path, the ply limit), so the two agree on every position; it only asks
whether a forced win exists, and stops at the first.

With numba installed it is compiled, with numba's cache on disk; :func:`pure` gives the same function run by the
interpreter (the screen without numba, and the tests that compare the two). This module is imported on the first
screen, so that the processes which only play do not carry numba.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from gpquarto.games.quixo.tables import mask_has_line

try:
    import numba
except ImportError:  # pragma: no cover - depends on the installed extras
    COMPILED = False
else:
    COMPILED = True  #: Whether the screen is compiled (numba is installed).

#: What :func:`screen` says of a position.
NOTHING, WIN_IN_ONE, TRAP = 0, 1, 2


def _jit(function: Callable[..., Any]) -> Any:
    return numba.njit(cache=True)(function) if COMPILED else function


#: :func:`~gpquarto.games.quixo.tables.mask_has_line`, compiled with the screen's other helpers.
_has_line = _jit(mask_has_line)


@_jit
def _result(own, other, course, n, lines, masks):
    """1 when the mover (whose cubes are now ``own``) has won, -1 lost, 0 no line complete."""
    if course:
        for line in lines:
            if (own & line) == line:
                return 1
            if (other & line) == line:
                return -1
        return 0
    if _has_line(other, n, masks[0], masks[1], masks[2], masks[3]):
        return -1
    if _has_line(own, n, masks[0], masks[1], masks[2], masks[3]):
        return 1
    return 0


@_jit
def _play(own, other, push, action):
    """The masks (the mover's, the other's) after the mover plays ``action``."""
    keep, moved, left, right, dest = push[action][0], push[action][1], push[action][2], push[action][3], push[action][4]
    return (own & keep) | (((own & moved) << left) >> right) | dest, (other & keep) | (
        ((other & moved) << left) >> right
    )


@_jit
def _occurrences(window, key):
    count = 0
    for seen in window:
        if seen == key:
            count += 1
    return count


@_jit
def screen(own, other, player, plies_left, repetitions, window, n, course, actions, push, lines, masks):
    """:data:`WIN_IN_ONE`, :data:`TRAP` or :data:`NOTHING` (see the module docstring) for the position whose side
    to move (``player``, 0 or 1) has the cubes ``own`` and its opponent ``other``, with ``plies_left`` plies before
    the ply limit, the ``repetitions``-th occurrence a draw and ``window`` the keys of the game's positions since the
    last blank cube was taken (as :func:`~gpquarto.games.quixo.playout.repetition_window` gives them). ``actions``,
    ``push``, ``lines`` and ``masks`` are the board's tables as :mod:`gpquarto.games.quixo.compiled` lays them out."""
    cells = n * n
    for action in actions:
        if (other >> (action >> 2)) & 1:
            continue
        own2, other2 = _play(own, other, push, action)
        if _result(own2, other2, course, n, lines, masks) > 0:
            return WIN_IN_ONE
    if plies_left <= 1:
        return NOTHING  # every move that does not win at once reaches the ply limit: a draw
    me_key = player << (2 * cells)
    them_key = (1 - player) << (2 * cells)
    for action in actions:
        if (other >> (action >> 2)) & 1:
            continue
        own2, other2 = _play(own, other, push, action)
        if _result(own2, other2, course, n, lines, masks) != 0:
            continue  # a loss at once (a win was returned above)
        key1 = other2 | (own2 << cells) | them_key
        if _occurrences(window, key1) + 1 >= repetitions:
            continue  # a repetition: a draw
        refuted = False
        for reply in actions:  # the opponent (other2) moves: every reply must lose for the move to win
            if (own2 >> (reply >> 2)) & 1:
                continue
            them3, me3 = _play(other2, own2, push, reply)
            outcome = _result(them3, me3, course, n, lines, masks)
            if outcome < 0:
                continue  # the reply completes the mover's line: it loses
            if outcome > 0 or plies_left <= 2:
                refuted = True  # the reply wins, or reaches the ply limit (a draw)
                break
            key2 = me3 | (them3 << cells) | me_key
            if _occurrences(window, key2) + (1 if key2 == key1 else 0) + 1 >= repetitions:
                refuted = True  # a repetition: a draw
                break
            wins = False
            for last in actions:  # my move again: a win at once answers the reply
                if (them3 >> (last >> 2)) & 1:
                    continue
                me4, them4 = _play(me3, them3, push, last)
                if _result(me4, them4, course, n, lines, masks) > 0:
                    wins = True
                    break
            if not wins:
                refuted = True
                break
        if not refuted:
            return TRAP
    return NOTHING


def _interpreted(function: Any) -> Callable[..., Any]:
    return getattr(function, "py_func", function)  # a plain function when numba is absent or NUMBA_DISABLE_JIT is set


_HELPERS = ("_has_line", "_result", "_play", "_occurrences")
#: The module's names as the interpreted screen sees them: each helper is its Python function, calling the others'.
_PURE_NAMES: dict[str, Any] = dict(globals())
for _name in _HELPERS:
    _function = _interpreted(_PURE_NAMES[_name])
    _PURE_NAMES[_name] = types.FunctionType(_function.__code__, _PURE_NAMES, _function.__name__, _function.__defaults__)


def pure() -> Callable[..., Any]:
    """:func:`screen` run by the interpreter, with its helpers too."""
    function = _interpreted(screen)
    return types.FunctionType(function.__code__, _PURE_NAMES, function.__name__, function.__defaults__)
