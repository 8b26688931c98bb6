"""Lookahead: the opponent's replies to each move, one turn deep (two for trap-proof moves). Leave the family out with
``lookahead=False``.

A move is *safe* when it wins at once, or does not lose and leaves the opponent no winning reply. Each fact
plays the mover's move and tries the opponent's replies that could complete one of its lines (see
:mod:`gpquarto.games.quixo.gp.features` for why the others cannot). A *trap* looks one step further, as Quarto's
``trap_square`` does: a safe move, not winning at once, after which every reply of the opponent loses at once or
leaves the mover a winning move (three plies in all: the mover's next move is only asked whether it wins at once).
A *trap-proof* move is a safe move that wins or after which the opponent has no trap: two turns
(``opponent_trap_threat`` asks whether the opponent has one now). ``new_trap_proof_move`` and
``is_new_position_move`` read the game's history too: the moves reaching a position not seen yet in the game, so that a
player keeping to them is not drawn by its own repetitions. None searches deeper.
"""

from __future__ import annotations

from gpquarto.games.quixo.gp.features import QuixoFeatures, lowest
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Count, Move

FAMILY = "quixo_lookahead"


@primitive
def safe_move(features: QuixoFeatures) -> Move:
    """A move after which the opponent cannot win at once (or that wins)."""
    return lowest(features.safe_moves)


@primitive
def blocking_move(features: QuixoFeatures) -> Move:
    """When the opponent threatens to win, a move after which it no longer can (NO_ACTION without a threat)."""
    if not features.threats:
        return NO_ACTION
    return lowest(features.safe_moves)


@primitive
def safe_longest_line_move(features: QuixoFeatures) -> Move:
    """The safe move after which the mover's longest line is longest."""
    return features.safe_longest_line_move


@primitive
def safe_potential_move(features: QuixoFeatures) -> Move:
    """The safe move leaving the best line potential."""
    return features.safe_potential_move


@primitive
def fewest_replies_move(features: QuixoFeatures) -> Move:
    """A winning move, else the move that does not lose at once and leaves the opponent the fewest winning replies."""
    return features.fewest_replies_move


@primitive
def is_safe_move(features: QuixoFeatures, move: Move) -> bool:
    """The proposed move is safe: the opponent cannot win at once after it (or it wins)."""
    return move in features.safe_move_set


@primitive
def safe_move_exists(features: QuixoFeatures) -> bool:
    """Some move is safe."""
    return bool(features.safe_moves)


@primitive
def safe_moves_count(features: QuixoFeatures) -> Count:
    """How many moves are safe."""
    return len(features.safe_moves)


@primitive
def first_safe_move(features: QuixoFeatures, a: Move, b: Move) -> Move:
    """The first move if it is safe, else the second."""
    return a if a in features.safe_move_set else b


@primitive
def trap_move(features: QuixoFeatures) -> Move:
    """A move after which every reply of the opponent leaves the mover a winning move."""
    return features.trap_move


@primitive
def trap_exists(features: QuixoFeatures) -> bool:
    """Some move sets a trap: the mover wins next turn whatever the opponent replies."""
    return features.trap_move != NO_ACTION


@primitive
def opponent_trap_threat(features: QuixoFeatures) -> bool:
    """The opponent would have a trap if it were its turn now."""
    return features.opponent_trap_threat


@primitive
def trap_proof_move(features: QuixoFeatures) -> Move:
    """A safe move after which the opponent has no trap (or that wins)."""
    return features.trap_proof_move


@primitive
def trap_proof_potential_move(features: QuixoFeatures) -> Move:
    """The trap-proof move leaving the best line potential."""
    return features.trap_proof_potential_move


@primitive
def trap_proof_longest_line_move(features: QuixoFeatures) -> Move:
    """The trap-proof move after which the mover's longest line is longest."""
    return features.trap_proof_longest_line_move


@primitive
def is_trap_proof_move(features: QuixoFeatures, move: Move) -> bool:
    """The proposed move is safe and leaves the opponent no trap (or wins)."""
    return move != NO_ACTION and features.is_trap_proof(move)


@primitive
def trap_proof_exists(features: QuixoFeatures) -> bool:
    """Some move is safe and leaves the opponent no trap."""
    return features.trap_proof_move != NO_ACTION


@primitive
def new_trap_proof_move(features: QuixoFeatures) -> Move:
    """The trap-proof move leaving the best line potential among those reaching a position not seen in the game."""
    return features.new_trap_proof_move


@primitive
def is_new_position_move(features: QuixoFeatures, move: Move) -> bool:
    """The proposed move leads to a position that has not occurred yet in the game."""
    return move in features.new_position_moves
