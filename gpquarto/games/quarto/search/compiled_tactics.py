"""Optional compiled lookahead tactics (``pip install "gpquarto[fast]"``, which brings numba): the opponent's replies
that the lookahead primitives read, each computed for a whole position in one call, and the fast search's
placement two plies deep.

The pure-Python code (:mod:`gpquarto.games.quarto.search.tactics`, :mod:`gpquarto.games.quarto.search.fast_search` and the family
``gpquarto/games/quarto/primitives/lookahead.py``) stays the reference and the fallback: these functions give exactly what it gives, and
tests check them against it on many seeded positions of both rule sets. :data:`AVAILABLE` says whether numba is
installed; :data:`ENABLED` whether the lookahead primitives and the fast search use these functions (``AVAILABLE``, unless the environment variable
``GPQUARTO_PURE_PYTHON`` is set to a non-empty value other than ``0``). The first call of each function compiles
it (seconds; cached on disk afterwards).

A position is given as its 16 cells (a piece or ``NO_PIECE``, a tuple), the mask of the available pieces (neither
on the board nor in hand) and whether the advanced rules' blocks count as lines. Results are 16 values (one per
piece or square, -1 where there is none) or one square:

* :func:`reply_masks` (a choice is due): for each safe piece to give, the opponent's safe placements with it, as a
  square mask;
* :func:`safe_left_after` (a placement is due): for each safe, non-winning square of the piece in hand, how many
  safe pieces are left to give after it;
* :func:`fewest_replies` (a choice is due): for the safe pieces with which the opponent has the fewest safe
  placements, that number times 64 plus how many of those placements leave it an odd number of safe pieces (0 when
  more than ``horizon`` squares are empty);
* :func:`square_replies` (a placement is due): for each square of :func:`safe_left_after`, the least value of
  :func:`fewest_replies` once the piece in hand is there;
* :func:`trap_square` (a placement is due): the lowest square of :func:`safe_left_after` after which some safe
  piece, not the last one, leaves the opponent no safe placement, or -1.

:func:`best_placement_2` is the fast search's placement two plies deep (:mod:`gpquarto.games.quarto.search.fast_search`).
"""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType

from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE

#: Whether numba is installed (the kernels are imported, and compiled or read from numba's cache, on first use).
AVAILABLE = importlib.util.find_spec("numba") is not None
#: Whether the lookahead primitives call the compiled functions (see the module docstring); :func:`enabled` turns it
#: off for good when numba cannot be imported after all.
ENABLED = AVAILABLE and os.environ.get("GPQUARTO_PURE_PYTHON", "") in ("", "0")
_kernels: ModuleType | None = None


def enabled() -> bool:
    """:data:`ENABLED`, after importing the kernels the first time (False from then on when that fails)."""
    global ENABLED, _kernels
    if ENABLED and _kernels is None:
        try:
            from gpquarto.games.quarto.search import tactics_kernels
        except ImportError:  # pragma: no cover - a broken numba install
            ENABLED = False
        else:
            _kernels = tactics_kernels
    return ENABLED


_warm = False


def warm_up() -> None:
    """Load the depth-2 placement kernel once per process (numba reads it from its cache, or compiles it, on first
    use), so that a timed decision does not pay for it; nothing without numba."""
    global _warm
    if _warm or not enabled():
        return
    _warm = True
    cells = (0, *[NO_PIECE] * 15)  # piece 0 on square 0, piece 1 in hand: a position the kernel searches
    best_placement_2(cells, 1, 0xFFFF & ~0b11, Rules.CLASSIC, 1, "lines")


def _loaded() -> ModuleType:
    """The kernels module (a caller checked :func:`enabled` first)."""
    if not enabled() or _kernels is None:
        raise RuntimeError("the compiled tactics need numba (pip install 'gpquarto[fast]')")
    return _kernels


def reply_masks(cells: tuple[int, ...], available: int, rules: Rules) -> list[int]:
    """For each piece (0..15): the opponent's safe placements with it as a square mask if it is safe to give, else
    -1 (a choice is due)."""
    kernels = _loaded()
    return kernels.reply_masks_of(cells, available, kernels.LINES[rules]).tolist()


def safe_left_after(cells: tuple[int, ...], in_hand: int, available: int, rules: Rules) -> list[int]:
    """For each square (0..15): the safe pieces left to give once the piece in hand is there, if that square is safe
    and does not win, else -1 (a placement is due)."""
    kernels = _loaded()
    return kernels.safe_left_of(cells, in_hand, available, kernels.LINES[rules]).tolist()


def fewest_replies(cells: tuple[int, ...], available: int, rules: Rules, horizon: int) -> list[int]:
    """For each piece (0..15): ``fewest * 64 + odd`` if it is one of the safe pieces with the fewest safe placements
    for the opponent, else -1 (see the module docstring; a choice is due)."""
    kernels = _loaded()
    return kernels.fewest_of(cells, available, kernels.LINES[rules], horizon).tolist()


def square_replies(cells: tuple[int, ...], in_hand: int, available: int, rules: Rules, horizon: int) -> list[int]:
    """For each square (0..15) of :func:`safe_left_after`: the least :func:`fewest_replies` value once the piece in
    hand is there, else -1 (a placement is due)."""
    kernels = _loaded()
    return kernels.square_replies_of(cells, in_hand, available, kernels.LINES[rules], horizon).tolist()


def trap_square(cells: tuple[int, ...], in_hand: int, available: int, rules: Rules) -> int:
    """The lowest safe, non-winning square of the piece in hand after which some safe piece (not the last one left)
    leaves the opponent no safe placement, or -1 (a placement is due)."""
    kernels = _loaded()
    return int(kernels.trap_square_of(cells, in_hand, available, kernels.LINES[rules]))


#: The leaf values :func:`best_placement_2` computes (the fast search's built-in heuristics but ``guaranteed_loss``).
SEARCH_KINDS = {"wins": 0, "lines": 1, "quarticity": 2}


def best_placement_2(
    cells: tuple[int, ...], in_hand: int, available: int, rules: Rules, parity: int, kind: str
) -> tuple[int, list[int], int]:
    """The fast search's placement at depth 2 (:meth:`~gpquarto.games.quarto.search.fast_search.FastSearch.best_placement`) with
    the built-in heuristic ``kind`` (one of :data:`SEARCH_KINDS`), on a board with at least two empty squares where
    the piece in hand cannot win at once; ``parity`` is the fast search's (``(1 + player) & 1``). Returns the best
    value, every best move (``square << 4 | piece``, in the fast search's order) and the last plies searched."""
    kernels = _loaded()
    best, moves, searched = kernels.best_placement_2(
        cells, in_hand, available, kernels.LINES[rules], parity, SEARCH_KINDS[kind]
    )
    return int(best), moves.tolist(), int(searched)
