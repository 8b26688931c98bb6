"""The GP core per game: bindings, registration and libraries per game, Quixo genomes, rule players and files."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

from gpquarto.games.quarto.gp.player import EvolvedPlayer
from gpquarto.games.quarto.gp.rule_set import RuleSet
from gpquarto.games.quixo.board import QuixoBoard, QuixoRules
from gpquarto.games.quixo.gp.binding import winning_moves
from gpquarto.games.quixo.gp.features import QuixoFeatures
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import GameRuleSet, Genome, compile_rules
from gpquarto.gp.library import LibraryConfig, get_library, load_library
from gpquarto.gp.player import RulePlayer, make_evolved_player
from gpquarto.gp.plugins import PluginError
from gpquarto.gp.primitives import PrimitiveError, PrimitiveLibrary, make_spec, primitive, registering, sample_positions
from gpquarto.gp.storage import load_player, player_data, save_player
from gpquarto.gp.textform import parse_tree
from gpquarto.gp.types import NO_ACTION, Count, Move, Square
from gpquarto.gp.variation import mutate_genome, random_genome, rule_crossover, tree_crossover

REFERENCE_NAMES = Path(__file__).resolve().parent / "reference" / "quarto_primitives.txt"


@pytest.fixture(scope="module")
def quixo_library() -> PrimitiveLibrary:
    return get_library(LibraryConfig(game="quixo"))


def random_quixo_genome(seed: int, library: PrimitiveLibrary, rules: int = 4) -> Genome:
    generator = TreeGenerator(library.primitive_set(), 6)
    return random_genome(
        random.Random(seed), generator, min_rules=1, max_rules=rules, min_height=1, max_height=4, game="quixo"
    )


# -- registration per game --------------------------------------------------------------------------------


def test_a_primitive_belongs_to_the_game_of_its_features_and_types():
    def neutral(a: Count, b: Count) -> Count:
        """Neutral."""
        return a + b

    def quixo_only(features: QuixoFeatures) -> Count:
        """Quixo."""
        return len(features.legal_moves)

    def move_filter(first: Move, second: Move) -> Move:
        """Quixo by its node types alone."""
        return first

    def quarto_only(square: Square) -> bool:
        """Quarto by its node type."""
        return square == 0

    assert make_spec(neutral, family="t").game is None
    assert make_spec(quixo_only, family="t").game == "quixo"
    assert make_spec(quixo_only, family="t").uses_features
    assert make_spec(move_filter, family="t").game == "quixo"
    assert make_spec(quarto_only, family="t").game == "quarto"


def test_mixing_two_games_is_refused_in_one_line():
    def mixed(features: QuixoFeatures, square: Square) -> Move:
        """Mixed."""
        return NO_ACTION

    with pytest.raises(PrimitiveError) as caught:
        make_spec(mixed, family="t")
    message = str(caught.value)
    assert "\n" not in message and "'mixed'" in message and "quarto and quixo" in message


def test_quixo_primitives_are_checked_on_quixo_samples():
    seen = set()
    with registering() as specs:

        @primitive(family="t")
        def mover_cubes(features: QuixoFeatures) -> Count:
            """Cubes of the mover."""
            seen.add((features.size, features.course))
            return bin(features.own).count("1")

    assert [spec.game for spec in specs] == ["quixo"]
    assert seen == {(4, False), (4, True), (5, False), (5, True)}


def test_quixo_sample_positions_cover_sizes_rules_stages_and_a_win_in_reach():
    positions = sample_positions("quixo")
    assert all(isinstance(board, QuixoBoard) and not board.is_over() for board in positions)
    assert {(board.size, board.rules) for board in positions} == {(n, r) for n in (4, 5) for r in QuixoRules}
    assert any(board.x_mask == board.o_mask == 0 for board in positions)
    assert any(len(board.history) >= 30 for board in positions)
    assert sum(1 for board in positions if winning_moves(board)) >= 4
    assert [board.text() for board in positions] == [board.text() for board in sample_positions("quixo")]


def test_a_quixo_primitive_proposing_an_illegal_move_is_refused():
    with pytest.raises(PrimitiveError) as caught, registering():

        @primitive(family="t")
        def corner_from_the_top(features: QuixoFeatures) -> Move:
            """Cell 0 pushed back in at its own end: never legal."""
            return 0

    message = str(caught.value)
    assert (
        "\n" not in message and "'corner_from_the_top'" in message and "neither a legal move nor NO_ACTION" in message
    )


QUIXO_PLUGIN = '''
from gpquarto.gp.primitives import primitive
from gpquarto.games.quixo.gp.features import QuixoFeatures
from gpquarto.gp.types import NO_ACTION, Count, Move


@primitive
def last_legal_move(features: QuixoFeatures) -> Move:
    """The highest legal move."""
    moves = features.legal_moves
    return moves[-1] if moves else NO_ACTION


@primitive
def doubled(count: Count) -> Count:
    """Twice the count (neutral)."""
    return 2 * count
'''


def test_a_plugin_file_adds_quixo_primitives_and_its_neutral_ones_to_both_games(tmp_path):
    plugin = tmp_path / "quixo_extra.py"
    plugin.write_text(textwrap.dedent(QUIXO_PLUGIN))
    quixo = load_library([str(plugin)], entry_points=False, game="quixo")
    assert quixo.get("last_legal_move").source == str(plugin) and quixo.get("last_legal_move").game == "quixo"
    quarto = load_library([str(plugin)], entry_points=False)
    assert "doubled" in quarto and "last_legal_move" not in quarto
    only_quixo = tmp_path / "only_quixo.py"
    only_quixo.write_text(textwrap.dedent(QUIXO_PLUGIN).split("@primitive\ndef doubled")[0])
    with pytest.raises(PluginError, match="registers no quarto primitive"):
        load_library([str(only_quixo)], entry_points=False)


# -- libraries per game -----------------------------------------------------------------------------------


def test_the_quarto_library_is_todays_in_todays_order():
    library = load_library(entry_points=False)
    assert library.game == "quarto"
    assert [spec.name for spec in library] == REFERENCE_NAMES.read_text().split()


def test_the_quixo_library_holds_neutral_and_quixo_primitives(quixo_library):
    quarto = load_library(entry_points=False)
    assert quixo_library.game == "quixo"
    assert {spec.game for spec in quixo_library} == {None, "quixo"}
    neutral = [spec.name for spec in quarto if spec.game is None]
    assert [spec.name for spec in quixo_library if spec.game is None] == neutral
    assert {"first_legal_move", "winning_move"} <= {spec.name for spec in quixo_library}
    quixo_library.check_reachable(gp_game("quixo").root_types)
    with pytest.raises(PrimitiveError, match="is a quixo primitive: it cannot join a quarto library"):
        PrimitiveLibrary([quixo_library.get("winning_move")])


def test_another_games_primitive_in_a_tree_text_is_named_with_the_game(quixo_library):
    with pytest.raises(ValueError) as caught:
        Genome.from_data({"move": [["True", "safe_square"]]}, quixo_library.primitive_set(), "quixo")
    message = str(caught.value)
    assert "\n" not in message and "'safe_square'" in message and "quixo" in message
    quarto = load_library(entry_points=False)
    with pytest.raises(ValueError, match="'winning_move'.*quarto"):
        parse_tree("winning_move", quarto.primitive_set(), Square)


def test_the_primitives_command_lists_a_games_library(capsys):
    from gpquarto.cli import main

    assert main(["primitives", "--game", "quixo"]) == 0
    out = capsys.readouterr().out
    assert "winning_move -> Move" in out and "safe_square" not in out and "quixo primitives" in out


# -- genomes per game -------------------------------------------------------------------------------------


def test_quixo_genomes_round_trip_through_their_text(quixo_library):
    pset = quixo_library.primitive_set()
    for seed in range(20):
        genome = random_quixo_genome(seed, quixo_library)
        data = genome.to_data()
        assert list(data) == ["move"]
        again = Genome.from_data(json.loads(json.dumps(data)), pset, "quixo")
        assert again == genome and again.to_data() == data and again.game == "quixo"
        assert again.describe().startswith("move rules:\n  1. if ")


def test_a_quarto_genome_keeps_its_form():
    genome = Genome([], [])
    assert genome.kinds == ("choose", "place") and genome.to_data() == {"choose": [], "place": []}
    assert genome.choose_rules == genome.place_rules == []
    with pytest.raises(ValueError, match="kinds move only"):
        Genome.of("quixo", {"choose": []})


def test_variation_keeps_a_quixo_genome_a_quixo_genome(quixo_library):
    generator = TreeGenerator(quixo_library.primitive_set(), 6)
    rng = random.Random(3)
    first, second = random_quixo_genome(1, quixo_library), random_quixo_genome(2, quixo_library)
    limits = {"min_rules": 1, "max_rules": 6, "min_height": 1, "max_height": 3}
    for _ in range(30):
        first, second = rule_crossover(rng, first, second)
        first, second = tree_crossover(rng, first, second, 6)
        first = mutate_genome(rng, first, generator, **limits)
        for genome in (first, second):
            assert genome.game == "quixo" and genome.kinds == ("move",)
            assert all(
                rule.action[0].ret is Move or issubclass(rule.action[0].ret, Move) for rule in genome.all_rules()
            )


# -- rule sets and players --------------------------------------------------------------------------------


def slow_value(nodes: list, library: PrimitiveLibrary, features: QuixoFeatures) -> tuple[object, list]:
    """Evaluate a prefix node list by plain recursion, straight from the library's functions."""
    node, rest = nodes[0], nodes[1:]
    spec = library.get(node.name)
    children = []
    for _ in range(node.arity):
        value, rest = slow_value(rest, library, features)
        children.append(value)
    if spec.value is not None:
        return spec.value, rest
    return (spec.function(features, *children) if spec.uses_features else spec.function(*children)), rest


def slow_decision(genome: Genome, library: PrimitiveLibrary, board: QuixoBoard) -> int | None:
    """The first rule whose if holds and whose then is a legal action, or None (a fallback)."""
    legal = board.legal_actions()
    for rule in genome.rules("move"):
        features = QuixoFeatures(board.view())
        if slow_value(list(rule.condition), library, features)[0]:
            action = slow_value(list(rule.action), library, features)[0]
            if action in legal:
                return action
    return None


def test_a_quixo_rule_player_decides_as_the_first_rule_that_fires(quixo_library):
    rng = random.Random(7)
    checked = fallbacks = 0
    for seed in range(12):
        genome = random_quixo_genome(seed, quixo_library, rules=6)
        player = make_evolved_player(genome, quixo_library, seed=seed)
        assert isinstance(player, RulePlayer) and player.game == "quixo"
        assert isinstance(player.rules, GameRuleSet)
        for _ in range(15):
            board = QuixoBoard(rng.choice((4, 5)), rng.choice(list(QuixoRules)))
            for _ in range(rng.randrange(40)):
                if board.is_over():
                    break
                board.apply(rng.choice(board.legal_actions()))
            if board.is_over():
                continue
            expected = slow_decision(genome, quixo_library, board)
            before = player.fallbacks
            action = player.decide(board.view())
            assert action in board.legal_actions()
            if expected is None:
                assert player.fallbacks == before + 1 and player.explain()["rule"] is None
                fallbacks += 1
            else:
                assert action == expected and player.fallbacks == before
                assert player.explain()["text"] == str(genome.rules("move")[player.explain()["rule"] - 1])
            checked += 1
    assert checked > 100 and 0 < fallbacks < checked


def test_rule_sets_and_players_follow_the_genomes_game(quixo_library):
    quarto = load_library(entry_points=False)
    assert isinstance(compile_rules(Genome([], []), quarto), RuleSet)
    assert isinstance(make_evolved_player(Genome([], []), quarto), EvolvedPlayer)
    with pytest.raises(ValueError, match="quixo genome cannot play with the quarto primitive library"):
        make_evolved_player(random_quixo_genome(0, quixo_library), quarto)


def test_a_quixo_rule_player_plays_in_the_arena(quixo_library):
    from gpquarto.arena.game import play_game
    from gpquarto.players.registry import make_named_player

    genome = Genome.from_data(
        {"move": [["can_win", "winning_move"], ["True", "first_legal_move"]]}, quixo_library.primitive_set(), "quixo"
    )
    player = make_evolved_player(genome, quixo_library, seed=0)
    opponent = make_named_player("random", game="quixo")
    wins = 0
    for game in range(6):
        players = (player, opponent) if game % 2 == 0 else (opponent, player)
        record = play_game(players, game="quixo", settings={"size": 4}, seed=game)
        wins += record.winner == game % 2
    assert wins >= 4 and player.fallbacks == 0 and player.decisions > 0


# -- saved players record their game ----------------------------------------------------------------------


def saved_quixo_player(folder: Path, library: PrimitiveLibrary, suffix: str = ".json") -> Path:
    genome = Genome.from_data({"move": [["can_win", "winning_move"]]}, library.primitive_set(), "quixo")
    path = folder / f"quixo_player{suffix}"
    save_player(path, player_data(genome, library, name="q"))
    return path


@pytest.mark.parametrize("suffix", [".json", ".p"])
def test_saved_quixo_players_record_their_game_and_load_for_it_only(tmp_path, quixo_library, suffix):
    path = saved_quixo_player(tmp_path, quixo_library, suffix)
    player = load_player(path)
    assert isinstance(player, RulePlayer) and player.genome.game == "quixo" and player.metadata["game"] == "quixo"
    assert load_player(path, game="quixo").genome == player.genome
    with pytest.raises(ValueError) as caught:
        load_player(path, game="quarto")
    assert "\n" not in str(caught.value) and "is a quixo player, not a quarto player" in str(caught.value)


def test_old_player_files_without_a_game_are_quarto(tmp_path):
    data = {"format": "gpquarto-player/1", "rules": {"choose": [], "place": []}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert isinstance(load_player(path), EvolvedPlayer)
    with pytest.raises(ValueError, match="is a quarto player, not a quixo player"):
        load_player(path, game="quixo")
    data["game"] = "chess"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="'game' is 'chess', not a game with rule players"):
        load_player(path)


def test_a_quixo_player_file_with_quarto_rule_kinds_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "gpquarto-player/1", "game": "quixo", "rules": {"choose": [], "place": []}}))
    with pytest.raises(ValueError, match="'rules' of a quixo player must hold the rule lists 'move'"):
        load_player(path)


def test_quixo_rule_texts_are_never_code(quixo_library):
    with pytest.raises(ValueError, match="unknown primitive '__import__'"):
        Genome.from_data({"move": [["__import__('os')", "first_legal_move"]]}, quixo_library.primitive_set(), "quixo")


@pytest.mark.parametrize(
    "command",
    [
        ["match", "{quixo}", "random", "--games", "2"],
        ["watch", "{quixo}", "random", "--delay", "0"],
        ["tournament", "{quixo}", "random", "--games", "2", "--workers", "1", "--out", "{folder}/t1"],
        ["match", "{quarto}", "random", "--games", "2", "--game", "quixo"],
        ["watch", "{quarto}", "random", "--delay", "0", "--game", "quixo"],
        [
            "tournament",
            "{quarto}",
            "random",
            "--games",
            "2",
            "--game",
            "quixo",
            "--workers",
            "1",
            "--out",
            "{folder}/t2",
        ],
    ],
)
def test_a_player_file_of_the_other_game_is_refused_in_one_line(tmp_path, quixo_library, capsys, command):
    from gpquarto.cli import main

    files = {
        "quixo": str(saved_quixo_player(tmp_path, quixo_library)),
        "quarto": str(Path(__file__).resolve().parent / "reference" / "quarto_run" / "best_player.json"),
        "folder": str(tmp_path),
    }
    assert main([part.format(**files) for part in command]) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and error.startswith("gpquarto: error: ") and " player, not a " in error


def test_saved_quixo_players_play_matches_tournaments_watch_and_show(tmp_path, quixo_library, capsys):
    from gpquarto.cli import main

    path = str(saved_quixo_player(tmp_path, quixo_library))
    assert main(["match", path, "random", "--games", "2", "--game", "quixo"]) == 0
    assert main(["watch", path, "random", "--delay", "0", "--game", "quixo", "--size", "4"]) == 0
    out = tmp_path / "tournament"
    assert (
        main(["tournament", path, "random", "--games", "2", "--game", "quixo", "--workers", "1", "--out", str(out)])
        == 0
    )
    assert main(["show", path, "--games", "4"]) == 0
    shown = capsys.readouterr().out
    assert "move rules:\n  1. if can_win_now then winning_move" in shown and "move rules (" in shown
