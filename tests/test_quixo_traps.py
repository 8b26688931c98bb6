"""Quixo's 5x5 bank of traps: its screen against the proofs, its positions against a brute force, its seed, cache,
config and command lines."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from gpquarto.arena.game import play_game
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.grading.bank import TACTICAL_PLIES, TRAPS, tactical_solve
from gpquarto.games.quixo.search import tactics, trap_kernels
from gpquarto.games.quixo.search.tactics import NOTHING, TRAP, WIN_IN_ONE, proven_outcomes, trap_screen
from gpquarto.games.quixo.tables import tables
from gpquarto.grading.bank import WIN, BankParameters, build_bank
from gpquarto.grading.cache import bank_path, load_or_build_bank
from gpquarto.resolve import make_unattended_player
from gpquarto.training import EvolutionConfig
from tests.test_quixo_tactical import TRAPS as TRAP_TEXTS
from tests.test_quixo_tactical import WIN_IN_ONE as WIN_IN_ONE_TEXT
from tests.test_quixo_tactical import brute_outcomes


def game_states(seed: int, **settings) -> list[QuixoBoard]:
    """Every position (not over) of a game between random players on 5x5, with its history."""
    players = (make_unattended_player("random", game="quixo"), make_unattended_player("random", game="quixo"))
    record = play_game(players, game="quixo", settings={"size": 5, **settings}, seed=seed)
    return [state.copy() for state, _ in record.states() if not state.is_over()]


def proven_class(board: QuixoBoard) -> int:
    """What the screen should say of ``board``, from the proofs."""
    outcomes = proven_outcomes(board, TACTICAL_PLIES).values()
    if 1 in outcomes:
        return WIN_IN_ONE
    return TRAP if any(outcome > 0 for outcome in outcomes) else NOTHING


@pytest.mark.parametrize(
    ("seed", "settings"),
    [
        (1, {}),
        (2, {}),
        (3, {"rules": "course"}),
        (4, {"repetitions": 2}),  # repetitions along the lines of play
        (5, {"ply_limit": 30}),  # the last positions before the ply limit
    ],
)
def test_the_screen_agrees_with_the_proofs_on_every_position_of_a_game(seed, settings):
    states = game_states(seed, **settings)
    assert len(states) >= 20
    expected = [proven_class(state) for state in states]
    assert [trap_screen(state) for state in states] == expected
    assert [trap_screen(state, compiled=False) for state in states] == expected


def test_the_screen_sees_the_hand_picked_traps_and_a_win_in_one():
    for text in TRAP_TEXTS:
        assert trap_screen(QuixoBoard.from_text(text)) == TRAP, text
        assert trap_screen(QuixoBoard.from_text(text), compiled=False) == TRAP, text
    assert trap_screen(QuixoBoard.from_text(WIN_IN_ONE_TEXT)) == WIN_IN_ONE
    assert trap_screen(QuixoBoard(size=5)) == NOTHING


def test_the_screen_counts_repetitions_as_the_proofs_do(monkeypatch):
    """Game histories that make the positions after a move, or after a reply, a repetition draw: the screen and the
    proofs read the same window, and agree whichever of those positions it repeats."""
    rng = random.Random(7)
    changed = 0
    for text in TRAP_TEXTS:
        board = QuixoBoard.from_text(text)
        table = tables(5)
        own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
        me, them = board.player << 50, (1 - board.player) << 50
        after_move, after_reply = [], []
        for action in table.legal(other):
            own2, other2 = table.play(own, other, action)
            after_move.append(other2 | own2 << 25 | them)
            for reply in table.legal(own2):
                them3, me3 = table.play(other2, own2, reply)
                after_reply.append(me3 | them3 << 25 | me)
        wins = [key for action, key in zip(table.legal(other), after_move, strict=True) if
                proven_outcomes(board, TACTICAL_PLIES)[action] > 0]  # fmt: skip
        for _ in range(6):
            repeated = rng.sample(after_move, 8) + rng.sample(after_reply, 40) + rng.sample(wins, 1)
            window = [*repeated, *repeated, *tactics.repetition_window(board)]  # each twice before: a third is a draw
            monkeypatch.setattr(tactics, "repetition_window", lambda _board, window=window: window)
            expected = proven_class(board)
            assert trap_screen(board) == expected and trap_screen(board, compiled=False) == expected, text
            changed += expected != TRAP
            monkeypatch.undo()
        window = [*wins, *wins, *tactics.repetition_window(board)]  # every forced win repeats a position
        monkeypatch.setattr(tactics, "repetition_window", lambda _board, window=window: window)
        assert proven_class(board) == NOTHING == trap_screen(board) == trap_screen(board, compiled=False)
        monkeypatch.undo()
    assert changed  # some windows took the trap away


@pytest.fixture(scope="module")
def traps():
    """A 5-trap grade bank (seed 1)."""
    return build_bank(game="quixo", size=5, seed=1, positions=5, kind=TRAPS)


def test_every_position_of_the_trap_bank_is_a_trap_by_brute_force(traps):
    assert len(traps) == 5
    for position in traps:
        board = position.board()
        outcomes = brute_outcomes(board, TACTICAL_PLIES)
        wins = {action for action, outcome in outcomes.items() if outcome > 0}
        assert wins and 1 not in outcomes.values(), position.text
        assert position.value == WIN and set(position.best_actions) == wins, position.text
        fastest = min(outcomes[action] for action in wins)
        assert set(position.exact_actions) == {action for action in wins if outcomes[action] == fastest}
    assert len({position.board().canonical_key() for position in traps}) == 5


def test_the_trap_bank_is_reproducible_and_the_pure_screen_makes_the_same(traps, monkeypatch):
    assert build_bank(game="quixo", size=5, seed=1, positions=5, kind=TRAPS) == traps
    other = build_bank(game="quixo", size=5, seed=2, positions=5, kind=TRAPS)
    assert [position.text for position in other] != [position.text for position in traps]
    monkeypatch.setattr(trap_kernels, "COMPILED", False)
    assert build_bank(game="quixo", size=5, seed=1, positions=5, kind=TRAPS) == traps
    assert "traps: a move wins by force within 3 plies, none at once" in traps.describe()
    assert traps.pairing_of(traps.positions[0]) == ("random", "random")
    assert all(tactical_solve(position.board())[:2] == (position.value, position.best_actions) for position in traps)


def test_the_trap_bank_is_the_same_with_numba_disabled(traps):
    script = (
        "import json; from gpquarto.grading.bank import build_bank; "
        "bank = build_bank(game='quixo', size=5, seed=1, positions=5, kind='traps'); "
        "print(json.dumps([[p.text, list(p.best_actions), list(p.exact_actions)] for p in bank]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    expected = [[p.text, list(p.best_actions), list(p.exact_actions)] for p in traps]
    assert json.loads(done.stdout) == expected


def test_the_trap_bank_is_cached_under_its_own_key(traps, tmp_path):
    parameters = BankParameters(game="quixo", size=5, seed=1, positions=5, kind=TRAPS)
    assert parameters.to_json()["kind"] == TRAPS
    assert (parameters.min_empties, parameters.max_empties) == (0, 24)
    default = BankParameters(game="quixo", size=5, seed=1, positions=5)
    assert "kind" not in default.to_json() and bank_path(default) != bank_path(parameters)
    assert "traps" in bank_path(parameters).name
    built = load_or_build_bank(parameters, cache_dir=tmp_path)
    again = load_or_build_bank(parameters, cache_dir=tmp_path)
    assert not built.cached and again.cached and again == built == traps


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            {"size": 4, "kind": TRAPS},
            "no bank of kind 'traps' for quixo 4x4 official rules [(]kinds besides the default: none[)]",
        ),
        ({"size": 5, "kind": "forks"}, "no bank of kind 'forks' .* not solved [(]kinds besides the default: traps[)]"),
        ({"size": 5, "kind": 3}, "a bank kind is a word"),
    ],
)
def test_a_bank_refuses_a_kind_it_does_not_make_in_one_line(given, message):
    with pytest.raises(ValueError, match=message) as caught:
        BankParameters(game="quixo", **given)
    assert "\n" not in str(caught.value)


# -- the training config --------------------------------------------------------------------------------------
def test_the_config_trains_on_the_trap_bank_and_round_trips():
    config = EvolutionConfig.for_game("quixo", accuracy_weight=1.0, accuracy_bank=TRAPS)
    parameters = config.training_bank()
    assert (parameters.kind, parameters.purpose, parameters.size) == (TRAPS, "training", 5)
    data = config.as_dict()
    assert data["accuracy_bank"] == TRAPS
    assert EvolutionConfig.from_dict(data) == config
    plain = EvolutionConfig.for_game("quixo", accuracy_weight=1.0)
    assert "accuracy_bank" not in plain.as_dict() and plain.training_bank().kind == ""
    assert EvolutionConfig.from_dict(plain.as_dict()) == plain


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"accuracy_bank": TRAPS}, "accuracy_bank 'traps' needs the accuracy term"),
        ({"accuracy_weight": 1.0, "accuracy_bank": "forks"}, "no bank of kind 'forks'"),
        ({"accuracy_weight": 1.0, "accuracy_bank": TRAPS, "board_size": 4}, "no bank of kind 'traps'"),
        ({"accuracy_weight": 1.0, "accuracy_bank": 1}, "accuracy_bank"),
    ],
)
def test_the_config_refuses_a_bad_accuracy_bank_in_one_line(settings, message):
    with pytest.raises(ValueError, match=message) as caught:
        EvolutionConfig.for_game("quixo", **settings)
    assert "\n" not in str(caught.value)


# -- the command lines ------------------------------------------------------------------------------------------
def test_grade_grades_on_the_trap_bank(cli, tmp_path):
    done = cli(
        "grade", "random", "--game", "quixo", "--size", "5", "--bank", "traps", "--positions", "6", "--seed", "4",
        "--cache-dir", str(tmp_path), "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "bank: 6 positions, 0-24 blank cubes, quixo 5x5 official rules, traps:" in done.stdout


def test_grade_and_train_refuse_a_bad_bank_kind_in_one_line(cli, tmp_path):
    for args in (
        ("grade", "random", "--game", "quixo", "--size", "4", "--bank", "traps"),
        ("train", "--game", "quixo", "--accuracy-weight", "1", "--accuracy-bank", "forks", "--run-dir", str(tmp_path)),
    ):
        done = cli(*args)
        assert done.returncode == 2, done.stdout
        assert len(done.stderr.strip().splitlines()) == 1 and "no bank of kind" in done.stderr, done.stderr
