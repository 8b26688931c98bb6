"""The gpquarto cache folder: where computed data that is worth keeping between runs goes (grading banks, Quixo
solutions).

It is the ``cache_dir`` argument when given, else ``$GPQUARTO_CACHE``, else ``$XDG_CACHE_HOME/gpquarto``, else
``~/.cache/gpquarto``.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The gpquarto cache folder (see the module docstring)."""
    if cache_dir is not None:
        return Path(cache_dir)
    if os.environ.get("GPQUARTO_CACHE"):
        return Path(os.environ["GPQUARTO_CACHE"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "gpquarto"
    return Path.home() / ".cache" / "gpquarto"
