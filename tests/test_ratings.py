"""Bradley-Terry ratings: recovery of known strengths, interval coverage, a slow independent fit, edge cases."""

from __future__ import annotations

import numpy as np
import pytest

from gpquarto.arena.ratings import expected_score, fit_ratings

TRUE = np.array([1250.0, 1450.0, 1500.0, 1600.0, 1700.0])  # mean 1500


def synthetic(true: np.ndarray, games: int, seed: int, draw_rate: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    """Simulated results: each game is a draw with probability ``draw_rate`` (half a point each), else a
    win drawn so that the expected score follows the model (needs draw_rate small enough)."""
    rng = np.random.default_rng(seed)
    count = len(true)
    points = np.zeros((count, count))
    played = np.zeros((count, count))
    for i in range(count):
        for j in range(i + 1, count):
            p = expected_score(true[i], true[j])
            win = (p - draw_rate / 2) / (1 - draw_rate)  # P(win | decisive) keeping E[score] = p
            outcomes = rng.random(games)
            draws = int(np.sum(outcomes < draw_rate))
            wins = int(np.sum(rng.random(games - draws) < win))
            points[i, j] = wins + draws / 2
            points[j, i] = games - points[i, j]
            played[i, j] = played[j, i] = games
    return points, played


def test_recovers_known_strengths_within_the_interval() -> None:
    points, played = synthetic(TRUE, 400, seed=12)
    ratings = fit_ratings([f"p{i}" for i in range(len(TRUE))], points, played)
    assert ratings.ratings.mean() == pytest.approx(1500)
    for index, true in enumerate(TRUE):
        low, high = ratings.interval(index)
        assert low <= true <= high
        assert high - low < 150  # 400 games a pairing pin a rating down to well under ±75


def test_intervals_cover_about_95_percent() -> None:
    inside = total = 0
    for seed in range(150):
        points, played = synthetic(TRUE, 60, seed=seed)
        ratings = fit_ratings([str(i) for i in range(len(TRUE))], points, played)
        for index, true in enumerate(TRUE):
            low, high = ratings.interval(index)
            inside += low <= true <= high
            total += 1
    assert 0.91 <= inside / total <= 0.985


def minorize_maximize(points: np.ndarray, played: np.ndarray, iterations: int = 20000) -> np.ndarray:
    """Hunter's (2004) MM algorithm for the plain Bradley-Terry MLE, slow and simple: gamma_i = W_i /
    sum_j n_ij / (gamma_i + gamma_j). Returns Elo-scale ratings with mean 1500."""
    gamma = np.ones(len(points))
    for _ in range(iterations):
        denominator = (played / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        gamma = points.sum(axis=1) / denominator
        gamma /= np.exp(np.log(gamma).mean())
    ratings = 400 * np.log10(gamma)
    return ratings - ratings.mean() + 1500


def test_newton_fit_matches_an_independent_mm_fit() -> None:
    points, played = synthetic(TRUE, 50, seed=3)
    plain = fit_ratings(list("abcde"), points, played, prior_sd=None)
    assert plain.ratings == pytest.approx(minorize_maximize(points, played), abs=1e-3)
    weak = fit_ratings(list("abcde"), points, played)  # the default prior barely moves well-measured ratings
    assert weak.ratings == pytest.approx(plain.ratings, abs=5)


def test_fit_matches_observed_and_expected_scores() -> None:
    points, played = synthetic(TRUE, 80, seed=4)
    ratings = fit_ratings(list("abcde"), points, played, prior_sd=None)
    for i in range(len(TRUE)):
        expected = sum(played[i, j] * ratings.expected_score(i, j) for j in range(len(TRUE)) if j != i)
        assert expected == pytest.approx(points[i].sum(), abs=1e-6)


def test_a_player_who_wins_everything_gets_a_finite_top_rating_with_the_prior() -> None:
    points = np.array([[0, 20, 20], [0, 0, 12], [0, 8, 0]], dtype=float)
    played = np.array([[0, 20, 20], [20, 0, 20], [20, 20, 0]], dtype=float)
    ratings = fit_ratings(["perfect", "b", "c"], points, played)
    assert np.all(np.isfinite(ratings.ratings))
    assert ratings.ranking() == [0, 1, 2]
    assert ratings.half_width(0) > ratings.half_width(1)  # little information about how good it really is
    with pytest.raises(ValueError, match="do not exist"):
        fit_ratings(["perfect", "b", "c"], points, played, prior_sd=None)


def test_even_results_give_equal_ratings() -> None:
    played = np.full((3, 3), 10.0) - np.diag([10.0] * 3)
    ratings = fit_ratings(["a", "b", "c"], played / 2, played)
    assert ratings.ratings == pytest.approx([1500, 1500, 1500])


@pytest.mark.parametrize(
    ("points", "played", "message"),
    [
        ([[0, 11], [0, 0]], [[0, 10], [10, 0]], "points"),
        ([[0, 5], [4, 0]], [[0, 10], [10, 0]], "must equal"),
        ([[0, 5], [5, 0]], [[0, 10], [9, 0]], "symmetric"),
        ([[0]], [[0]], "at least 2"),
    ],
)
def test_bad_inputs_are_rejected(points, played, message) -> None:
    names = [str(i) for i in range(len(points))]
    with pytest.raises(ValueError, match=message):
        fit_ratings(names, points, played)
