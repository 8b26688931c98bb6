"""Saved players: round trips in both forms, usable as player names, and one-line errors for bad files."""

from __future__ import annotations

import json
import pickle
import random

import dill
import pytest

from gpquarto.arena.game import play_game
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.player import EvolvedPlayer
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.storage import load_player, player_data, read_player_file, save_player
from gpquarto.gp.variation import random_genome
from gpquarto.resolve import make_player
from gpquarto.training.evolution import make_generator


@pytest.fixture(scope="module")
def library():
    return get_library(LibraryConfig())


@pytest.fixture(scope="module")
def genome(library):
    return random_genome(
        random.Random(8), make_generator(library, 8), min_rules=3, max_rules=6, min_height=1, max_height=4
    )


@pytest.fixture()
def saved(tmp_path, genome, library):
    data = player_data(genome, library, name="champion", config={"seed": 3}, fitness={"score": 0.75, "wins": 12})
    paths = {}
    for suffix in (".p", ".json"):
        paths[suffix] = tmp_path / f"champion{suffix}"
        save_player(paths[suffix], data)
    return paths


def moves_of(player, seed: int) -> list[int]:
    record = play_game((player, make_player("random")), seed=seed)
    return list(record.actions)


@pytest.mark.parametrize("suffix", [".p", ".json"])
def test_round_trip_keeps_rules_metadata_and_play(saved, genome, library, suffix):
    player = load_player(saved[suffix])
    assert player.genome == genome
    assert player.name == "champion"
    assert player.metadata["fitness"] == {"score": 0.75, "wins": 12}
    assert player.metadata["config"] == {"seed": 3}
    assert set(player.metadata["primitives"]) <= set(library.specs)
    assert player.metadata["library_versions"] == library.versions
    original = EvolvedPlayer(genome, library)
    assert moves_of(player, 4) == moves_of(original, 4)


def test_players_saved_under_former_primitive_names_load_and_play_the_same(tmp_path, library):
    """Files written before the November 2026 renames (``colmore``, ``lte``...) keep working."""
    today = {
        "choose": [
            ["at_most(pieces_left, 4)", "first_available_piece(more_common_piece(safe_piece, tall_piece), safe_piece)"]
        ],
        "place": [["greater_than(pieces_placed, 2)", "square_in_fuller_column(safe_square, corner_square)"]],
    }
    before = {
        "choose": [["lte(pieces_left, 4)", "possible_piece(lessunique(safe_piece, tall_piece), safe_piece)"]],
        "place": [["gt(pieces_placed, 2)", "colmore(safe_square, corner_square)"]],
    }
    data = json.loads(json.dumps(player_data(Genome.from_data(today, library.primitive_set()), library)))
    data["rules"] = before
    data["primitives"] = {name: "builtin" for name in ("lte", "possible_piece", "lessunique", "gt", "colmore")}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    player = load_player(path)
    assert player.genome.to_data() == today
    assert moves_of(player, 5) == moves_of(EvolvedPlayer(Genome.from_data(today, library.primitive_set()), library), 5)


def test_saved_players_are_player_names(saved):
    for path in saved.values():
        player = make_player(str(path), seed=1)
        board = Board()
        assert player.choose_piece(board.view()) in board.legal_pieces()


def test_storage_stays_in_step_with_the_genome():
    from gpquarto.gp import storage
    from gpquarto.gp.bindings import gp_games

    for binding in gp_games():  # a file holds the rule kinds of its game's binding, no more, no less
        data = {"format": storage.PLAYER_FORMAT, "game": binding.name, "rules": dict.fromkeys(binding.kinds, [])}
        storage._validate(data)
        with pytest.raises(ValueError, match="rule lists"):
            storage._validate({**data, "rules": {**data["rules"], "other": []}})


def test_pickle_holds_plain_data_only(saved):
    with open(saved[".p"], "rb") as stream:
        data = pickle.load(stream)
    assert isinstance(data, dict) and data["format"] == "gpquarto-player/1"
    assert json.loads(saved[".json"].read_text()) == data


def _one_line_error(path, match: str) -> None:
    with pytest.raises(ValueError, match=match) as caught:
        load_player(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message


def test_missing_primitive_is_named(saved, tmp_path):
    data = json.loads(saved[".json"].read_text())
    data["rules"]["choose"][0][0] = "no_such_predicate"
    data["primitives"]["no_such_predicate"] = "/somewhere/my_plugin.py"
    path = tmp_path / "missing.json"
    path.write_text(json.dumps(data))
    _one_line_error(
        path, "unknown primitive 'no_such_predicate'.*saved with no_such_predicate from /somewhere/my_plugin.py"
    )


@pytest.mark.parametrize(
    "name, content, match",
    [
        ("random.p", bytes(random.Random(1).randrange(256) for _ in range(300)), "corrupt or foreign"),
        ("empty.p", b"", "truncated"),
        ("set.p", pickle.dumps({1, 2}), "holds a set"),
        ("complex.p", pickle.dumps(complex(1, 2)), "builtins.complex object"),
        ("board.p", dill.dumps(Board()), "gpquarto.games.quarto.board.Board object"),
        ("lambda.p", dill.dumps(lambda: 1, recurse=True), "object, not plain data"),
        ("list.p", pickle.dumps([1, 2]), "not a gpquarto player \\(holds a list"),
        ("random.json", bytes(random.Random(2).randrange(256) for _ in range(300)), "corrupt or foreign"),
        ("list.json", b"[1, 2, 3]", "holds a list"),
        ("other.json", b'{"format": "something-else", "rules": {}}', "format is 'something-else'"),
        ("norules.json", b'{"format": "gpquarto-player/1", "rules": {"choose": []}}', "'choose', 'place'"),
        ("badpair.json", b'{"format": "gpquarto-player/1", "rules": {"choose": [["a"]], "place": []}}', "text pairs"),
        (
            "hostile.json",
            b'{"format": "gpquarto-player/1", "rules": {"choose": [["__import__(\'os\').system(\'true\')", "x"]], "place": []}}',
            "unknown primitive '__import__'",
        ),
        ("player.txt", b"hello", "must end in .p or .json"),
    ],
)
def test_bad_files_give_one_line_errors(tmp_path, name, content, match):
    path = tmp_path / name
    path.write_bytes(content)
    _one_line_error(path, match)


@pytest.mark.parametrize("suffix", [".p", ".json"])
def test_truncated_files(saved, tmp_path, suffix):
    raw = saved[suffix].read_bytes()
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(raw[: len(raw) // 2])
    _one_line_error(path, "truncated|corrupt")


def test_read_player_file_and_atomic_save_leave_no_temporary_files(saved, tmp_path):
    assert read_player_file(saved[".json"])["name"] == "champion"
    assert sorted(item.name for item in tmp_path.iterdir()) == ["champion.json", "champion.p"]
    with pytest.raises(ValueError, match="must end in .p or .json"):
        save_player(tmp_path / "x.txt", {})
