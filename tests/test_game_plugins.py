"""Games as plug-ins: settings schemas, capabilities asked for by type, discovery through entry points, and the
command line's game options made from the installed games' schemas (a game from the tests plays through it)."""

from __future__ import annotations

import importlib.metadata
import random

import pytest

from gpquarto.cli import main
from gpquarto.games import registry
from gpquarto.games.plugin import Capability, GamePlugin, MissingCapability, PluginError
from gpquarto.games.registry import game_names, get_game, get_plugin, register_plugin, unregister_plugin
from gpquarto.games.settings import Setting, check_settings, settings_from_text
from tests import tictactoe


class Greeting(Capability):
    description = "greeting"

    def __init__(self, words: str) -> None:
        self.words = words


HELLO = Greeting("hello")
NOT_A_GREETING = "hello"


@pytest.fixture
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield tictactoe.PLUGIN
    unregister_plugin(tictactoe.GAME.name)


def test_a_setting_checks_type_choices_and_range_and_reads_text():
    size = Setting("size", int, 5, choices=(3, 4, 5))
    assert size.from_text(" 4 ") == 4 and size.check(3) == 3
    for bad in (7, True, "5", 5.0):
        with pytest.raises(ValueError, match="size must be one of 3, 4, 5"):
            size.check(bad)
    limit = Setting("ply_limit", int, 300, minimum=1)
    assert limit.flag == "--ply-limit" and limit.shown(20) == "ply_limit 20"
    # what the web server accepts: the served maximum, else the maximum, else the default; none for choices
    assert limit.served_bound == 300 and Setting("n", int, 3, maximum=9).served_bound == 9
    assert Setting("n", int, 3, maximum=9, served_maximum=5).served_bound == 5
    assert Setting("n", int, 3, maximum=9, served_maximum=5).to_json()["maximum"] == 5
    assert Setting("size", int, 5, choices=(3, 4, 5)).served_bound is None
    with pytest.raises(ValueError, match="ply_limit must be int >= 1, got 0"):
        limit.from_text("0")
    weight = Setting("weight", float, 0.5, minimum=0, maximum=1)
    assert weight.check(1) == 1.0 and isinstance(weight.check(1), float)
    for bad in ("nan", "inf", "2", "x"):
        with pytest.raises(ValueError, match="weight must be"):
            weight.from_text(bad)
    flag = Setting("misere", bool, False)
    assert [flag.from_text(word) for word in ("yes", "0", "TRUE", "off")] == [True, False, True, False]
    with pytest.raises(ValueError, match="misere must be bool"):
        flag.check(1)
    with pytest.raises(ValueError, match="bool, int, float or str"):
        Setting("shape", list, [])
    with pytest.raises(ValueError, match="must be one of"):
        Setting("rules", str, "house", choices=("classic",))  # a default outside its own choices


def test_settings_are_completed_with_defaults_and_unknown_ones_named():
    schema = (Setting("rules", str, "classic", choices=("classic", "advanced")), Setting("size", int, 5))
    assert check_settings("demo", schema, {"size": 4}) == {"rules": "classic", "size": 4}
    with pytest.raises(ValueError, match=r"demo has no setting 'colour' \(settings: rules, size\)"):
        check_settings("demo", schema, {"colour": "red"})
    assert settings_from_text("demo", schema, {"size": "3"}) == {"size": 3}
    with pytest.raises(ValueError, match="demo: rules must be one of classic, advanced, got 'blitz'"):
        settings_from_text("demo", schema, {"rules": "blitz"})


def test_a_capability_is_imported_when_first_asked_for_and_a_missing_one_is_one_line():
    plugin = GamePlugin(
        game=tictactoe.GAME,
        title="Tic-tac-toe",
        capabilities={Greeting: "tests.test_game_plugins:HELLO"},
    )
    assert plugin.offers(Greeting) and not plugin.offers(Capability)
    assert plugin.capability(Greeting) is HELLO and plugin.capability(Greeting) is HELLO
    with pytest.raises(MissingCapability, match="^game 'tictactoe' has no capability$"):
        plugin.capability(Capability)
    wrong = GamePlugin(
        game=tictactoe.GAME, title="T", capabilities={Greeting: "tests.test_game_plugins:NOT_A_GREETING"}
    )
    with pytest.raises(
        PluginError, match="the greeting tests.test_game_plugins:NOT_A_GREETING is a str, not a Greeting"
    ):
        wrong.capability(Greeting)
    missing = GamePlugin(game=tictactoe.GAME, title="T", capabilities={Greeting: "tests.no_such_module:HELLO"})
    with pytest.raises(PluginError, match="cannot be imported"):
        missing.capability(Greeting)
    for bad in ({str: "a:b"}, {Greeting: "no colon"}):
        with pytest.raises(PluginError):
            GamePlugin(game=tictactoe.GAME, title="T", capabilities=bad)


def test_the_built_in_games_are_found_through_the_entry_point_like_any_other():
    entries = {entry.name: entry.value for entry in importlib.metadata.entry_points(group="gpquarto.games")}
    assert entries["quarto"] == "gpquarto.games.quarto.plugin:PLUGIN"
    assert entries["quixo"] == "gpquarto.games.quixo.plugin:PLUGIN"
    assert game_names()[0] == "quarto" and {"quarto", "quixo"} <= set(game_names())
    for name in ("quarto", "quixo"):
        plugin = get_plugin(name)
        assert plugin.name == name and get_game(name) is plugin.game
        assert plugin.check_settings({}) == plugin.game.check_settings({})  # the schema's defaults are the game's
    with pytest.raises(ValueError, match=r"unknown game 'chess' \(known: quarto, quixo"):
        get_game("chess")


def test_a_broken_game_package_is_named_and_hides_no_other_game(monkeypatch):
    class BrokenEntry:
        name, value, dist = "broken", "broken_game.plugin:PLUGIN", None

        def load(self):
            raise ImportError("No module named 'broken_game'")

    real = importlib.metadata.entry_points(group="gpquarto.games")
    monkeypatch.setattr(registry, "_PLUGINS", {})
    monkeypatch.setattr(registry, "_BROKEN", {})
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [*real, BrokenEntry()])
    assert "broken" not in game_names() and {"quarto", "quixo"} <= set(game_names())
    with pytest.raises(
        PluginError, match=r"game 'broken': the game plug-in broken_game.plugin:PLUGIN cannot be loaded"
    ):
        get_game("broken")


def test_a_game_registered_at_run_time_is_known_and_one_name_takes_one_plugin(tictactoe_installed):
    assert get_game("tictactoe") is tictactoe.GAME and "tictactoe" in game_names()
    register_plugin(tictactoe.PLUGIN)  # the same plug-in again: nothing changes
    twin = GamePlugin(game=tictactoe.GAME, title="Another")
    with pytest.raises(ValueError, match="already registered"):
        register_plugin(twin)


def test_the_test_game_keeps_the_interface_rules():
    rng = random.Random(3)
    for _ in range(200):
        state = tictactoe.GAME.new_state()
        while not state.is_over():
            before = (state.text(), state.canonical_key(), state.history)
            action = rng.choice(state.legal_actions())
            state.apply(action)
            assert tictactoe.GAME.from_text(state.text()).text() == state.text()
            assert state.undo() == action and (state.text(), state.canonical_key(), state.history) == before
            assert state.parse_action(state.action_name(action)) == action
            state.apply(action)
        assert state.legal_actions() == [] and state.outcome() is not None


def test_the_command_line_options_come_from_the_installed_games_schemas(tictactoe_installed, capsys):
    assert (
        main(["match", "random", "random", "--game", "tictactoe", "--misere", "yes", "--games", "4", "--workers", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "random (A) vs random (B): 4 games, tictactoe, misere, seed 0"
    assert main(["match", "random", "random", "--game", "tictactoe", "--misere", "maybe", "--games", "2"]) == 2
    assert capsys.readouterr().err == "gpquarto: error: tictactoe: misere must be bool, got 'maybe'\n"
    assert main(["match", "random", "random", "--game", "tictactoe", "--size", "4", "--games", "2"]) == 2
    assert capsys.readouterr().err == "gpquarto: error: tictactoe has no setting 'size' (settings: misere)\n"
    assert main(["match", "random", "random", "--advanced", "--games", "2", "--workers", "1"]) == 0
    assert "quarto, advanced rules" in capsys.readouterr().out


def test_solve_uses_the_generic_solver_for_a_game_without_one_and_names_a_missing_capability(
    tictactoe_installed, capsys
):
    assert main(["solve", "XX./OO./... X", "--game", "tictactoe"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:5] == ["X X .", "O O .", ". . .", "XX./OO./... X", "value: win in 1 plies for player 0"]
    assert out[5] == "best actions (1): c1"
    assert main(["solve", "--game", "tictactoe", "--misere", "no", "--max-empty", "20"]) == 0
    assert "value: draw for player 0" in capsys.readouterr().out
    assert main(["solve", "XX./OO./... X", "--game", "tictactoe", "--png", "x.png"]) == 2
    assert capsys.readouterr().err == "gpquarto: error: game 'tictactoe' has no PNG pictures\n"
