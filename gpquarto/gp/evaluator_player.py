"""Searching players that evaluate with an evolved evaluator: ``minimax:depth=2,evaluator=FILE``,
``mcts:iterations=500,evaluator=FILE``.

The spec is a searching player's of the game (Quarto's ``minimax`` and ``mcts``: every option works the same)
with one more parameter, ``evaluator``, naming a saved evaluator file (:mod:`gpquarto.gp.evaluator_files`) or a
learned player (``learned_player.npz``); the evaluator takes the place of ``heuristic`` at the leaves of the same
search, or of the playouts of the tree search (giving both is refused). The evaluator scores for the player to
move. The game says which of its players take one, and compiles the tree
(:class:`~gpquarto.games.capabilities.EvolvedEvaluators`). :func:`gpquarto.resolve.make_player` sends such specs
here, so they work wherever a player spec does. A path with a comma cannot be written in a spec.
"""

from __future__ import annotations

from typing import Any

from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.evaluator_files import evaluator_from_data, evolved_evaluators, load_evaluator
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.storage import default_library
from gpquarto.learned.storage import LEARNED_SUFFIX
from gpquarto.players.base import Player
from gpquarto.players.registry import parse_spec

#: The spec parameter that names an evaluator file.
EVALUATOR_PARAMETER = "evaluator"


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


def trained_search_spec(game: str, depth: int, path: object) -> str:
    """The player spec of an evaluator trained for ``game``: the game's search that training evolves evaluators for
    (its first searching player: Quarto's ``minimax``) at ``depth``, evaluating with the file ``path``."""
    search = evolved_evaluators(game).searching_players[0]
    return f"{search}:depth={depth},{EVALUATOR_PARAMETER}={path}"


def evaluator_player(
    spec: str,
    *,
    game: str = DEFAULT_GAME,
    seed: int | None = None,
    plugins: tuple[str, ...] | None = None,
    library: PrimitiveLibrary | None = None,
    data: dict | None = None,
) -> Player:
    """The searching player of ``spec`` in ``game`` with its evaluator loaded, from the file, or from ``data`` (the
    file's validated content, as match workers get it: they need no file); one-line ``ValueError`` on any
    problem (a game without evolved evaluators among them)."""
    name, values = parse_spec(spec)
    path = values.pop(EVALUATOR_PARAMETER)
    evaluators = evolved_evaluators(game)
    searching = evaluators.searching_players
    if name not in searching:
        raise ValueError(f"player {name!r} takes no evaluator (evaluators work with: {', '.join(searching)})")
    if "heuristic" in values:
        raise ValueError(f"player spec {spec!r}: give heuristic or evaluator, not both")
    if not path:
        raise ValueError(f"player spec {spec!r}: evaluator= needs an evaluator file")
    if path.lower().endswith(LEARNED_SUFFIX):
        evaluator = evaluators.learned(path)
    else:
        if library is None:
            library = default_library(plugins, game=game)
        if data is not None:
            evaluator = evaluator_from_data(data, library, source=path)
        else:
            evaluator = load_evaluator(path, library)
    return searching_player(name, values, evaluator, game=game, spec=spec, seed=seed)


def searching_player(
    name: str,
    values: dict[str, str],
    evaluator: Any,
    *,
    game: str = DEFAULT_GAME,
    spec: str = "",
    seed: int | None = None,
) -> Player:
    """The player ``name`` of ``game`` with the options ``values`` (as text) searching with ``evaluator`` (training
    uses this with genomes that have no file)."""
    return evolved_evaluators(game).searcher(name, values, evaluator, spec=spec, seed=seed)
