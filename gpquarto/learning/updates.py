"""The learners: how a batch of trajectories changes the model, merged in episode order.

- :class:`NTupleLearner` (``td-ntuple``): afterstate TD(lambda) on an n-tuple network. For one seat's
  afterstates ``x_0 .. x_n`` and its result ``z``, the lambda-returns are ``G_n = z`` and
  ``G_i = (1 - lambda) V(x_{i+1}) + lambda G_{i+1}``; each weight of ``x_i`` moves by
  ``rate * (G_i - V(x_i)) * (1 - V(x_i)^2)`` (the gradient of ``tanh``). ``rate`` is ``alpha``, or with
  temporal coherence ``alpha * |N| / A`` where ``N`` and ``A`` sum the weight's past errors and their sizes.
  Values are computed with the weights as they are when the episode is merged (offline lambda-return).
- :class:`TableLearner` (``q-learning``, ``monte-carlo``): ``Q(x_i) += alpha (target - Q(x_i))`` in order,
  keyed by canonical key. Q-learning's target is the best value the seat saw at its next decision (from the
  frozen table the episode was played with), or ``z`` after its last; Monte-Carlo's target is ``z``.
"""

from __future__ import annotations

import numpy as np

from gpquarto.learned.models import NTupleModel, TableModel, default_encoder
from gpquarto.learned.storage import model_arrays, table_from_arrays
from gpquarto.learned.turns import LIMIT
from gpquarto.learning.config import LearnConfig
from gpquarto.learning.episodes import Trajectory


class NTupleLearner:
    """Afterstate TD(lambda) with an n-tuple network (see the module docstring)."""

    def __init__(self, config: LearnConfig) -> None:
        self.config = config
        self.model = NTupleModel(default_encoder(config.game, config.settings))
        size = self.model.weights.shape[0]
        self.errors = np.zeros(size)  # N: the sum of each weight's errors (temporal coherence)
        self.sizes = np.zeros(size)  # A: the sum of their absolute values

    def payload(self) -> np.ndarray:
        """The frozen model for a batch's episodes."""
        return self.model.weights.copy()

    def apply(self, trajectories: list[Trajectory]) -> None:
        """Merge ``trajectories`` in order."""
        for trajectory in trajectories:
            if trajectory.afterstates:
                self._learn(trajectory.afterstates, trajectory.reward)

    def _learn(self, afterstates: list[np.ndarray], reward: float) -> None:
        weights = self.model.weights
        lam = self.config.lam
        values = np.clip(np.tanh([weights[indices].sum() for indices in afterstates]), -LIMIT, LIMIT)
        targets = np.empty_like(values)
        following = reward
        for index in range(len(values) - 1, -1, -1):
            targets[index] = following
            following = (1 - lam) * values[index] + lam * following
        gradients = (targets - values) * (1 - values * values)
        indices = np.concatenate(afterstates)
        steps = np.repeat(gradients, [len(item) for item in afterstates])
        rate = np.full(len(indices), self.config.step_size)
        if self.config.step == "tc":
            seen = self.sizes[indices]
            rate *= np.where(seen > 0, np.abs(self.errors[indices]) / np.where(seen > 0, seen, 1.0), 1.0)
        np.add.at(weights, indices, rate * steps)
        np.add.at(self.errors, indices, steps)
        np.add.at(self.sizes, indices, np.abs(steps))

    def arrays(self) -> dict[str, np.ndarray]:
        """The learner's state for a checkpoint."""
        return {"weights": self.model.weights, "tc_errors": self.errors, "tc_sizes": self.sizes}

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Back to the state :meth:`arrays` saved."""
        for name, target in (("weights", self.model.weights), ("tc_errors", self.errors), ("tc_sizes", self.sizes)):
            if arrays[name].shape != target.shape:
                raise ValueError(f"checkpoint array {name!r} has shape {arrays[name].shape}, expected {target.shape}")
            target[:] = arrays[name]


class TableLearner:
    """Tabular Q-learning or Monte-Carlo control over canonical afterstate keys."""

    def __init__(self, config: LearnConfig) -> None:
        self.config = config
        self.model = TableModel()

    def payload(self) -> dict:
        """The frozen table for a batch's episodes."""
        return dict(self.model.table)

    def apply(self, trajectories: list[Trajectory]) -> None:
        """Merge ``trajectories`` in order."""
        table = self.model.table
        alpha = self.config.step_size
        monte_carlo = self.config.method == "monte-carlo"
        for trajectory in trajectories:
            best = trajectory.best
            for index, key in enumerate(trajectory.afterstates):
                if monte_carlo or index + 1 >= len(best):
                    target = trajectory.reward
                else:
                    target = best[index + 1]
                value = table.get(key, 0.0)
                table[key] = value + alpha * (target - value)

    def arrays(self) -> dict[str, np.ndarray]:
        """The learner's state for a checkpoint."""
        return model_arrays(self.model)

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Back to the state :meth:`arrays` saved."""
        self.model.table = table_from_arrays(arrays)


def make_learner(config: LearnConfig) -> NTupleLearner | TableLearner:
    """The learner of ``config.method``."""
    return NTupleLearner(config) if config.method == "td-ntuple" else TableLearner(config)
