"""Bradley-Terry ratings on the Elo scale, with 95% intervals, fitted from pairwise results.

Model: player ``i`` scores against ``j`` with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``, so a
400-point gap means 10:1 odds; a draw counts as half a win for each side. The ratings maximise the
likelihood of the observed scores times a weak Gaussian prior (standard deviation ``prior_sd`` Elo
points, 1000 by default, centred on the mean): the prior only matters when the data say nothing, e.g. a
player that wins every game, whose maximum-likelihood rating would be infinite; with it the rating is
finite, very high and has a very wide interval. Ratings are anchored so that their mean is 1500.

The fit is Newton's method on the concave log-posterior. The 95% interval is ``1.96`` standard errors
from the inverse of the observed information (the negative Hessian at the optimum), projected on the
anchor (ratings relative to the players' mean), so it measures how well the data place each player
among the others.

Example::

    >>> import numpy as np
    >>> points = np.array([[0, 75], [25, 0]])      # A scored 75 of 100 against B
    >>> games = np.array([[0, 100], [100, 0]])
    >>> ratings = fit_ratings(["A", "B"], points, games)
    >>> round(ratings.ratings[0] - ratings.ratings[1])  # 400 * log10(3)
    191
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gpquarto.arena.stats import Z_95

#: The rating mean, and the Elo scale: a gap of ``ELO_SCALE * ln(odds)`` points.
MEAN_RATING = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)
DEFAULT_PRIOR_SD = 1000.0


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings: ``ratings[i]`` (Elo scale, mean 1500) and ``standard_errors[i]`` for ``names[i]``."""

    names: tuple[str, ...]
    ratings: np.ndarray
    standard_errors: np.ndarray
    covariance: np.ndarray
    prior_sd: float | None

    def interval(self, index: int) -> tuple[float, float]:
        """95% interval of player ``index``'s rating."""
        half = Z_95 * float(self.standard_errors[index])
        rating = float(self.ratings[index])
        return rating - half, rating + half

    def half_width(self, index: int) -> float:
        """Half the width of the 95% interval (the ``±`` figure)."""
        return Z_95 * float(self.standard_errors[index])

    def expected_score(self, i: int, j: int) -> float:
        """The model's expected score of ``i`` against ``j`` (0..1)."""
        return expected_score(float(self.ratings[i]), float(self.ratings[j]))

    def ranking(self) -> list[int]:
        """Player indices, best rating first (ties keep the input order)."""
        return sorted(range(len(self.names)), key=lambda index: -float(self.ratings[index]))


def expected_score(rating: float, opponent: float) -> float:
    """Expected score of a player rated ``rating`` against one rated ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def fit_ratings(
    names: Sequence[str],
    points: np.ndarray | Sequence[Sequence[float]],
    games: np.ndarray | Sequence[Sequence[float]],
    *,
    prior_sd: float | None = DEFAULT_PRIOR_SD,
    tolerance: float = 1e-10,
    max_iterations: int = 200,
) -> Ratings:
    """Fit ratings from ``points[i][j]`` (what ``i`` scored against ``j``: wins + draws / 2) and
    ``games[i][j]`` (games between them; symmetric). ``prior_sd=None`` gives the plain maximum-likelihood
    fit, which exists only when no group of players wins every game against the rest.
    """
    count = len(names)
    points = np.asarray(points, dtype=float)
    games = np.asarray(games, dtype=float)
    _check_inputs(count, points, games, prior_sd)
    if prior_sd is None and not _everyone_scores_both_ways(points):
        raise ValueError(
            "maximum-likelihood ratings do not exist: some players won every game against the rest (use a prior)"
        )
    precision = 0.0 if prior_sd is None else (ELO_SCALE / prior_sd) ** 2  # prior precision in natural units
    strengths = np.zeros(count)
    upper = np.triu_indices(count, 1)
    objective = _log_posterior(strengths, points, games, precision, upper)
    for _ in range(max_iterations):
        gradient, hessian = _derivatives(strengths, points, games, precision, count)
        if prior_sd is None:  # the mean is not identified: fix it with a constraint row
            hessian = hessian - np.ones((count, count)) / count
        step = np.linalg.solve(hessian, -gradient)
        step -= step.mean() if prior_sd is None else 0.0
        scale = 1.0
        while True:  # step halving keeps every iteration an improvement
            candidate = strengths + scale * step
            value = _log_posterior(candidate, points, games, precision, upper)
            if value >= objective - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        strengths, objective = candidate, value
        if np.max(np.abs(scale * step)) < tolerance:
            break
    _, hessian = _derivatives(strengths, points, games, precision, count)
    centre = np.eye(count) - np.ones((count, count)) / count
    information = -hessian if prior_sd is not None else -hessian + np.ones((count, count)) / count
    covariance = centre @ np.linalg.inv(information) @ centre * ELO_SCALE**2
    ratings = MEAN_RATING + ELO_SCALE * (strengths - strengths.mean())
    errors = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return Ratings(tuple(names), ratings, errors, covariance, prior_sd)


def _check_inputs(count: int, points: np.ndarray, games: np.ndarray, prior_sd: float | None) -> None:
    if count < 2:
        raise ValueError(f"ratings need at least 2 players, got {count}")
    if points.shape != (count, count) or games.shape != (count, count):
        raise ValueError(f"points and games must be {count}x{count} matrices, got {points.shape} and {games.shape}")
    if np.any(games < 0) or np.any(points < 0) or np.any(points > games):
        raise ValueError("need 0 <= points[i][j] <= games[i][j] for every pair")
    if not np.allclose(games, games.T) or not np.allclose(points + points.T, games):
        raise ValueError("games must be symmetric and points[i][j] + points[j][i] must equal games[i][j]")
    if prior_sd is not None and not prior_sd > 0:
        raise ValueError(f"prior_sd must be > 0 or None, got {prior_sd}")


def _everyone_scores_both_ways(points: np.ndarray) -> bool:
    """Zermelo's condition: the graph "i scored against j" is strongly connected."""
    scored = points > 0
    for graph in (scored, scored.T):
        reached = {0}
        frontier = [0]
        while frontier:
            player = frontier.pop()
            for other in np.flatnonzero(graph[player]):
                if int(other) not in reached:
                    reached.add(int(other))
                    frontier.append(int(other))
        if len(reached) < len(points):
            return False
    return True


def _log_posterior(strengths: np.ndarray, points: np.ndarray, games: np.ndarray, precision: float, upper) -> float:
    i, j = upper
    difference = strengths[i] - strengths[j]
    # log sigma(d) = -log(1 + e^-d), computed stably with logaddexp
    likelihood = -(points[i, j] * np.logaddexp(0.0, -difference) + points[j, i] * np.logaddexp(0.0, difference))
    return float(likelihood.sum() - precision * np.dot(strengths, strengths) / 2)


def _derivatives(strengths: np.ndarray, points: np.ndarray, games: np.ndarray, precision: float, count: int):
    difference = strengths[:, None] - strengths[None, :]
    expected = 1.0 / (1.0 + np.exp(-difference))  # expected[i, j]: i's expected score per game against j
    gradient = (points - games * expected).sum(axis=1) - precision * strengths
    weights = games * expected * (1.0 - expected)
    hessian = weights.copy()
    np.fill_diagonal(hessian, 0.0)
    hessian[np.diag_indices(count)] = -weights.sum(axis=1) + np.diag(weights)
    hessian -= precision * np.eye(count)
    return gradient, hessian
