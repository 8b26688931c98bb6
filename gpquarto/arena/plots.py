"""Tournament figure: ratings with 95% error bars, and the pairwise score matrix as an annotated heat map.

Uses matplotlib's object API with the Agg canvas (no pyplot, no display, no global state), so it works in
worker processes and on machines without a screen.
"""

from __future__ import annotations

import io
import math
import os

import numpy as np

from gpquarto.arena.tournament import TournamentResult
from gpquarto.atomic import write_bytes_atomic


def tournament_png(result: TournamentResult, *, dpi: int = 120) -> bytes:
    """The figure as PNG bytes: ratings (best at the top) with their intervals, and ``score[row, column]``
    = the row player's score rate against the column player, in percent."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ratings = result.ratings
    order = ratings.ranking()
    names = [result.players[index] for index in order]
    count = len(names)
    size = max(4.0, 0.6 * count + 2.0)
    figure = Figure(figsize=(2 * size + 2, size), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2, width_ratios=(1, 1.25))

    positions = np.arange(count)[::-1]  # best at the top
    values = ratings.ratings[order]
    errors = [ratings.half_width(index) for index in order]
    left.errorbar(values, positions, xerr=errors, fmt="o", capsize=4, color="tab:blue")
    left.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    left.set_yticks(positions, names)
    left.set_xlabel("rating (Bradley-Terry, Elo scale, mean 1500) ± 95%")
    left.set_title("ratings")
    left.grid(axis="x", alpha=0.3)

    score = result.score_matrix()[np.ix_(order, order)] * 100
    image = right.imshow(np.ma.masked_invalid(score), cmap="RdYlGn", vmin=0, vmax=100)
    right.set_xticks(range(count), names, rotation=45, ha="right")
    right.set_yticks(range(count), names)
    for row in range(count):
        for column in range(count):
            if not math.isnan(score[row, column]):
                right.text(column, row, f"{score[row, column]:.0f}", ha="center", va="center", fontsize=9)
    right.set_title(f"score % of row vs column ({result.games} games per pairing)")
    figure.colorbar(image, ax=right, shrink=0.8, label="score %")

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def save_tournament_plot(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Write :func:`tournament_png` to ``path`` atomically."""
    write_bytes_atomic(path, tournament_png(result))
