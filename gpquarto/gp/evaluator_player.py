"""Searching players that evaluate with an evolved evaluator: ``minimax:depth=2,evaluator=FILE``,
``mcts:iterations=500,evaluator=FILE``.

The spec is the ``minimax`` or ``mcts`` player's (:mod:`gpquarto.games.quarto.players.minimax`, :mod:`gpquarto.games.quarto.players.mcts`:
every option works the same) with one more parameter, ``evaluator``, naming a saved evaluator file
(:mod:`gpquarto.gp.evaluator_files`) or a learned Quarto player (``learned_player.npz``,
:mod:`gpquarto.learned.evaluator`); the evaluator takes the place of ``heuristic`` at the leaves of the same
negamax, or of the playouts of the tree search (giving both is refused). The
evaluator scores for the player to move. :func:`gpquarto.resolve.make_player` sends such specs here, so they
work wherever a player spec does. A path with a comma cannot be written in a spec.
"""

from __future__ import annotations

from gpquarto.gp.evaluator import CompiledEvaluator
from gpquarto.gp.evaluator_files import evaluator_from_data, load_evaluator
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.storage import default_library
from gpquarto.learned.evaluator import LearnedEvaluator, load_learned_evaluator
from gpquarto.learned.storage import LEARNED_SUFFIX
from gpquarto.players.base import Player
from gpquarto.players.registry import make_named_player, parse_spec

#: The spec parameter that names an evaluator file.
EVALUATOR_PARAMETER = "evaluator"
#: Players that accept an evaluator (they search with a heuristic).
SEARCHING_PLAYERS = ("minimax", "mcts")


def is_evaluator_spec(spec: str) -> bool:
    """True when ``spec`` is a named spec with an ``evaluator=`` parameter (checked before file names: the
    value is a path)."""
    if not isinstance(spec, str) or ":" not in spec:
        return False
    try:
        _name, values = parse_spec(spec)
    except ValueError:
        return False
    return EVALUATOR_PARAMETER in values


def evaluator_file(spec: str) -> str:
    """The evaluator file an evaluator spec names (``is_evaluator_spec(spec)`` must hold)."""
    return parse_spec(spec)[1][EVALUATOR_PARAMETER]


def evaluator_player(
    spec: str,
    *,
    seed: int | None = None,
    plugins: tuple[str, ...] | None = None,
    library: PrimitiveLibrary | None = None,
    data: dict | None = None,
) -> Player:
    """The searching player of ``spec`` with its evaluator loaded, from the file, or from ``data`` (the file's
    validated content, as match workers get it: they need no file); one-line ``ValueError`` on any problem."""
    name, values = parse_spec(spec)
    path = values.pop(EVALUATOR_PARAMETER)
    if name not in SEARCHING_PLAYERS:
        raise ValueError(f"player {name!r} takes no evaluator (evaluators work with: {', '.join(SEARCHING_PLAYERS)})")
    if "heuristic" in values:
        raise ValueError(f"player spec {spec!r}: give heuristic or evaluator, not both")
    if not path:
        raise ValueError(f"player spec {spec!r}: evaluator= needs an evaluator file")
    if path.lower().endswith(LEARNED_SUFFIX):
        evaluator: CompiledEvaluator | LearnedEvaluator = load_learned_evaluator(path)
    elif data is not None:
        evaluator = evaluator_from_data(data, library if library is not None else default_library(plugins), source=path)
    else:
        evaluator = load_evaluator(path, library, plugins=plugins)
    return searching_player(name, values, evaluator, spec=spec, seed=seed)


def searching_player(
    name: str,
    values: dict[str, str],
    evaluator: CompiledEvaluator | LearnedEvaluator,
    *,
    spec: str = "",
    seed: int | None = None,
) -> Player:
    """The player ``name`` with the options ``values`` (as text) searching with ``evaluator`` (training uses this
    with genomes that have no file)."""
    rest = ",".join(f"{key}={value}" for key, value in values.items())
    player = make_named_player(
        f"{name}:{rest}" if rest else name, seed=seed, overrides={"heuristic": evaluator.heuristic()}
    )
    player.name = spec or f"{name}:{rest},evaluator={evaluator.name}".replace(":,", ":")
    return player
