"""Quarto's GP binding: rule kinds ``choose`` (-> ``Piece``) and ``place`` (-> ``Square``), :class:`Features`.

See :mod:`gpquarto.gp.binding`. Quarto's rule set is :class:`~gpquarto.games.quarto.gp.rule_set.RuleSet`, written for Quarto's
two decisions (the evolution's hot path), and its player :class:`~gpquarto.games.quarto.gp.player.EvolvedPlayer`.
"""

from __future__ import annotations

import functools
import random

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.lines import Rules
from gpquarto.gp.binding import GPGame, pick
from gpquarto.gp.types import NO_ACTION, Characteristic, Piece, Square

CHOOSE, PLACE = DecisionKind.CHOOSE.value, DecisionKind.PLACE.value


def _random_position(rules: Rules, placed: int, choice_due: bool, seed: int) -> Board:
    """A position reached by random play with ``placed`` pieces down and no winner yet."""
    rng = random.Random(seed)
    while True:
        board = Board(rules)
        while not board.is_over():
            if board.placed_count == placed and board.choice_due == choice_due:
                return board
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])


@functools.cache
def sample_positions() -> tuple[Board, ...]:
    """The fixed positions every Quarto (and neutral) primitive is checked on (never mutate them): classic and
    advanced rules, early, middle and late game, a choice and a placement due, and one placement of the last piece."""
    positions = [
        _random_position(rules, placed, choice_due, seed=1000 * index + placed)
        for index, rules in enumerate(Rules)
        for placed in (0, 1, 6, 11)
        for choice_due in (True, False)
        if placed or choice_due  # nothing is placed before the first choice
    ]
    positions.append(_random_position(Rules.CLASSIC, 15, False, seed=15))
    return tuple(positions)


def child_samples(type_: type, features: Features) -> tuple[int, ...]:
    """``NO_ACTION`` and the first, middle and last empty square (``Square``) or available piece (``Piece``)."""
    legal = features.empty_squares if type_ is Square else features.available_pieces
    picked = [NO_ACTION] + ([legal[0], legal[len(legal) // 2], legal[-1]] if legal else [])
    return tuple(dict.fromkeys(picked))


def wrong_value(type_: type, value: int, features: Features) -> str | None:
    """Why a ``Square``/``Piece``/``Characteristic`` value is not acceptable in the position, or None."""
    if type_ is Square and value != NO_ACTION and not features.is_legal_square(value):
        return f"returned square {value}, which is neither an empty square nor NO_ACTION (-1)"
    if type_ is Piece and value != NO_ACTION and not features.is_legal_piece(value):
        return f"returned piece {value}, which is neither an available piece nor NO_ACTION (-1)"
    if type_ is Characteristic and not 0 <= value < 8:
        return f"returned characteristic {value}, outside 0..7"
    return None


def is_legal(features: Features, kind: str, value: int) -> bool:
    """A piece to give is available, a square to fill is empty."""
    if kind == CHOOSE:
        return features.is_legal_piece(value)
    return features.is_legal_square(value)


def fallback(view: BoardView, kind: str, rng: random.Random) -> int:
    """A random available piece or empty square (one draw of ``rng``, as :class:`~gpquarto.games.quarto.gp.rule_set.RuleSet`)."""
    return pick(view.legal_pieces() if kind == CHOOSE else view.legal_squares(), rng)


def to_action(view: BoardView, kind: str, value: int) -> int:
    """A piece is its own action; a square ``s`` is the action ``16 + s``."""
    return value if kind == CHOOSE else PLACE_OFFSET + value


QUARTO_GP = GPGame(
    name="quarto",
    kinds=(CHOOSE, PLACE),
    then_types={CHOOSE: Piece, PLACE: Square},
    features=Features,
    node_types=(Square, Piece, Characteristic),
    family_package="gpquarto.games.quarto.primitives",
    sample_positions=sample_positions,
    child_samples=child_samples,
    wrong_value=wrong_value,
    is_legal=is_legal,
    fallback=fallback,
    to_action=to_action,
    rule_set_class="gpquarto.games.quarto.gp.rule_set:RuleSet",
    player_class="gpquarto.games.quarto.gp.player:EvolvedPlayer",
    action_bound=16,
)
