"""One resolver for player specs: zoo names and saved player files, with one-line errors."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.gp.player import EvolvedPlayer
from gpquarto.gp.library import shared_library
from gpquarto.gp.storage import player_data, save_player
from gpquarto.gp.variation import random_genome
from gpquarto.players.random_player import RandomPlayer
from gpquarto.resolve import check_player_specs, is_player_file, make_player, make_unattended_player
from gpquarto.training.evolution import make_generator


def test_names_and_files_both_resolve(tmp_path):
    assert isinstance(make_player("random", seed=1), RandomPlayer)
    library = shared_library()
    genome = random_genome(
        random.Random(3), make_generator(library, 6), min_rules=2, max_rules=3, min_height=1, max_height=3
    )
    path = tmp_path / "p.json"
    save_player(path, player_data(genome, library, name="p"))
    player = make_player(str(path), seed=1)
    assert isinstance(player, EvolvedPlayer) and player.name == "p" and player.genome == genome


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing_file.p", "player file not found: missing_file.p"),
        ("nosuch", "unknown player 'nosuch'"),
        ("", "non-empty string"),
    ],
)
def test_bad_specs_give_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=message) as error:
        make_player(spec)
    assert "\n" not in str(error.value)


def test_a_file_with_a_foreign_suffix_is_refused(tmp_path):
    path = tmp_path / "player.pkl"
    path.write_bytes(b"junk")
    assert is_player_file(str(path))
    with pytest.raises(ValueError, match="saved players end in .p, .json, .npz"):
        make_player(str(path))


def test_unattended_refuses_a_person_and_lists_are_checked():
    with pytest.raises(ValueError, match="needs a person"):
        make_unattended_player("human")
    with pytest.raises(ValueError, match="listed twice"):
        check_player_specs(["random", "random"])
    with pytest.raises(ValueError, match="at least 2"):
        check_player_specs(["random"])


PLUGIN = '''
from gpquarto.gp.primitives import primitive
from gpquarto.games.quarto.gp.features import Features
from gpquarto.gp.types import Square


@primitive
def far_corner_square(features: Features) -> Square:
    """The first free corner, or -1."""
    return next((s for s in (0, 3, 12, 15) if features.is_legal_square(s)), -1)
'''


def test_a_changed_plugin_file_is_warned_about_in_one_line(tmp_path, capsys):
    from gpquarto.cli import main
    from gpquarto.gp.genome import Genome
    from gpquarto.gp.library import load_library

    plugin = tmp_path / "corners.py"
    plugin.write_text(PLUGIN)
    library = load_library([str(plugin)])
    genome = Genome.from_data(
        {"choose": [["True", "safe_piece"]], "place": [["True", "far_corner_square"]]}, library.primitive_set()
    )
    path = tmp_path / "cornered.json"
    save_player(path, player_data(genome, library, name="cornered"))
    assert main(["match", str(path), "random", "--games", "2", "--quiet", "--plugin", str(plugin)]) == 0
    assert "warning" not in capsys.readouterr().err
    plugin.write_text(PLUGIN + "\n# edited\n")
    assert main(["match", str(path), "random", "--games", "2", "--quiet", "--plugin", str(plugin)]) == 0
    error = capsys.readouterr().err
    assert error.startswith("gpquarto: warning: ") and "has changed since the player was saved" in error
    assert error.count("\n") == 1
