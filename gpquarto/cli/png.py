"""Writing a figure (a game's :class:`~gpquarto.games.capabilities.Pictures`) as a PNG file."""

from __future__ import annotations

import io
import os

from gpquarto.atomic import write_bytes_atomic


def save_png(figure, path: str | os.PathLike[str]) -> None:
    """Write the matplotlib ``figure`` as PNG, atomically (a file that was there stays whole until the new one is
    complete); ``OSError`` (one line in the CLI) when the file cannot be written."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    write_bytes_atomic(path, buffer.getvalue())
