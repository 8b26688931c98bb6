"""``show`` on untrusted player files: bounded, escaped, one-line errors, quiet on a closed pipe."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import shared_library
from gpquarto.gp.storage import player_data, save_player
from gpquarto.gp.variation import random_genome
from gpquarto.safe_text import bounded_text, printable
from gpquarto.training.evolution import make_generator


@pytest.fixture(scope="module")
def data():
    library = shared_library()
    genome = random_genome(
        random.Random(2), make_generator(library, 6), min_rules=2, max_rules=3, min_height=1, max_height=3
    )
    return player_data(genome, library, name="shown", config={"seed": 1}, fitness={"score": 0.5})


def write_pickle(path, data) -> str:
    path.write_bytes(pickle.dumps(data))
    return str(path)


def test_metadata_that_would_blow_up_is_bounded(data, tmp_path, capsys):
    shared: list = []
    for _ in range(60):  # 2**60 leaves if expanded: the printer must not walk them all
        shared = [shared, shared]
    itself: dict = {}
    itself["me"] = itself
    tricky = {**data, "config": {"shared": shared, (1, 2): "tuple key", "self": itself}}
    assert main(["show", write_pickle(tmp_path / "tricky.p", tricky), "--games", "0"]) == 0
    summary = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("trained: "))
    assert len(summary) < 1000 and "seed ?" in summary  # the sentence names what the config lacks as "?"
    assert main(["show", write_pickle(tmp_path / "tricky.p", tricky), "--games", "0", "--config"]) == 0
    lines = capsys.readouterr().out.splitlines()
    settings = lines[lines.index("config:") + 1 : lines.index("config:") + 4]
    assert [line.split(":")[0] for line in settings] == ["  shared", "  (1, 2)", "  self"]
    assert all(len(line) < 300 for line in settings) and "..." in settings[0] and '"tuple key"' in settings[1]


def test_names_with_terminal_escapes_are_escaped(data, tmp_path, capsys):
    named = {**data, "name": "evil\x1b[2J\x1b[31mred"}
    assert main(["show", write_pickle(tmp_path / "named.p", named)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "evil\\x1b[2J" in out
    assert printable("a\tb\x07") == "a\\tb\\x07"
    assert bounded_text({"a": [1, 2.5, "x"]}) == '{"a": [1, 2.5, "x"]}'


def test_a_file_that_is_not_a_player_names_itself_in_one_line(tmp_path, capsys):
    assert main(["show", write_pickle(tmp_path / "list.p", [1, 2, 3])]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "list.p" in error


def test_a_closed_pipe_ends_quietly(data, tmp_path):
    path = tmp_path / "player.json"
    save_player(path, data)
    shown = subprocess.run(
        f"{sys.executable} -m gpquarto show {path} --dot | head -1", shell=True, capture_output=True, text=True
    )
    assert shown.stdout.startswith("digraph player {")
    assert shown.stderr == ""


@pytest.mark.parametrize("change", [{"end": "forfeit", "forfeited_by": 7, "winner": 1}, {"times": [float("nan")]}])
def test_a_tampered_game_record_is_one_line(change, tmp_path, capsys):
    import json

    from gpquarto.arena import play_game
    from gpquarto.players.random_player import RandomPlayer

    path = tmp_path / "game.json"
    path.write_text(json.dumps({**play_game((RandomPlayer(), RandomPlayer()), seed=2).to_dict(), **change}))
    assert main(["show", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "malformed game record" in error and "Traceback" not in error
