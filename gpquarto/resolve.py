"""Player specs: the one place where a spec, a zoo name or a saved player file, becomes a player.

A *player spec* is either a named spec of the zoo (``random``, ``minimax:depth=2,heuristic=lines``; see
:mod:`gpquarto.players.registry`), a searching player with an evolved evaluator
(``minimax:depth=2,evaluator=FILE.json``; see :mod:`gpquarto.gp.evaluator_player`) or the path of a saved
player: an evolved player (``best_player.p`` or ``.json``, loaded safely by :mod:`gpquarto.gp.storage`) or a
learned one (``learned_player.npz``, loaded safely by :mod:`gpquarto.learned.storage`). Everything that
takes players by spec (the CLI, matches,
tournaments, training opponents, grading, the web app) goes through :func:`make_player`.

Example::

    >>> from gpquarto.resolve import make_player
    >>> make_player("minimax:depth=1").name
    'minimax:depth=1'
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.gp.evaluator_player import evaluator_player, is_evaluator_spec
from gpquarto.gp.storage import SUFFIXES, load_player, player_from_data, read_player_file
from gpquarto.learned.storage import LEARNED_SUFFIX, learned_player_from_arrays, load_learned_player, read_learned_file
from gpquarto.players.base import Player
from gpquarto.players.registry import make_named_player

#: Suffixes that always mean "a saved player file" (only ``.p`` and ``.json`` are gpquarto's own).
PLAYER_FILE_SUFFIXES = (".p", ".json", LEARNED_SUFFIX, ".dill", ".pkl", ".pickle")
#: The suffixes of the saved players gpquarto loads.
LOADABLE_SUFFIXES = (*SUFFIXES, LEARNED_SUFFIX)


def is_player_file(spec: str) -> bool:
    """True when ``spec`` names a file rather than a zoo player (by its suffix, a path separator, or an existing file);
    a searching player with an evaluator file (``minimax:depth=2,evaluator=FILE``) is not a player file."""
    if is_evaluator_spec(spec):
        return False
    suffix = os.path.splitext(spec)[1].lower()
    return suffix in PLAYER_FILE_SUFFIXES or os.path.sep in spec or os.path.isfile(spec)


def make_player(
    spec: str, *, seed: int | None = None, plugins: Sequence[str] | None = None, game: str = DEFAULT_GAME
) -> Player:
    """The player of ``game`` a spec names: a zoo player, or a saved player loaded with ``plugins`` (primitive
    plugin files; default the ``GPQUARTO_PLUGINS`` environment variable). Any problem, a player of another game
    included, is a one-line ``ValueError``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player spec must be a non-empty string, got {spec!r}")
    game = get_game(game).name
    plugin_files = None if plugins is None else tuple(plugins)
    if is_evaluator_spec(spec):
        player = evaluator_player(spec, game=game, seed=seed, plugins=plugin_files)
    elif not is_player_file(spec):
        return make_named_player(spec, seed=seed, game=game)
    elif not os.path.isfile(spec):
        raise ValueError(f"player file not found: {spec}")
    elif os.path.splitext(spec)[1].lower() not in LOADABLE_SUFFIXES:
        raise ValueError(f"cannot load a player from {spec!r}: saved players end in {', '.join(LOADABLE_SUFFIXES)}")
    elif os.path.splitext(spec)[1].lower() == LEARNED_SUFFIX:
        player = load_learned_player(spec, seed=seed)
    else:
        player = load_player(spec, seed=seed, plugins=plugin_files, game=game)
    if player.game not in (None, game):
        raise ValueError(f"{spec} is a {player.game} player, not a {game} player")
    return player


def read_saved_player(path: str) -> dict:
    """A saved player file's checked plain data, to travel to workers instead of its path: an evolved
    player's dict, or ``{"learned": header, "arrays": arrays}`` for a learned one."""
    if os.path.splitext(path)[1].lower() == LEARNED_SUFFIX:
        header, arrays = read_learned_file(path)
        return {"learned": header, "arrays": arrays}
    return read_player_file(path)


def player_from_saved(
    data: dict,
    *,
    seed: int | None = None,
    plugins: Sequence[str] | None = None,
    source: str = "",
    game: str | None = None,
) -> Player:
    """The player that :func:`read_saved_player` data describes (with ``game``, one of that game only)."""
    if "learned" in data:
        player = learned_player_from_arrays(data["learned"], data["arrays"], source=source)
        if game is not None and player.game not in (None, game):
            raise ValueError(f"{source or 'the player'} is a {player.game} player, not a {game} player")
        return player
    plugin_files = None if plugins is None else tuple(plugins)
    return player_from_data(data, seed=seed, plugins=plugin_files, source=source, game=game)


#: What the refusal of an interactive player suggests, unless the caller knows better.
PLAY_IT_INSTEAD = "play it with 'python3 -m gpquarto play'"


def make_unattended_player(
    spec: str,
    *,
    seed: int | None = None,
    plugins: Sequence[str] | None = None,
    advice: str = PLAY_IT_INSTEAD,
    game: str = DEFAULT_GAME,
) -> Player:
    """:func:`make_player` for matches, tournaments, training and the web app, which run with nobody at the
    terminal: a player that needs a person (its class sets ``interactive = True``, like ``human``) is refused
    with a one-line ``ValueError`` ending with ``advice``."""
    player = make_player(spec, seed=seed, plugins=plugins, game=game)
    if getattr(player, "interactive", False):
        raise ValueError(f"player {spec!r} needs a person at the terminal: {advice}")
    return player


def check_player_specs(
    specs: Sequence[str], *, at_least: int = 2, plugins: Sequence[str] | None = None, game: str = DEFAULT_GAME
) -> None:
    """Raise ``ValueError`` (one line) unless there are ``at_least`` distinct specs of unattended players."""
    if len(specs) < at_least:
        raise ValueError(f"need at least {at_least} players, got {len(specs)}")
    seen = set()
    for spec in specs:
        if spec in seen:
            raise ValueError(f"player {spec!r} is listed twice")
        seen.add(spec)
        make_unattended_player(spec, plugins=plugins, game=game)
