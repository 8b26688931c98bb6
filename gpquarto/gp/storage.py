"""Saved players: ``.p`` (dill) and ``.json`` (the safe form), both holding plain data only.

A saved player is a dict: the format tag, the gpquarto version, its game (``"game"``; files written before
games other than Quarto have none and are Quarto players), the rules as tree texts (one list per rule kind of
the game: Quarto's ``choose`` and ``place``, Quixo's ``move``), the primitives they
use (with the source of each) and the versions of the primitive sources, the training config and the
fitness. Neither form refers to ``deap.creator`` classes or to code: loading parses the rule texts with
:mod:`gpquarto.gp.textform` against the primitive library. ``.p`` files are read with an unpickler that
refuses every global, so a foreign pickle cannot run code either. Any problem (missing primitive, corrupt,
truncated or foreign file) is a one-line ``ValueError`` naming the file. Writes are atomic.

Players trained with plugin primitives need those plugins when loaded: pass ``plugins=`` to
:func:`load_player`, or list the files in the ``GPQUARTO_PLUGINS`` environment variable (separated by
``os.pathsep``) for players named on the command line.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

from gpquarto.atomic import write_bytes_atomic
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.bindings import gp_game, gp_games
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import shared_library
from gpquarto.gp.player import RuleListPlayer, make_evolved_player
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.plain_files import read_checked_file

PLAYER_FORMAT = "gpquarto-player/1"
#: Suffixes of saved players: ``.p`` (dill) and ``.json`` (safe text form).
SUFFIXES = (".p", ".json")
PLUGINS_VARIABLE = "GPQUARTO_PLUGINS"


def player_data(
    genome: Genome,
    library: PrimitiveLibrary,
    *,
    name: str = "evolved",
    config: dict | None = None,
    fitness: dict | None = None,
    run: dict | None = None,
) -> dict:
    """The plain-data description of ``genome`` that both file forms store; ``run`` says which training run
    made it (its id and folder), so that a run never overwrites another run's player."""
    from gpquarto import __version__

    used = sorted({node.name for rule in genome.all_rules() for tree in (rule.condition, rule.action) for node in tree})
    sources = {primitive: library.get(primitive).source for primitive in used}
    return {
        "format": PLAYER_FORMAT,
        "gpquarto_version": __version__,
        "game": genome.game,
        "name": name,
        "rules": genome.to_data(),
        "primitives": sources,
        "library_versions": dict(getattr(library, "versions", {})),
        "config": dict(config or {}),
        "fitness": dict(fitness or {}),
        "run": dict(run or {}),
    }


def save_player(path: str | os.PathLike[str], data: dict) -> None:
    """Write ``data`` (from :func:`player_data`) to ``path`` atomically; the suffix picks the form."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        payload = (json.dumps(data, indent=2) + "\n").encode("utf-8")
    elif suffix == ".p":
        import dill

        payload = dill.dumps(data, protocol=4)
    else:
        raise ValueError(f"{path}: a saved player file must end in .p or .json")
    write_bytes_atomic(path, payload)


def simplified_path(path: str | os.PathLike[str]) -> Path:
    """Where the simplified form of the player file ``X.p`` (or ``X.json``) lives: ``X.simplified.json`` beside
    it. A run writes one beside its best player and beside that player's copy; ``show`` reads it."""
    file = Path(path)
    return file.with_name(f"{file.stem}.simplified.json")


def saved_run_id(data: dict) -> object:
    """The id of the training run that saved a player's (or an evaluator's) data, or None (a hand-made file)."""
    run = data.get("run")
    return run.get("id") if isinstance(run, dict) else None


def same_run(first: dict, second: dict) -> bool:
    """Whether two players' data name the same training run (or both name none, as hand-made files)."""
    return saved_run_id(first) == saved_run_id(second)


def read_player_file(path: str | os.PathLike[str]) -> dict:
    """The validated plain data of a saved player (rules still as text)."""
    path = str(path)
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path}: a saved player file must end in .p or .json")
    return read_checked_file(
        path,
        "player file",
        _validate,
        json_format=suffix == ".json",
        problem="not a gpquarto player ({error})",
    )


def _provided_game(game: object) -> bool:
    """True when ``game`` names a game that a game provider makes (``openspiel:connect_four``): its rule players
    use the generic binding."""
    if not isinstance(game, str) or ":" not in game:
        return False
    try:
        return gp_game(game).name == game
    except ValueError:
        return False


def _validate(data: object) -> dict:
    """``data``, once checked to be a player description."""
    if not isinstance(data, dict):
        raise ValueError(f"holds a {type(data).__name__}, not a player description")
    if data.get("format") != PLAYER_FORMAT:
        raise ValueError(f"format is {str(data.get('format'))[:40]!r}, expected {PLAYER_FORMAT!r}")
    game = data.get("game", DEFAULT_GAME)
    known = [binding.name for binding in gp_games()]
    if game not in known and not _provided_game(game):
        raise ValueError(f"'game' is {str(game)[:40]!r}, not a game with rule players ({', '.join(known)})")
    kinds = gp_game(game).kinds
    rules = data.get("rules")
    if not isinstance(rules, dict) or set(rules) != set(kinds):
        raise ValueError(f"'rules' of a {game} player must hold the rule lists {', '.join(map(repr, kinds))}")
    for kind in kinds:
        if not isinstance(rules[kind], list) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(text, str) for text in pair)
            for pair in rules[kind]
        ):
            raise ValueError(f"{kind} rules must be a list of [if, then] text pairs")
    for key, expected in (
        ("primitives", dict),
        ("library_versions", dict),
        ("config", dict),
        ("fitness", dict),
        ("run", dict),
        ("name", str),
        ("simplification", dict),
    ):
        if key in data and not isinstance(data[key], expected):
            raise ValueError(f"{key!r} must be a {expected.__name__}")
    return data


def plugins_from_environment() -> tuple[str, ...]:
    """The plugin files listed in ``GPQUARTO_PLUGINS`` (separated by ``os.pathsep``)."""
    return tuple(item for item in os.environ.get(PLUGINS_VARIABLE, "").split(os.pathsep) if item)


def player_game(data: dict) -> str:
    """The game of validated player data (Quarto for files that name none)."""
    return data.get("game", DEFAULT_GAME)


def default_library(plugins: tuple[str, ...] | None = None, game: str = DEFAULT_GAME) -> PrimitiveLibrary:
    """The full primitive library of ``game`` plus ``plugins`` (default: the files in ``GPQUARTO_PLUGINS``),
    loaded once."""
    return shared_library(plugins_from_environment() if plugins is None else plugins, tactical=True, game=game)


def genome_from_data(data: dict, library: PrimitiveLibrary, path: str = "") -> Genome:
    """Parse the rules of validated player data; a missing primitive is named with where it came from, a player
    of another game than the library's is refused."""
    game = player_game(data)
    if game != library.game:
        where = f"{path}: " if path else ""
        raise ValueError(f"{where}a {game} player, not a {library.game} player")
    try:
        return Genome.from_data(data["rules"], library.primitive_set(), game)
    except ValueError as error:
        message = str(error)
        for primitive, source in data.get("primitives", {}).items():
            if f"'{primitive}'" in message and primitive not in library:
                message += f"; the player was saved with {primitive} from {source}"
                if source != "builtin":
                    message += f" (load it with --plugin or {PLUGINS_VARIABLE})"
                break
        raise ValueError(f"{path}: {message}" if path else message) from None


class PluginChangedWarning(UserWarning):
    """A primitive source (a plugin file) differs from the one the player was saved with."""


def changed_sources(data: dict, library: PrimitiveLibrary) -> list[str]:
    """One line for each plugin file the player was saved with whose content (its hash) has changed since:
    the player may not play as it did. Files are matched by their resolved path."""
    saved = {os.path.realpath(source): version for source, version in data.get("library_versions", {}).items()}
    messages = []
    for source, version in getattr(library, "versions", {}).items():
        before = saved.get(os.path.realpath(source))
        if before is not None and before != version and str(before).startswith("sha256:"):
            messages.append(f"plugin {source} has changed since the player was saved ({before}, now {version})")
    return messages


def load_player(
    path: str | os.PathLike[str],
    library: PrimitiveLibrary | None = None,
    *,
    seed: int | None = None,
    plugins: tuple[str, ...] | None = None,
    game: str | None = None,
) -> RuleListPlayer:
    """The evolved player of a ``.p`` or ``.json`` file (an :class:`~gpquarto.games.quarto.gp.player.EvolvedPlayer` for
    Quarto, a :class:`~gpquarto.gp.player.RulePlayer` for Quixo); with ``game``, a player of another game is
    refused in one line."""
    data = read_player_file(path)
    return player_from_data(data, library, seed=seed, plugins=plugins, source=str(path), game=game)


def player_from_data(
    data: dict,
    library: PrimitiveLibrary | None = None,
    *,
    seed: int | None = None,
    plugins: tuple[str, ...] | None = None,
    source: str = "",
    game: str | None = None,
) -> RuleListPlayer:
    """The evolved player of validated player data (what a file holds; workers on other machines get a saved
    player this way, not by its path); ``source`` names it in messages; with ``game``, a player of another game
    is refused in one line."""
    _validate(data)
    saved_game = player_game(data)
    if game is not None and saved_game != game:
        raise ValueError(f"{source or 'the player'} is a {saved_game} player, not a {game} player")
    library = library if library is not None else default_library(plugins, saved_game)
    for message in changed_sources(data, library):
        warnings.warn(f"{source}: {message}" if source else message, PluginChangedWarning, stacklevel=3)
    genome = genome_from_data(data, library, source)
    metadata = {key: value for key, value in data.items() if key != "rules"}
    name = data.get("name") or (Path(source).stem if source else "evolved")
    return make_evolved_player(genome, library, seed=seed, name=name, metadata=metadata)
