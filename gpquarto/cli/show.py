"""``gpquarto show FILE``: print a saved player's rules, metadata and fitness (or Graphviz DOT); also a game record
(its moves and final board) or a position; ``--png FILE`` draws the position or the game (a grid of frames)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_plugin_argument, describe_settings, trained_settings, whole_number
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.learned.storage import LEARNED_SUFFIX
from gpquarto.plain_files import read_plain_file
from gpquarto.safe_text import bounded_text, printable

if TYPE_CHECKING:  # the CLI imports the GP layer only when a command needs it
    from gpquarto.gp.genome import Genome
    from gpquarto.gp.primitives import PrimitiveLibrary


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "show",
        help="print a saved player's rules and metadata (or a game record, or a position)",
        description="Print the rules of a saved player (.p or .json), numbered, with its metadata and fitness. "
        "Given a game record (.json, as saved by watch --record or GameRecord.save) or position text instead, "
        "print the game's moves and final board, or the position.",
    )
    parser.add_argument("file", metavar="FILE", help="saved player (.p or .json), game record (.json) or position text")
    parser.add_argument("--dot", action="store_true", help="print the rule trees as a Graphviz DOT graph instead")
    parser.add_argument(
        "--original",
        action="store_true",
        help="a player with a simplified form beside it (best_player.simplified.json in a run folder): show the "
        "original rules instead of the simplified ones",
    )
    parser.add_argument(
        "--config", action="store_true", help="print every setting of the player's training config, one a line"
    )
    parser.add_argument("--png", default=None, metavar="IMAGE", help="draw the position or the game (PNG)")
    usage = parser.add_argument_group(
        "rule usage",
        "After the rules, a player's games show which rules carry it: how often each rule decided and how "
        "often its decision was optimal (graded by the exact solver where few squares are empty).",
    )
    usage.add_argument(
        "--games",
        type=usage_games,
        default=100,
        metavar="N",
        help=f"games played to measure rule usage (default 100, at most {MAX_USAGE_GAMES:,}; 0: none)",
    )
    usage.add_argument(
        "--against",
        action="append",
        default=None,
        metavar="SPEC",
        help="opponent in those games, in turn (repeatable; default: the game's evaluation opponents, "
        "random and minimax:depth=2 in Quarto)",
    )
    usage.add_argument("--seed", type=int, default=0, help="seed of those games (default 0)")
    usage.add_argument(
        "--grade-empties",
        type=int,
        default=8,
        metavar="N",
        help="grade decisions with at most N empty squares (default 8; 0: none)",
    )
    add_plugin_argument(parser, "primitive plugin file the player needs (repeatable)")
    parser.set_defaults(handler=run)


#: The most games ``show`` plays to measure rule usage: far more than a usage table needs, few enough to end.
MAX_USAGE_GAMES = 100_000


def usage_games(text: str) -> int:
    """argparse type of ``--games``: 0 to :data:`MAX_USAGE_GAMES`."""
    return whole_number(text, 0, MAX_USAGE_GAMES)


def config_summary(config: dict) -> str:
    """The training config in one sentence a reader can take in: the game and genome, the seed, the generations,
    population and games, the opponents and the final choice (values bounded and escaped)."""

    def value(key: str, default: object = "?") -> str:
        return printable(str(config.get(key, default)))[:120]

    game = value("game", DEFAULT_GAME)
    try:  # the game and the settings it was trained under, as every command names them
        where = describe_settings(game, trained_settings({"config": config}) or {})
    except (ValueError, KeyError):  # a game not installed here, or settings it does not have
        where = game
    islands = config.get("islands")
    population = f"{value('population')} genomes" + (
        f" in each of {islands} islands" if isinstance(islands, int) and islands > 1 else ""
    )
    generations = config.get("generations")
    return (
        f"trained: {where}, {value('genome', 'rules')} genomes, seed {value('seed')}; {value('generations')} "
        f"generation{'' if generations == 1 else 's'} of {population} x {value('games')} games against {value('opponents')}; champion chosen on "
        f"{value('final_games')} final games (every setting: show --config)"
    )


def describe(data: dict, genome, *, full_config: bool = False) -> str:
    """Readable text: metadata, fitness, the training config in a sentence (``full_config``: every setting, one a
    line), then numbered ``if ... then ...`` rules (metadata bounded and escaped)."""
    name = printable(str(data.get("name", "?")))[:200]
    version = printable(str(data.get("gpquarto_version", "?")))[:40]
    game = printable(str(data.get("game", DEFAULT_GAME)))[:40]
    lines = [f"player {name}, {game} (saved by gpquarto {version})"]
    fitness = data.get("fitness") or {}
    if fitness:
        items = ", ".join(
            f"{printable(str(key))} {bounded_text(value, 200)}" for key, value in list(fitness.items())[:20]
        )
        lines.append(f"fitness: {items}")
    config = data.get("config")
    if isinstance(config, dict) and config:
        if full_config:
            lines.append("config:")
            lines.extend(
                f"  {printable(str(key))[:60]}: {bounded_text(item, 200)}" for key, item in list(config.items())[:200]
            )
        else:
            lines.append(config_summary(config))
    if data.get("library_versions"):
        lines.append(f"primitive sources: {bounded_text(data['library_versions'])}")
    simplification = data.get("simplification")
    if isinstance(simplification, dict):
        from gpquarto.gp.simplify import simplification_text

        lines.append(simplification_text(simplification))
    lines.append(genome.describe())
    return "\n".join(lines)


def simplified_sibling(path: str) -> Path | None:
    """``X.simplified.json`` beside the player file ``X.p`` or ``X.json``, when it exists and was saved by the run
    that saved ``X`` (a stale one of another run is not this player)."""
    from gpquarto.gp.evaluator_files import is_evaluator_file
    from gpquarto.gp.storage import read_player_file, same_run, simplified_path

    def saved_data(file: Path) -> dict:
        if is_evaluator_file(file):
            data = read_plain_file(file, "evaluator file", json_format=True)
            return data if isinstance(data, dict) else {}
        return read_player_file(file)

    file = Path(path)
    if file.name.endswith(".simplified.json"):
        return None
    sibling = simplified_path(file)
    if not sibling.is_file():
        return None
    try:
        return sibling if same_run(saved_data(file), saved_data(sibling)) else None
    except ValueError:
        return None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(genome) -> str:
    """A Graphviz digraph: one cluster per rule, the *if* and *then* trees side by side."""
    lines = ["digraph player {", "  node [shape=box, fontname=Helvetica];"]
    counter = 0
    for kind, rules in genome.rule_lists.items():
        for number, rule in enumerate(rules, 1):
            lines.append(f"  subgraph cluster_{kind}_{number} {{")
            lines.append(f"    label={_quote(f'{kind} rule {number}')};")
            for part, tree in (("if", rule.condition), ("then", rule.action)):
                root = f"n{counter}"
                counter += 1
                lines.append(f"    {root} [label={_quote(part)}, shape=ellipse];")
                stack = [(root, 1)]
                for node in tree:
                    name = f"n{counter}"
                    counter += 1
                    lines.append(f"    {name} [label={_quote(node.name)}];")
                    parent, remaining = stack[-1]
                    lines.append(f"    {parent} -> {name};")
                    if remaining == 1:
                        stack.pop()
                    else:
                        stack[-1] = (parent, remaining - 1)
                    if node.arity:
                        stack.append((name, node.arity))
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from gpquarto.gp.evaluator_files import describe_evaluator, is_evaluator_file
    from gpquarto.gp.storage import default_library, genome_from_data, player_game, read_player_file

    if args.file.lower().endswith(LEARNED_SUFFIX):
        if args.dot or args.png:
            raise UsageError("--dot and --png draw evolved players, game records and positions, not a learned player")
        print(describe_learned(args.file))
        return 0
    game = game_or_position(args.file)
    if game is not None:
        return show_game_or_position(game, args.png)
    if args.png:
        raise UsageError("--png draws a game record or a position, not a player")
    sibling = None if args.original else simplified_sibling(args.file)
    if sibling is not None:
        print(f"(the simplified form of {args.file}, from {sibling}; --original shows the original)", file=sys.stderr)
    path = str(sibling or args.file)
    if is_evaluator_file(path):
        print(describe_evaluator(path, plugins=tuple(args.plugins) if args.plugins else None))
        return 0
    data = read_player_file(path)
    try:
        library = default_library(tuple(args.plugins) if args.plugins else None, player_game(data))
    except ValueError as error:
        raise UsageError(str(error)) from None
    genome = genome_from_data(data, library, path)
    if args.dot:
        print(to_dot(genome))
        return 0
    print(describe(data, genome, full_config=args.config), flush=True)
    if args.games:
        print(usage_text(genome, library, args, trained_settings(data)))
    return 0


def describe_learned(path: str) -> str:
    """What a learned player is, how it was learned and its size (the file's text is bounded and escaped)."""
    from gpquarto.learned.storage import read_learned_file

    header, arrays = read_learned_file(path)
    training = header["training"]
    config = training.get("config", {}) if isinstance(training.get("config"), dict) else {}
    if header["model"] == "ntuple":
        weights = arrays["weights"]
        size = f"n-tuple network {printable(str(header['features']))}: {weights.size} weights, {int((weights != 0).sum())} learned"
    else:
        size = f"table of {arrays['values'].size} afterstates (canonical keys)"
    lines = [
        f"learned player {printable(header['name'])} ({path})",
        f"  game: {printable(header['game'])} {bounded_text(header['settings'])}",
        f"  method: {printable(header['method'])}; {size}",
        f"  tactical guard: {'on' if header.get('guard') else 'off'}",
        f"  learned from {bounded_text(training.get('episodes', '?'))} episodes in {bounded_text(training.get('seconds', '?'))} s"
        + (
            f", seed {bounded_text(config.get('seed'))}, opponents {bounded_text(config.get('opponents'))}"
            if config
            else ""
        ),
        f"  training config: {bounded_text(config)}",
        f"  run: {bounded_text(header['run'])}; gpquarto {printable(header['gpquarto_version'])}",
    ]
    return "\n".join(lines)


def usage_text(
    genome: Genome, library: PrimitiveLibrary, args: argparse.Namespace, settings: dict[str, object] | None = None
) -> str:
    """The rule-usage section for ``show`` (see :mod:`gpquarto.grading.usage`): games of the player's game, under
    ``settings`` (default: the game's)."""
    from gpquarto.games.defaults import training_defaults
    from gpquarto.gp.player import make_evolved_player
    from gpquarto.grading.usage import format_usage, rule_usage
    from gpquarto.resolve import check_player_specs

    if not 0 <= args.grade_empties <= 16:
        raise UsageError(f"--grade-empties must be 0..16, got {args.grade_empties}")
    opponents = tuple(args.against or training_defaults(genome.game).evaluation_opponents)
    check_player_specs(opponents, at_least=1, game=genome.game)
    player = make_evolved_player(genome, library, name=Path(args.file).stem)
    report = rule_usage(
        player, opponents, games=args.games, seed=args.seed, grade_max_empties=args.grade_empties, settings=settings
    )
    return format_usage(report)


#: The characters of the board part of position text in every game (Quarto: hex digits; Quixo: X and O; '.').
POSITION_CHARACTERS = set("0123456789abcdefABCDEFXO./")


def game_or_position(text: str):
    """The :class:`~gpquarto.arena.record.GameRecord` in a game record file, the state of position text of any
    game (Quarto's tried first), or None (then ``text`` names a player file). Text that looks like a position
    but is one of no game is a one-line ``ValueError`` saying, for each game, what is wrong and where."""
    from gpquarto.arena.record import RECORD_FORMAT, GameRecord
    from gpquarto.games.registry import game_names, get_game

    path = Path(text)
    if path.is_file():
        if path.suffix.lower() != ".json":
            return None
        try:
            data = read_plain_file(path, "JSON file", json_format=True)
        except ValueError:
            return None  # the player reader says what is wrong
        return GameRecord.load(path) if isinstance(data, dict) and data.get("format") == RECORD_FORMAT else None
    board = text.split()[0] if text.split() else ""
    if "/" in board and " " in text.strip() and set(board) <= POSITION_CHARACTERS:  # position text, not a file
        errors = []
        for name in game_names():
            try:
                return get_game(name).from_text(text)
            except ValueError as error:
                errors.append(f"{name}: {error}")
        raise ValueError(f"not a position of any game ({'; '.join(errors)})")
    return None


def show_game_or_position(game, png: str | None) -> int:
    """Print a game record (moves, final board, result) or a position of any game; draw it to ``png`` when given
    (games with pictures)."""
    from gpquarto.arena.record import GameRecord
    from gpquarto.arena.views import outcome  # shared with watch and the web app
    from gpquarto.cli.common import game_title
    from gpquarto.games.capabilities import Pictures
    from gpquarto.games.drawing import text_drawing
    from gpquarto.games.registry import get_plugin

    name = game.game if isinstance(game, GameRecord) else game.game_name
    pictures = get_plugin(name).capability(Pictures) if png else None  # a game without them says so
    if isinstance(game, GameRecord):
        board = game.replay()
        print(f"{game_title(name, board.settings())}, {len(game.actions)} moves")
        print(f"{game.players[0]} (seat 0) against {game.players[1]} (seat 1), from {game.start}")
        print(f"Moves: {game.moves_text()}")
        print(text_drawing(board))
        print(f"Result: {outcome(game)}.")
    else:
        print(f"{game_title(name, game.settings())}: {game.text()}")
        print(text_drawing(game))
    if pictures is not None and png is not None:
        from gpquarto.cli.png import save_png

        record = isinstance(game, GameRecord)
        figure = pictures.game_figure(game, outcome(game)) if record else pictures.position_figure(game)
        save_png(figure, png)
        print(f"picture saved to {png}")
    return 0
