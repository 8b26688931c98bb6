"""Argument types and helpers shared by the commands."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gpquarto.games.interface import GameState
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_plugin, plugins, provided_examples
from gpquarto.games.settings import Setting, settings_from_text


def whole_number(text: str, minimum: int, maximum: int | None = None) -> int:
    """argparse type helper: ``text`` as a whole number from ``minimum`` to ``maximum`` (None: no maximum)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected a number >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise argparse.ArgumentTypeError(f"expected a number from {minimum} to {maximum}, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an int >= 1."""
    return whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: an int >= 0."""
    return whole_number(text, 0)


def port_number(text: str) -> int:
    """argparse type: a TCP port, 0..65535 (0: any free port)."""
    return whole_number(text, 0, 65535)


#: The most seconds a command-line time may be (a day): a per-decision time limit, a pause, a benchmark's repeat.
MAX_SECONDS = 86_400.0


def _finite_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite float > 0."""
    value = _finite_number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value


def non_negative_float(text: str) -> float:
    """argparse type: a finite float >= 0 (a weight)."""
    value = _finite_number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text}")
    return value


def positive_seconds(text: str) -> float:
    """argparse type: seconds, more than 0 and at most :data:`MAX_SECONDS`."""
    value = positive_float(text)
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_SECONDS:,.0f} seconds, got {text}")
    return value


def pause_seconds(text: str) -> float:
    """argparse type: a pause, 0 to :data:`MAX_SECONDS` seconds."""
    value = non_negative_float(text)
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_SECONDS:,.0f} seconds, got {text}")
    return value


def game_name(text: str) -> str:
    """argparse type: an installed game's name, or a name a game provider makes a game of
    (``openspiel:connect_four``), as the game calls itself; the registry's one-line error otherwise."""
    try:
        return get_plugin(text).name
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _SettingText(argparse.Action):
    """Keeps a game setting's text (``--size 4``) or a shortcut's value (``--advanced``) for
    :func:`complete_game_settings`, which converts it with the chosen game's schema."""

    def __init__(self, *args, setting: str, value: object = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.setting, self.value = setting, value

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        texts = dict(getattr(namespace, "game_setting_texts", None) or {})
        texts[self.setting] = str(self.value) if self.value is not None else values
        namespace.game_setting_texts = texts


def add_game_arguments(
    parser: argparse.ArgumentParser,
    *,
    settings: bool = True,
    unset: bool = False,
    help: str = "the game to play",
    players: tuple[str, ...] = (),
) -> None:
    """``--game NAME`` and, with ``settings``, an option for every setting of every installed game (from the
    games' settings schemas: ``--rules``, ``--size``, ``--advanced`` ...); :func:`complete_game_settings`
    converts them with the chosen game's schema once the command line is read, and sets ``args.NAME``. With
    ``unset``, ``args.game`` stays None when not given (a resumed run keeps its own game), and the settings are
    read by the default game's schema. ``players`` names the arguments that hold player specs: a setting the
    command line leaves out is the one the saved players among them were trained under (a player file carries
    its board and rules)."""
    group = parser.add_argument_group("game")
    examples = provided_examples()
    group.add_argument(
        "--game",
        type=game_name,
        metavar="GAME",
        default=None if unset else DEFAULT_GAME,
        help=f"{help}: {', '.join(game_names())}"
        + (f", or one such as {', '.join(examples)}" if examples else "")
        + f" (default {DEFAULT_GAME})",
    )
    if not settings:
        return
    declared: dict[str, list[tuple[str, Setting]]] = {}
    for plugin in plugins():
        for setting in plugin.settings:
            declared.setdefault(setting.name, []).append((plugin.name, setting))
    flags = set()
    for name, owners in declared.items():
        described = "; ".join(
            f"{game}: {setting.help + ', ' if setting.help else ''}{setting.describe()}, default {setting.default}"
            for game, setting in owners
        )
        group.add_argument(owners[0][1].flag, action=_SettingText, setting=name, metavar="VALUE", help=described)
        parser.set_defaults(**{name: None})
        for game, setting in owners:
            for shortcut, value in setting.shortcuts.items():
                if shortcut not in flags:
                    flags.add(shortcut)
                    group.add_argument(
                        f"--{shortcut}",
                        action=_SettingText,
                        nargs=0,
                        setting=name,
                        value=value,
                        help=f"same as {setting.flag} {value} ({game})",
                    )
    parser.set_defaults(game_setting_texts={}, game_settings_schema=True, player_arguments=players)


def complete_game_settings(args: argparse.Namespace) -> None:
    """Convert the game settings given on the command line with the chosen game's schema and set each as
    ``args.NAME`` (None when not given); a setting the game does not have, or a bad value, is a one-line
    ``ValueError``. The CLI's ``main`` calls it after parsing."""
    if not getattr(args, "game_settings_schema", False):
        return
    plugin = get_plugin(args.game or DEFAULT_GAME)
    given = settings_from_text(plugin.name, plugin.settings, args.game_setting_texts)
    specs = [spec for name in getattr(args, "player_arguments", ()) for spec in _specs(getattr(args, name, None))]
    given = {**players_settings(plugin, specs, given), **given}
    for name, value in given.items():
        setattr(args, name, value)
    args.game_settings_given = given


def _specs(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [spec for spec in value if isinstance(spec, str)] if isinstance(value, list | tuple) else []


def trained_settings(data: dict) -> dict[str, object] | None:
    """The game settings a saved player (or evaluator) was trained under, from its config, when the file says so
    and they are valid; else None (the game's defaults)."""
    from gpquarto.training.config import EvolutionConfig

    try:
        settings = EvolutionConfig.from_dict(data.get("config") or {}).game_settings()
    except (ValueError, TypeError, AttributeError):
        return None
    return settings or None


def saved_player_settings(spec: str, plugin: GamePlugin) -> dict[str, object] | None:
    """The complete settings of ``plugin``'s game that the saved player ``spec`` was trained under: an evolved or
    learned player's file, or the evaluator file of a searching player. None for a zoo player, a player of
    another game, or a file that cannot be read (what is wrong with it is said when it is loaded)."""
    from gpquarto.gp.evaluator_player import evaluator_file, is_evaluator_spec
    from gpquarto.gp.storage import player_game, read_player_file
    from gpquarto.learned.storage import LEARNED_SUFFIX, read_learned_header
    from gpquarto.plain_files import read_plain_file
    from gpquarto.resolve import is_player_file

    try:
        if is_evaluator_spec(spec):
            data = read_plain_file(evaluator_file(spec), "evaluator file", json_format=True)
            if not isinstance(data, dict):
                return None
            game, settings = data.get("game", DEFAULT_GAME), trained_settings(data)
        elif not is_player_file(spec) or not os.path.isfile(spec):
            return None
        elif spec.lower().endswith(LEARNED_SUFFIX):
            header = read_learned_header(spec)  # its arrays are read when the player is made
            game, settings = header["game"], header["settings"]
        else:
            data = read_player_file(spec)
            game, settings = player_game(data), trained_settings(data)
        if game != plugin.name:
            return None
        return plugin.check_settings(dict(settings or {}))
    except (ValueError, OSError, KeyError, TypeError):
        return None


def players_settings(plugin: GamePlugin, specs: list[str], given: dict[str, object]) -> dict[str, object]:
    """The settings that the saved players among ``specs`` were trained under, for those the command line did
    not give (``given``); two players trained under different values of one is a one-line ``ValueError``."""
    chosen: dict[str, tuple[object, str]] = {}
    for spec in specs:
        for name, value in (saved_player_settings(spec, plugin) or {}).items():
            if name in given:
                continue
            if name in chosen and chosen[name][0] != value:
                flag = next((setting.flag for setting in plugin.settings if setting.name == name), f"--{name}")
                raise ValueError(
                    f"{chosen[name][1]} was trained with {name} {chosen[name][0]} and {spec} with {name} {value}: "
                    f"choose one with {flag}"
                )
            chosen.setdefault(name, (value, spec))
    return {name: value for name, (value, _) in chosen.items()}


def game_settings(args: argparse.Namespace) -> tuple[str, dict[str, object]]:
    """The game and its complete settings that :func:`add_game_arguments` options ask for; a setting the game
    does not have or a bad value is a one-line ``ValueError``."""
    plugin = get_plugin(args.game or DEFAULT_GAME)
    return plugin.name, plugin.check_settings(_given_settings(args, plugin))


def given_settings(args: argparse.Namespace) -> dict[str, object]:
    """The settings the command line gave for its game, converted by the game's schema but not completed with its
    defaults (a command that has defaults of its own for them, such as ``grade``'s bank, completes them)."""
    return _given_settings(args, get_plugin(args.game or DEFAULT_GAME))


def _given_settings(args: argparse.Namespace, plugin: GamePlugin) -> dict[str, object]:
    """The settings the command line gave (converted; the game's settings only)."""
    if not hasattr(args, "game_settings_given"):
        complete_game_settings(args)
    return dict(getattr(args, "game_settings_given", {}))


def describe_settings(game: str, settings: dict[str, object]) -> str:
    """``"quarto, classic rules"``, ``"quixo, official rules, size 4, ply_limit 300, repetitions 3"``: the game
    and each setting as its schema shows it."""
    schema = {setting.name: setting for setting in get_plugin(game).settings}
    words = [schema[name].shown(value) if name in schema else f"{name} {value}" for name, value in settings.items()]
    return ", ".join([game, *words])


def game_title(game: str, settings: dict[str, object]) -> str:
    """``"Quarto, classic rules"``, ``"Quixo, official rules, size 5, ply_limit 300, repetitions 3"``."""
    plugin = get_plugin(game)
    return ", ".join([plugin.title, *describe_settings(game, settings).split(", ")[1:]])


def game_position(args: argparse.Namespace, text: str | None) -> GameState:
    """The start position of the game that :func:`add_game_arguments` options ask for, or the position ``text``
    of that game (settings given on the command line must agree with it); a bad setting or position text is a
    one-line ``ValueError`` (``"malformed position: ..."`` for the text)."""
    plugin = get_plugin(args.game)
    given = _given_settings(args, plugin)
    if text is None:
        return plugin.game.new_state(**given)
    plugin.game.check_settings(given)  # a bad setting says so, not "malformed position"
    try:
        return plugin.game.from_text(text, **given)
    except ValueError as error:
        raise ValueError(f"malformed position: {error}") from None


def add_time_limit_argument(parser: argparse.ArgumentParser) -> None:
    """``--time-limit SECONDS``: every decision's search budget; a decision slower than that forfeits the game."""
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds per decision: the zoo's searching players stop within it and play the best move found so far; "
        "a slower decision forfeits the game (measured when it returns: a saved player is not interrupted)",
    )


def opening_plies(text: str) -> int:
    """argparse type: a number of random opening plies, 0 to :data:`~gpquarto.arena.openings.MAX_OPENING_PLIES`."""
    from gpquarto.arena.openings import MAX_OPENING_PLIES

    return whole_number(text, 0, MAX_OPENING_PLIES)


def add_openings_argument(parser: argparse.ArgumentParser) -> None:
    """``--openings K``: each pair of games starts from K seeded random plies (deterministic players then differ)."""
    parser.add_argument(
        "--openings",
        type=opening_plies,
        default=0,
        metavar="K",
        help="start each pair of games (one per seat order) from the position after K random plies drawn from "
        "the seed, none of which ends the game, so deterministic players do not repeat the same games "
        "(default 0: the start position)",
    )


def add_plugin_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--plugin FILE`` (repeatable): primitive plugin files; sets ``args.plugins`` (None when not given)."""
    parser.add_argument(
        "--plugin", dest="plugins", action="append", default=None, metavar="FILE", type=_plugin_file, help=help
    )


def _plugin_file(text: str) -> str:
    """argparse type: a primitive plugin file that exists (it is loaded only when a player needs it)."""
    if not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"plugin file not found: {text}")
    if not text.endswith(".py"):
        raise argparse.ArgumentTypeError(f"a plugin is a Python file (.py), got {text}")
    return text


def check_output_folder(path: str, option: str, *, overwrite: bool = True) -> Path:
    """``path`` as a folder that can be written, checked before any work is done: it is created if missing;
    an existing file there, a folder that cannot be written, or (``overwrite=False``) a folder that is not
    empty is a one-line error naming ``option``."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{option} {path}: exists and is not a folder")
    if not overwrite and folder.is_dir() and any(folder.iterdir()):
        raise ValueError(f"{option} {path}: the folder already holds results (use --force to overwrite them)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{option} {path}: cannot create the folder ({error.strerror or error})") from None
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{option} {path}: the folder is not writable")
    return folder


def add_runner_arguments(parser: argparse.ArgumentParser, *, default_workers: str = "all cores") -> None:
    """``--workers N``, ``--scheduler ADDRESS`` and ``--dask-workers N``: where the work runs."""
    group = parser.add_argument_group("where it runs")
    group.add_argument(
        "--workers", type=positive_int, default=None, help=f"local worker processes (default: {default_workers})"
    )
    group.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="run on the Dask cluster at ADDRESS (e.g. tcp://host:8786)"
    )
    group.add_argument(
        "--dask-workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="run on a local Dask cluster of N processes",
    )


def make_runner_from_args(args: argparse.Namespace, *, tasks: int | None = None, default_workers: int | None = None):
    """The runner the ``add_runner_arguments`` options ask for (``default_workers`` when --workers is not given)."""
    from gpquarto.runner import make_runner

    if args.scheduler and args.dask_workers:
        raise ValueError("give --scheduler or --dask-workers, not both")
    workers = args.workers if args.workers is not None else default_workers
    return make_runner(workers, scheduler=args.scheduler, dask_workers=args.dask_workers, tasks=tasks)


class DeferredBar:
    """A tqdm bar on stderr drawn only from :meth:`start` on, once the work it counts has begun: a command whose
    checks fail prints its one-line error with no empty bar above it. ``options`` are tqdm's."""

    def __init__(self, **options: object) -> None:
        self.options = options
        self.bar: Any = None

    def start(self) -> None:
        """Draw the bar (once)."""
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(file=sys.stderr, **self.options)

    def update(self, count: int = 1, **postfix: str) -> None:
        """Count ``count`` more done (drawing the bar if :meth:`start` was not called), showing ``postfix``."""
        self.start()
        if postfix:
            self.bar.set_postfix(refresh=False, **postfix)
        self.bar.update(count)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextmanager
def progress_bar(total: int, unit: str, *, disable: bool = False, minimum: int = 200) -> Iterator:
    """A tqdm bar on stderr for long runs (``total >= minimum`` and not disabled), else a silent stand-in."""
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, disable=disable or total < minimum, file=sys.stderr, leave=False) as bar:
        yield bar
