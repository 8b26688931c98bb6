"""Starting a run from saved players: their rules join generation 0 as they are; bad files fail first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import get_library
from gpquarto.gp.storage import read_player_file
from gpquarto.training import EvolutionConfig, open_run, resume, train
from gpquarto.training.evolution import Evolution

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "players"
TRAP_SETTER = str(EXAMPLES / "trap_setter.json")
SAFE_AND_TIGHT = str(EXAMPLES / "safe_and_tight.json")
TINY = {"population": 6, "games": 4, "opponents": "random:1,novice:1", "seed": 3, "final_games": 4}


def start(**settings) -> Evolution:
    config = EvolutionConfig(**{**TINY, **settings})
    return Evolution.start(config, get_library(config.library()))


def test_the_players_take_the_first_places_unchanged_and_the_rest_is_as_without_them():
    plain = start()
    seeded = start(start_from=(TRAP_SETTER, SAFE_AND_TIGHT))
    assert [genome.to_data() for genome in seeded.population[:2]] == [
        read_player_file(TRAP_SETTER)["rules"],
        read_player_file(SAFE_AND_TIGHT)["rules"],
    ]
    assert [genome.key() for genome in seeded.population[2:]] == [genome.key() for genome in plain.population[2:]]
    assert seeded.rng.getstate() == plain.rng.getstate()


def test_a_seeded_run_is_recorded_resumes_bit_identically_and_keeps_a_champion_as_good(tmp_path):
    config = EvolutionConfig(generations=3, start_from=(TRAP_SETTER,), **TINY)
    straight = train(config, tmp_path / "straight", best_player_copy=None)
    assert open_run(straight.path).config.start_from == (TRAP_SETTER,)
    assert json.loads((straight.path / "config.json").read_text())["evolution"]["start_from"] == [TRAP_SETTER]
    short = train(
        EvolutionConfig(generations=2, start_from=(TRAP_SETTER,), **TINY), tmp_path / "short", best_player_copy=None
    )
    resumed = resume(short.path, generations=3)
    assert list(resumed.logbook()) == list(straight.logbook())
    # Elitism keeps the hand-written player (or something that scores at least as well) from generation 0 on.
    first = straight.logbook()[0]
    assert all(row["hall_of_fame_best"] >= first["best"] for row in straight.logbook())


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"start_from": ("missing.json",)}, "missing.json"),
        ({"start_from": (TRAP_SETTER,), "lookahead": False}, "trap_setter.json: choose rule 1: unknown primitive"),
        (
            {"start_from": (TRAP_SETTER,), "min_rules": 1, "max_rules": 3, "rule_cap": 3},
            "4 place rules; a run allows 1 to rule_cap = 3",
        ),
        ({"start_from": (TRAP_SETTER,) * 7}, r"start_from names 7 players, more than the population \(6\)"),
    ],
)
def test_a_bad_start_player_is_one_line_naming_it(settings, message):
    with pytest.raises(ValueError, match=message) as caught:
        start(**settings)
    assert "\n" not in str(caught.value)


def test_a_tree_taller_than_the_limit_is_refused(tmp_path):
    data = read_player_file(TRAP_SETTER)
    data["rules"]["place"][0][0] = "not_(not_(not_(True)))"
    tall = tmp_path / "tall.json"
    tall.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"tall.json: a place rule has a tree of height 3, above height_limit = 2"):
        start(start_from=(str(tall),), height_limit=2, init_max_height=2)


def test_the_cli_refuses_a_foreign_file_before_writing_the_run_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"not": "a player"}')
    run_dir = tmp_path / "run"
    code = main(["train", "--generations", "1", "--start-from", str(foreign), "--run-dir", str(run_dir), "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "foreign.json" in err and "\n" not in err
    assert not run_dir.exists()


def test_the_cli_records_the_players_and_resume_needs_no_option(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["train", "--population", "6", "--games", "4", "--opponents", "random", "--final-games", "0"]
    assert main([*args, "--generations", "1", "--start-from", TRAP_SETTER, "--run-dir", "run", "--quiet"]) == 0
    assert open_run(tmp_path / "run").config.start_from == (TRAP_SETTER,)
    assert main(["train", "--resume", "--run-dir", "run", "--generations", "2", "--quiet"]) == 0
    assert open_run(tmp_path / "run").generations_done == 2
    capsys.readouterr()
