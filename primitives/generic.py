"""The generic primitives: they work on any game through the game interface (:mod:`gpquarto.gp.generic`).

They join the library of every game bound by the generic binding (a game whose plug-in brings no GP binding, or
one that builds on it), and of no other: Quarto's and Quixo's libraries never hold them. Terms (what wins, what
is safe, turns that need not alternate, board runs) are those of :mod:`gpquarto.gp.generic`. Every choice is
deterministic: among equals the lowest action; a choice with nothing to propose returns ``NO_ACTION`` (-1).

Families:

* ``generic_actions``: the first and last legal actions, the first of two proposals that is legal, the number of
  legal actions;
* ``generic_tactical``: what wins at once;
* ``generic_lookahead``: the opponent's next turn: safe actions, the action that stops a threatened win, the
  action leaving the fewest winning replies, forcing actions (a win next turn whatever the opponent does), and
  fork-free actions (safe, and leaving the opponent no forcing action);
* ``generic_board``: read from the game's ``Board`` (nothing without one): marks, runs along lines, and actions
  chosen by the position they leave (the longest own run, the best line potential, the most neighbouring own
  marks, the changed cell nearest the centre).
"""

from __future__ import annotations

from gpquarto.gp.generic import GenericFeatures, best_action
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Action, Count

ACTIONS, TACTICAL, LOOKAHEAD, BOARD = "generic_actions", "generic_tactical", "generic_lookahead", "generic_board"


def _first(actions: tuple[int, ...]) -> int:
    return actions[0] if actions else NO_ACTION


# ---------------------------------------------------------------------- actions
@primitive(family=ACTIONS)
def first_action(features: GenericFeatures) -> Action:
    """The lowest legal action."""
    return _first(features.legal_actions)


@primitive(family=ACTIONS)
def last_action(features: GenericFeatures) -> Action:
    """The highest legal action."""
    return features.legal_actions[-1] if features.legal_actions else NO_ACTION


@primitive(family=ACTIONS)
def action_or(features: GenericFeatures, first: Action, second: Action) -> Action:
    """The first action if it is legal, else the second."""
    return first if features.is_legal(first) else second


@primitive(family=ACTIONS)
def legal_action_count(features: GenericFeatures) -> Count:
    """The number of legal actions."""
    return len(features.legal_actions)


# ---------------------------------------------------------------------- tactical
@primitive(family=TACTICAL)
def winning_action(features: GenericFeatures) -> Action:
    """The lowest action that wins at once."""
    return _first(features.winning_actions)


@primitive(family=TACTICAL)
def win_available(features: GenericFeatures) -> bool:
    """Some action wins at once."""
    return bool(features.winning_actions)


@primitive(family=TACTICAL)
def winning_action_count(features: GenericFeatures) -> Count:
    """The number of actions that win at once."""
    return len(features.winning_actions)


# ---------------------------------------------------------------------- lookahead (the opponent's next turn)
@primitive(family=LOOKAHEAD)
def safe_action(features: GenericFeatures) -> Action:
    """The lowest safe action (wins or draws at once, or leaves the opponent no win in its next turn)."""
    return _first(features.safe_actions)


@primitive(family=LOOKAHEAD)
def blocking_action(features: GenericFeatures) -> Action:
    """When some action would let the opponent win next turn: the lowest safe action (the one that stops it)."""
    return features.blocking_action


@primitive(family=LOOKAHEAD)
def win_threatened(features: GenericFeatures) -> bool:
    """Some legal action would let the opponent win in its next turn (there is a win to stop)."""
    return features.win_threatened


@primitive(family=LOOKAHEAD)
def is_safe_action(features: GenericFeatures, action: Action) -> bool:
    """The proposed action is safe."""
    return action in features.safe_set


@primitive(family=LOOKAHEAD)
def safe_action_or(features: GenericFeatures, first: Action, second: Action) -> Action:
    """The first action if it is safe, else the second."""
    return first if first in features.safe_set else second


@primitive(family=LOOKAHEAD)
def safe_action_count(features: GenericFeatures) -> Count:
    """The number of safe actions."""
    return len(features.safe_actions)


@primitive(family=LOOKAHEAD)
def fewest_replies_action(features: GenericFeatures) -> Action:
    """A winning action, else the action leaving the opponent the fewest winning replies."""
    return features.fewest_replies_action


@primitive(family=LOOKAHEAD)
def forcing_action(features: GenericFeatures) -> Action:
    """A safe action after which every turn of the opponent leaves the mover a win (a fork)."""
    return features.forcing_action


@primitive(family=LOOKAHEAD)
def fork_free_action(features: GenericFeatures) -> Action:
    """The lowest safe action that leaves the opponent no fork (no action after which the mover cannot stop a win)."""
    return features.fork_free_action


@primitive(family=LOOKAHEAD)
def fork_free_potential_action(features: GenericFeatures) -> Action:
    """The safe action leaving the opponent no fork with the best line potential."""
    return features.fork_free_potential_action


@primitive(family=LOOKAHEAD)
def is_fork_free(features: GenericFeatures, action: Action) -> bool:
    """The proposed action is safe and leaves the opponent no fork."""
    return action in features.safe_set and features.fork_free(action)


# ---------------------------------------------------------------------- the board (the game's Board)
@primitive(family=BOARD)
def own_mark_count(features: GenericFeatures) -> Count:
    """The mover's marks on the board."""
    return features.own_marks


@primitive(family=BOARD)
def opponent_mark_count(features: GenericFeatures) -> Count:
    """The opponent's marks on the board."""
    return features.opponent_marks


@primitive(family=BOARD)
def empty_cell_count(features: GenericFeatures) -> Count:
    """The empty cells of the board."""
    return features.empty_cells


@primitive(family=BOARD)
def own_longest_run(features: GenericFeatures) -> Count:
    """The mover's longest run of marks along a row, column or diagonal."""
    return features.own_longest_run


@primitive(family=BOARD)
def opponent_longest_run(features: GenericFeatures) -> Count:
    """The opponent's longest run of marks along a row, column or diagonal."""
    return features.opponent_longest_run


@primitive(family=BOARD)
def longest_run_action(features: GenericFeatures) -> Action:
    """The action after which the mover's longest run is longest."""
    return best_action(features.run_after, features.legal_actions)


@primitive(family=BOARD)
def safe_longest_run_action(features: GenericFeatures) -> Action:
    """The safe action after which the mover's longest run is longest."""
    return best_action(features.run_after, features.safe_actions)


@primitive(family=BOARD)
def potential_action(features: GenericFeatures) -> Action:
    """The action leaving the best line potential for the mover (windows of four in a row)."""
    return best_action(features.potential_after, features.legal_actions)


@primitive(family=BOARD)
def safe_potential_action(features: GenericFeatures) -> Action:
    """The safe action leaving the best line potential for the mover."""
    return best_action(features.potential_after, features.safe_actions)


@primitive(family=BOARD)
def clustering_action(features: GenericFeatures) -> Action:
    """The action after which the most pairs of neighbouring cells hold the mover's marks."""
    return best_action(features.pairs_after, features.legal_actions)


@primitive(family=BOARD)
def central_action(features: GenericFeatures) -> Action:
    """The action that changes a cell nearest the centre of the board."""
    return best_action(features.centre_after, features.legal_actions, highest=False)


@primitive(family=BOARD)
def safe_central_action(features: GenericFeatures) -> Action:
    """The safe action that changes a cell nearest the centre of the board."""
    return best_action(features.centre_after, features.safe_actions, highest=False)
