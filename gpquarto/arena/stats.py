"""Honest statistics for match results: Wilson score intervals."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); ``successes`` may be fractional
    (a score counting draws as one half). Returns (0, 1) when there are no trials."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def median_and_quartiles(values: list[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile) of ``values`` (linear interpolation, as NumPy's default)."""
    import numpy as np

    if not values:
        raise ValueError("no values")
    low, middle, high = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
    return float(low), float(middle), float(high)


def require_scipy() -> None:
    """A one-line ``ValueError`` unless SciPy, which :func:`mann_whitney` needs, can be imported: an experiment
    that compares configurations asks before it trains, not after."""
    try:
        import scipy.stats  # noqa: F401
    except ImportError:
        raise ValueError("comparing configurations needs SciPy: pip install 'gpquarto[experiment]'") from None


def mann_whitney(first: list[float], second: list[float]) -> float:
    """Two-sided p-value of the Mann-Whitney U test that the two samples come from the same distribution
    (SciPy's, exact for small samples without ties); 1.0 when the samples are identical constants."""
    require_scipy()
    from scipy.stats import mannwhitneyu

    if len(first) < 1 or len(second) < 1:
        raise ValueError("each sample needs at least one value")
    if len(set(first) | set(second)) == 1:
        return 1.0
    return float(mannwhitneyu(first, second, alternative="two-sided").pvalue)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` for multiple comparisons (family-wise error), in the
    given order: the k-th smallest p (k = 0, 1, ...) is multiplied by ``m - k``, then made monotone and
    capped at 1."""
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
