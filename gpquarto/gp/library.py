"""Loading a primitive library: the built-in families, installed packages and plugin files, and sharing one.

:func:`load_library` assembles a :class:`~gpquarto.gp.primitives.PrimitiveLibrary` from the sources that
:mod:`gpquarto.gp.plugins` loads; :func:`shared_library` and :func:`get_library` keep one per process for
each set of sources, so fitness tasks and saved players do not reload (and re-check) them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp import plugins as loaders
from gpquarto.gp.bindings import accepts, gp_game
from gpquarto.gp.primitives import PrimitiveLibrary


def load_library(
    plugins: Sequence[str] = (),
    *,
    tactical: bool = True,
    lookahead: bool = True,
    entry_points: bool = True,
    game: str = DEFAULT_GAME,
) -> PrimitiveLibrary:
    """The library of ``game``: the built-in primitives, then installed packages (entry point group
    ``gpquarto.primitives``), then plugin files, keeping the neutral specs and those of ``game`` (in that order).

    Quarto's built-in primitives are the modules of ``gpquarto_primitives.FAMILY_MODULES``; another game adds
    its binding's subpackage (Quixo: ``gpquarto.games.quixo.primitives``); a generically bound game adds the
    generic families (``gpquarto_primitives.GENERIC_FAMILY_MODULES``) before its own package, if any.
    ``lookahead=False`` leaves the family "lookahead" out; ``tactical=False`` leaves out "tactical" and
    "lookahead" (which builds on it); the game's own families of those names go too (Quixo's "quixo_tactical",
    "quixo_lookahead"), and a generically bound game's "generic_tactical" and "generic_lookahead". Duplicate
    names across sources are refused (:class:`PrimitiveError` naming both sources); a plugin that fails, or that
    registers primitives of other games only, raises :class:`~gpquarto.gp.plugins.PluginError` naming itself.
    """
    binding = gp_game(game)
    loaded = [loaders.load_builtin(binding.family_package, generic=binding.generic)]
    if entry_points:
        loaded += loaders.load_entry_points()
    loaded += [loaders.load_plugin_file(path) for path in plugins]
    specs = [
        replace(spec, source=source.source) for source in loaded for spec in source.specs if accepts(binding, spec.game)
    ]
    sources = {spec.source for spec in specs} | {loaders.BUILTIN_SOURCE}
    for path in plugins:
        if str(path) not in sources:
            raise loaders.PluginError(f"plugin {path}: registers no {binding.name} primitive (only another game's)")
    versions = {source.source: source.version for source in loaded if source.source in sources}
    library = PrimitiveLibrary(specs, versions, game=binding.name)
    switched = () if tactical and lookahead else ("lookahead",) if tactical else ("tactical", "lookahead")
    # A game's own families carry its name (Quixo's "quixo_tactical", "quixo_lookahead"), and the generic ones
    # "generic": the switches leave them out too.
    owners = (binding.name, "generic") if binding.generic else (binding.name,)
    left_out = switched + tuple(f"{owner}_{family}" for owner in owners for family in switched)
    return library.without_families(*left_out) if left_out else library


_SHARED_LIBRARIES: dict[tuple, PrimitiveLibrary] = {}
#: The family of evaluator building blocks (Quarto's ``evaluation_blocks``) that a library may leave out.
EVALUATOR_BLOCKS_FAMILY = "evaluation_blocks"


def _file_stamp(path: str) -> tuple:
    """What identifies a plugin file's content cheaply: a changed file is loaded again."""
    try:
        stat = os.stat(path)
    except OSError:
        return (path, None)  # load_library reports the problem
    return (path, stat.st_mtime_ns, stat.st_size)


def shared_library(
    plugins: Sequence[str] = (),
    *,
    tactical: bool = True,
    lookahead: bool = True,
    game: str = DEFAULT_GAME,
    evaluator_blocks: bool = True,
) -> PrimitiveLibrary:
    """:func:`load_library`, loaded once per process for each game, set of plugin files and families.
    ``evaluator_blocks=False`` leaves out the family :data:`EVALUATOR_BLOCKS_FAMILY` (the evaluator library of the runs
    recorded before it existed).

    Loading runs every primitive's checks, so code that needs a library many times (each fitness task, each
    saved player) shares one; a plugin file that changes on disk is loaded again. The library is read-only
    once built.
    """
    plugins = tuple(plugins)
    key = (game, tuple(_file_stamp(path) for path in plugins), tactical, lookahead, evaluator_blocks)
    library = _SHARED_LIBRARIES.get(key)
    if library is None:
        library = load_library(plugins, tactical=tactical, lookahead=lookahead, game=game)
        if not evaluator_blocks:
            library = library.without_families(EVALUATOR_BLOCKS_FAMILY)
        _SHARED_LIBRARIES[key] = library
    return library


@dataclass(frozen=True)
class LibraryConfig:
    """Which primitive library a worker loads: plugin files (absolute paths), the tactical and lookahead families,
    the game, and the evaluator building blocks (:data:`EVALUATOR_BLOCKS_FAMILY`)."""

    plugins: tuple[str, ...] = ()
    tactical: bool = True
    lookahead: bool = True
    game: str = DEFAULT_GAME
    evaluator_blocks: bool = True


def get_library(config: LibraryConfig) -> PrimitiveLibrary:
    """The primitive library for ``config``, loaded once per process (plugins are re-loaded in each worker)."""
    return shared_library(
        config.plugins,
        tactical=config.tactical,
        lookahead=config.lookahead,
        game=config.game,
        evaluator_blocks=config.evaluator_blocks,
    )
