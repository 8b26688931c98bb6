"""The tactical 5x5 Quixo bank: its proofs against a plain brute force, its positions, cache, config and training."""

from __future__ import annotations

import json

import pytest

from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.grading.bank import TACTICAL_PLIES, tactical_solve
from gpquarto.games.quixo.search.tactics import proven_outcomes
from gpquarto.grading.bank import DRAW, WIN, BankParameters, build_bank
from gpquarto.grading.cache import load_or_build_bank
from gpquarto.grading.grade import grade_player
from gpquarto.grading.report import format_reports
from gpquarto.training import EvolutionConfig, resume, train
from tests.test_train_quixo import Interrupted, comparable

#: Positions with a trap (a forced win in three plies, none in one), found in games between random players.
TRAPS = (
    "XOOOX/OOOOX/X...O/O.XOO/XO... O",
    "OOOXX/XXOX./OOXXX/O..OX/OO.XO X",
    "XO.OO/XO..X/X...O/...../OXXXO X",
    "OX.XX/.O..O/OX..O/OOX.O/XOXOX O",
)
#: A win in one for X (the top row), and a position where O must block X's top row.
WIN_IN_ONE = "XXXX./OO.../...../...../O.... X"
MUST_BLOCK = "XXXX./O..../...../O..../O.... O"

#: Scores of the brute force: a win at ply ``d`` scores ``HORIZON - d``, a loss ``d - HORIZON``, the rest 0.
HORIZON = 100


def brute_force(board: QuixoBoard, plies: int, root: int, ply: int = 0) -> int:
    """Plain minimax over the board's own legal moves and rules, ``plies`` plies deep, scored for ``root``."""
    if board.is_over():
        winner = board.winner
        return 0 if winner is None else (HORIZON - ply if winner == root else ply - HORIZON)
    if ply == plies:
        return 0
    scores = []
    for action in board.legal_actions():
        board.apply(action)
        scores.append(brute_force(board, plies, root, ply + 1))
        board.undo()
    return max(scores) if board.player == root else min(scores)


def brute_outcomes(board: QuixoBoard, plies: int) -> dict[int, int]:
    """:func:`proven_outcomes` by brute force: the fastest forced win, the slowest forced loss, else 0."""
    outcomes = {}
    for action in board.legal_actions():
        child = board.copy()
        child.apply(action)
        score = brute_force(child, plies, board.player, 1)
        outcomes[action] = 0 if score == 0 else (HORIZON - score if score > 0 else -(HORIZON + score))
    return outcomes


@pytest.fixture(scope="module")
def bank():
    """A small tactical grade bank: one position of each number of blank cubes, 5 to 17."""
    return load_or_build_bank(BankParameters(game="quixo", size=5, seed=3, positions=13))


def test_the_hand_picked_positions_are_what_they_say():
    for text in TRAPS:
        outcomes = proven_outcomes(QuixoBoard.from_text(text), TACTICAL_PLIES)
        assert 3 in outcomes.values() and 1 not in outcomes.values(), text
    assert 1 in proven_outcomes(QuixoBoard.from_text(WIN_IN_ONE), 1).values()
    block = proven_outcomes(QuixoBoard.from_text(MUST_BLOCK), 2)
    assert -2 in block.values() and 0 in block.values() and 1 not in block.values()


def test_the_proofs_agree_with_a_brute_force(bank):
    texts = [*TRAPS, WIN_IN_ONE, MUST_BLOCK, *(position.text for position in bank)]
    assert len(texts) >= 19
    for text in texts:
        board = QuixoBoard.from_text(text)
        assert proven_outcomes(board, TACTICAL_PLIES) == brute_outcomes(board, TACTICAL_PLIES), text
    board = QuixoBoard.from_text(TRAPS[0])
    assert proven_outcomes(board, 2) == brute_outcomes(board, 2)  # the trap is beyond two plies
    assert 3 not in proven_outcomes(board, 2).values()


def test_the_labels_are_the_proofs(bank):
    for text in (*TRAPS, MUST_BLOCK):
        board = QuixoBoard.from_text(text)
        outcomes = brute_outcomes(board, TACTICAL_PLIES)
        value, keep, legal, best = tactical_solve(board)
        assert legal == len(outcomes)
        if any(outcome > 0 for outcome in outcomes.values()):
            wins = {action for action, outcome in outcomes.items() if outcome > 0}
            fastest = min(outcomes[action] for action in wins)
            assert value == WIN and set(keep) == wins
            assert set(best) == {action for action in wins if outcomes[action] == fastest}
        else:
            assert value == DRAW and set(keep) == {action for action, outcome in outcomes.items() if outcome == 0}
    for position in bank:
        value, keep, legal, _ = tactical_solve(position.board())
        assert (position.value, position.best_actions) == (value, keep) and value in (WIN, DRAW) and len(keep) < legal


def test_the_bank_is_tactical_reproducible_and_cached(bank, tmp_path):
    assert len(bank) == 13 and {position.empties for position in bank} == set(range(5, 18))
    assert "quixo 5x5 official rules, tactical: moves proven to win or lose within 3 plies, not solved" in (
        bank.describe()
    )
    assert "exact" not in bank.describe()
    table = format_reports([grade_player("random", bank)], bank, examples=0)
    assert "(tactical, not exact)" in table and "keep the exact value" not in table
    parameters = BankParameters(game="quixo", size=5, seed=5, positions=4, min_empties=9, max_empties=10)
    assert parameters.to_json()["proof_plies"] == TACTICAL_PLIES
    assert "proof_plies" not in BankParameters(game="quixo", size=4).to_json()  # 4x4 keys are unchanged
    built = load_or_build_bank(parameters, cache_dir=tmp_path)
    again = load_or_build_bank(parameters, cache_dir=tmp_path)
    assert not built.cached and again.cached and again == built
    assert build_bank(game="quixo", size=5, seed=5, positions=4, min_empties=9, max_empties=10) == built
    other = build_bank(game="quixo", size=5, seed=6, positions=4, min_empties=9, max_empties=10)
    assert [position.text for position in other] != [position.text for position in built]


# -- the training config --------------------------------------------------------------------------------------
def test_the_config_accepts_the_accuracy_term_on_5x5_quixo():
    config = EvolutionConfig.for_game("quixo", accuracy_weight=1.0, accuracy_positions=100)
    assert config.board_size == 5 and config.accuracy_weight == 1.0
    parameters = config.training_bank()
    assert (parameters.size, parameters.purpose, parameters.positions) == (5, "training", 100)
    assert "tactical" in parameters.bank.describe(parameters.settings)
    assert EvolutionConfig.for_game("quixo").accuracy_weight == 0  # still off unless asked for


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"accuracy_weight": -1.0}, "accuracy_weight must be >= 0"),
        ({"accuracy_weight": 1.0, "accuracy_positions": 0}, "a bank needs at least 1 position, got 0"),
        ({"accuracy_weight": 1.0, "board_size": 6}, "a Quixo size is 3, 4 or 5"),
        ({"accuracy_weight": 1.0, "game_rules": "house"}, "unknown Quixo rules 'house'"),
    ],
)
def test_the_config_refuses_bad_accuracy_settings_in_one_line(settings, message):
    with pytest.raises(ValueError, match=message) as caught:
        EvolutionConfig.for_game("quixo", **settings)
    assert "\n" not in str(caught.value)


# -- a tiny training --------------------------------------------------------------------------------------------
TINY = {
    "population": 4,
    "games": 2,
    "final_games": 2,
    "seed": 4,
    "opponents": "random:1,hof:1",
    "openings": 2,
    "accuracy_weight": 1.0,
    "accuracy_positions": 13,
}


def test_a_tiny_5x5_run_with_the_accuracy_term_resumes_identically(tmp_path):
    config = EvolutionConfig.for_game("quixo", generations=2, **TINY)
    straight = train(config, tmp_path / "straight", best_player_copy=None)
    logbook = (straight.path / "logbook.csv").read_text().splitlines()
    assert "accuracy" in logbook[0]
    best = json.loads((straight.path / "best_player.json").read_text())
    assert 0 <= best["fitness"]["accuracy"] <= 1

    def stop_after_one(evolution, row):
        if evolution.generation == 1:
            raise Interrupted

    with pytest.raises(Interrupted):
        train(config, tmp_path / "stopped", best_player_copy=None, on_generation=stop_after_one)
    resumed = resume(tmp_path / "stopped")
    assert resumed.trained_now == 1
    for name in ("logbook.csv", "hall_of_fame.txt", "best_player.json"):
        assert comparable(resumed.path, name) == comparable(straight.path, name), name
