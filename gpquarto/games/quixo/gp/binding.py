"""Quixo's GP binding: one rule kind, ``move`` (-> ``Move``), over :class:`~gpquarto.games.quixo.gp.features.QuixoFeatures`.

See :mod:`gpquarto.gp.binding`. Quixo's built-in primitives are the family modules listed in
``gpquarto.games.quixo.primitives.FAMILY_MODULES`` (the folder ``gpquarto/games/quixo/primitives/``). A Quixo rule set decides by
the first rule whose *if* holds and whose *then* is a legal action, else a counted random legal action
(:class:`~gpquarto.gp.genome.GameRuleSet`); its player is :class:`~gpquarto.gp.player.RulePlayer`.
"""

from __future__ import annotations

import functools
import random

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quixo.board import QuixoBoard, QuixoRules, QuixoView
from gpquarto.games.quixo.gp.features import QuixoFeatures
from gpquarto.games.quixo.tables import tables
from gpquarto.gp.binding import GPGame, pick
from gpquarto.gp.types import NO_ACTION, Move

MOVE = DecisionKind.MOVE.value
#: Plies of random play to the early, middle and late sample positions.
SAMPLE_PLIES = (0, 1, 8, 30)


def _random_position(size: int, rules: QuixoRules, plies: int, seed: int) -> QuixoBoard:
    """The position after ``plies`` random moves from the empty board, the game still on (seeded)."""
    rng = random.Random(seed)
    while True:
        board = QuixoBoard(size, rules)
        while not board.is_over() and len(board.history) < plies:
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])
        if not board.is_over():
            return board


def winning_moves(board: QuixoBoard) -> tuple[int, ...]:
    """The mover's legal moves that win at once (under the board's rules)."""
    table = tables(board.size)
    own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
    course = board.rules is QuixoRules.COURSE
    return tuple(
        action for action in board.legal_actions() if table.mover_result(*table.play(own, other, action), course) == 1
    )


def _before_a_win(size: int, rules: QuixoRules, seed: int) -> QuixoBoard:
    """A position of random play where the mover has a winning move (seeded)."""
    rng = random.Random(seed)
    while True:
        board = QuixoBoard(size, rules)
        while not board.is_over():
            if winning_moves(board):
                return board
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])


@functools.cache
def sample_positions() -> tuple[QuixoBoard, ...]:
    """The fixed positions every Quixo primitive is checked on (never mutate them): 5x5 and 4x4, official and
    course rules, the empty board, one move in, middle and late game, and on each board one position where the
    mover can win at once. Built from fixed seeds."""
    positions = []
    for size_index, size in enumerate((5, 4)):
        for rules_index, rules in enumerate(QuixoRules):
            base = 1000 * size_index + 100 * rules_index
            positions += [_random_position(size, rules, plies, base + plies) for plies in SAMPLE_PLIES]
            positions.append(_before_a_win(size, rules, base + 99))
    return tuple(positions)


def child_samples(type_: type, features: QuixoFeatures) -> tuple[int, ...]:
    """``NO_ACTION`` and the first, middle and last legal move."""
    legal = features.legal_moves
    picked = [NO_ACTION] + ([legal[0], legal[len(legal) // 2], legal[-1]] if legal else [])
    return tuple(dict.fromkeys(picked))


def wrong_value(type_: type, value: int, features: QuixoFeatures) -> str | None:
    """Why a ``Move`` value is not acceptable in the position (neither legal nor ``NO_ACTION``), or None."""
    if type_ is Move and value != NO_ACTION and not features.is_legal_move(value):
        return f"returned move {value}, which is neither a legal move nor NO_ACTION (-1)"
    return None


def is_legal(features: QuixoFeatures, kind: str, value: int) -> bool:
    """A legal move of the mover."""
    return value in features.legal_move_set


def fallback(view: QuixoView, kind: str, rng: random.Random) -> int:
    """A random legal move (one draw of ``rng``)."""
    return pick(view.legal_actions(), rng)


def to_action(view: QuixoView, kind: str, value: int) -> int:
    """A move is its own action."""
    return value


QUIXO_GP = GPGame(
    name="quixo",
    kinds=(MOVE,),
    then_types={MOVE: Move},
    features=QuixoFeatures,
    node_types=(Move,),
    family_package="gpquarto.games.quixo.primitives",
    sample_positions=sample_positions,
    child_samples=child_samples,
    wrong_value=wrong_value,
    is_legal=is_legal,
    fallback=fallback,
    to_action=to_action,
    rule_set_class="gpquarto.gp.genome:GameRuleSet",
    player_class="gpquarto.gp.player:RulePlayer",
    settings={"size": 5, "rules": QuixoRules.OFFICIAL.value},
)
