"""Monte-Carlo tree search (UCT) over the game interface, for every game.

Each iteration walks down the tree by UCB1, adds one child, and scores the new position by a random playout to
the end of the game (or by an evaluation hook, or by the game's own fast playout), then backs the score up. A
node's statistics are from the point of view of the side that moved into it, so turns need not alternate. The
answer is the most visited action at the root. Iterations stop at ``iterations`` or at the deadline, whichever
comes first (the clock is read every few iterations), and at least one iteration is always run.

Example::

    >>> search = MCTS(random.Random(1))
    >>> search.search(state, iterations=1000).action                          # doctest: +SKIP
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from gpquarto.games.interface import GameState
from gpquarto.search.budget import Deadline

#: ``rollout(state, rng) -> score``: the finished game's score (1, ½, 0) for ``seat``, from ``state`` (changed
#: at will: it is a copy).
Rollout = Callable[[GameState, int, random.Random], float]
#: ``evaluate(state) -> float`` in [-1, 1] for the side to move: replaces the rollout when given.
Evaluate = Callable[[GameState], float]
#: The clock is read once every this many iterations.
CLOCK_EVERY = 16


def random_rollout(state: GameState, seat: int, rng: random.Random) -> float:
    """Play uniformly random legal actions to the end; the score for ``seat``."""
    while not state.is_over():
        actions = state.legal_actions()
        state.apply(actions[int(rng.random() * len(actions))])
    outcome = state.outcome()
    assert outcome is not None
    return outcome.score(seat)


@dataclass
class _Node:
    #: The seat that moved into this node (whose point of view ``total`` takes).
    mover: int
    untried: list[int]
    children: dict[int, _Node] = field(default_factory=dict)
    visits: int = 0
    total: float = 0.0


@dataclass(frozen=True)
class MCTSResult:
    """The most visited root action, the visits of every root action, and the iterations run."""

    action: int | None
    visits: dict[int, int]
    iterations: int


class MCTS:
    """UCT with exploration constant ``exploration``; randomness only from ``rng``."""

    def __init__(
        self,
        rng: random.Random,
        exploration: float = 1.4,
        rollout: Rollout = random_rollout,
        evaluate: Evaluate | None = None,
    ) -> None:
        self.rng = rng
        self.exploration = exploration
        self.rollout = rollout
        self.evaluate = evaluate

    def search(self, state: GameState, iterations: int, deadline: Deadline | None = None) -> MCTSResult:
        """Run up to ``iterations`` iterations from ``state`` (left as it was) until ``deadline`` (None: no
        limit)."""
        if state.is_over():
            return MCTSResult(None, {}, 0)
        root = _Node(mover=1 - state.player, untried=list(state.legal_actions()))
        done = 0
        while done < max(iterations, 1):
            self._iterate(state.copy(), root)
            done += 1
            if deadline is not None and done % CLOCK_EVERY == 0 and deadline.expired():
                break
        visits = {action: child.visits for action, child in root.children.items()}
        best = max(sorted(visits), key=lambda action: visits[action])
        return MCTSResult(best, visits, done)

    def _iterate(self, state: GameState, root: _Node) -> None:
        path = [root]
        node = root
        while not node.untried and node.children:
            action, node = self._select(node)
            state.apply(action)
            path.append(node)
        if node.untried and not state.is_over():
            action = node.untried.pop(int(self.rng.random() * len(node.untried)))
            mover = state.player
            state.apply(action)
            child = _Node(mover=mover, untried=[] if state.is_over() else list(state.legal_actions()))
            node.children[action] = child
            path.append(child)
        scores = self._score(state)
        for visited in path:
            visited.visits += 1
            visited.total += scores[visited.mover]

    def _select(self, node: _Node) -> tuple[int, _Node]:
        """The child with the highest UCB1 score (the first such in insertion order), with its action."""
        log_visits, c = math.log(node.visits), self.exploration
        return max(
            node.children.items(),
            key=lambda item: item[1].total / item[1].visits + c * math.sqrt(log_visits / item[1].visits),
        )

    def _score(self, state: GameState) -> tuple[float, float]:
        """The score of each seat (0 and 1) for the position reached."""
        if state.is_over():
            outcome = state.outcome()
            assert outcome is not None
            return outcome.score(0), outcome.score(1)
        if self.evaluate is not None:
            value = max(-1.0, min(1.0, float(self.evaluate(state))))
            mine = (value + 1) / 2
            return (mine, 1 - mine) if state.player == 0 else (1 - mine, mine)
        first = self.rollout(state, 0, self.rng)
        return first, 1 - first
