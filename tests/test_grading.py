"""Grading against perfect play: the bank (built, solved, cached) and players scored on it."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto import Board
from gpquarto.games.quarto.board import BoardView
from gpquarto.games.quarto.grading import bank as bank_module  # Quarto's bank solves with its solver
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.search.solver import solve
from gpquarto.grading.bank import TRAINING, BankParameters, build_bank
from gpquarto.grading.cache import (
    BankCacheWarning,
    bank_from_json,
    bank_path,
    bank_to_json,
    cache_folder,
    load_or_build_bank,
)
from gpquarto.grading.grade import grade_player, grade_players
from gpquarto.grading.report import format_reports, grade_png, reports_csv
from gpquarto.runner import make_runner

SMALL = {"seed": 5, "positions": 30, "min_empties": 6, "max_empties": 8}
TINY = {"seed": 5, "positions": 8, "min_empties": 6, "max_empties": 7}


@pytest.fixture(scope="module")
def small_bank():
    return build_bank(**SMALL)


@pytest.fixture(scope="module")
def tiny_bank():
    return build_bank(**TINY)


def brute_force_action_values(board: Board) -> dict[int, int]:
    """The exact value of every legal action for the player to act (1 win, 0 draw, -1 loss), by plain
    memoised minimax over the rules: no pruning, no Quarto knowledge."""
    memo: dict[str, int] = {}

    def after(action: int) -> int:
        mover = board.player
        board.apply(action)
        if board.is_over():
            value = 0 if board.winner is None else (1 if board.winner == mover else -1)
        else:
            value = best() if board.player == mover else -best()
        board.undo()
        return value

    def best() -> int:
        key = board.text()
        if key not in memo:
            memo[key] = max(after(action) for action in board.legal_actions())
        return memo[key]

    return {action: after(action) for action in board.legal_actions()}


def test_stored_optimal_actions_match_brute_force_minimax():
    bank = build_bank(seed=3, positions=8, min_empties=6, max_empties=6)
    assert {position.kind for position in bank} == {DecisionKind.CHOOSE, DecisionKind.PLACE}
    for position in bank:
        values = brute_force_action_values(position.board())
        value = max(values.values())
        assert position.value == value, position.text
        assert set(position.best_actions) == {action for action, v in values.items() if v == value}, position.text
        assert min(values.values()) < value  # the decision matters


def test_bank_is_balanced_decisive_and_distinct(small_bank):
    assert len(small_bank) == 30
    cells = Counter((position.empties, position.kind) for position in small_bank)
    assert cells == {(empties, kind): 5 for empties in (6, 7, 8) for kind in (DecisionKind.CHOOSE, DecisionKind.PLACE)}
    texts = [position.text for position in small_bank]
    assert len(set(texts)) == len(texts)
    for position in small_bank:
        board = position.board()
        assert position.value in (0, 1) and not board.is_over()
        assert set(position.best_actions) < set(board.legal_actions())
    assert len({small_bank.pairing_of(position) for position in small_bank}) >= 3


def test_bank_depends_on_seed_and_purpose_only(tiny_bank):
    assert build_bank(**TINY) == tiny_bank
    assert build_bank(**{**TINY, "seed": 6}).positions != tiny_bank.positions
    training = build_bank(**TINY, purpose=TRAINING)
    assert training.parameters.purpose == TRAINING
    assert not {p.text for p in training} & {p.text for p in tiny_bank}


def test_bank_is_the_same_on_worker_processes(tiny_bank):
    with make_runner(2) as runner:
        assert build_bank(**TINY, runner=runner) == tiny_bank


@pytest.mark.parametrize(
    "changes", [{"positions": 0}, {"min_empties": 1}, {"max_empties": 13}, {"min_empties": 8, "max_empties": 7}]
)
def test_bad_parameters_are_refused(changes):
    with pytest.raises(ValueError):
        BankParameters(**{**SMALL, **changes})


def test_solver_player_scores_everything(small_bank):
    (report,) = grade_players(["solver"], small_bank)
    assert report.accuracy == 1.0 and report.total.correct == 30
    assert report.blunders() == [] and report.total.forfeits == 0
    assert report.interval()[1] > 0.99


class WorstPlayer(QuartoPlayer):
    """Takes an action that loses value whenever there is one (found with the solver)."""

    name = "worst"

    def _worst(self, board: BoardView) -> int:
        best = solve(board).best_actions
        return next(action for action in board.legal_actions() if action not in best)

    def choose_piece(self, board: BoardView) -> int:
        return self._worst(board)

    def place_piece(self, board: BoardView, piece: int) -> int:
        return self._worst(board) - 16


def test_player_that_always_loses_value_scores_zero(small_bank):
    report = grade_player(WorstPlayer(), small_bank)
    assert report.player == "worst" and report.accuracy == 0.0
    wins = sum(position.value == 1 for position in small_bank)
    assert report.total.won_thrown_away == wins and report.total.drawn_lost == 30 - wins
    assert all(tally.accuracy == 0.0 for tally in report.by_kind().values())
    assert sorted(report.by_empties()) == [6, 7, 8]


class RaisingPlayer(QuartoPlayer):
    name = "raising"

    def choose_piece(self, board: BoardView) -> int:
        raise RuntimeError("no idea")

    def place_piece(self, board: BoardView, piece: int) -> int:
        return 99


def test_exceptions_and_illegal_actions_are_wrong_decisions(small_bank):
    report = grade_player(RaisingPlayer(), small_bank)
    assert report.accuracy == 0.0 and report.total.forfeits == 30
    reasons = {decision.position.kind: decision.forfeit for decision in report.decisions}
    assert reasons[DecisionKind.CHOOSE] == "raised RuntimeError: no idea"
    assert reasons[DecisionKind.PLACE].startswith("illegal placement 99")


def test_grading_is_reproducible_and_splits_add_up(small_bank):
    first, second = grade_players(["random", "novice"], small_bank), grade_players(["random", "novice"], small_bank)
    for a, b in zip(first, second, strict=True):
        assert [d.action for d in a.decisions] == [d.action for d in b.decisions]
    random_report, novice_report = first
    assert random_report.accuracy < novice_report.accuracy
    assert sum(t.decisions for t in novice_report.by_kind().values()) == 30
    assert sum(t.correct for t in novice_report.by_empties().values()) == novice_report.total.correct


def test_reports_as_text_csv_and_png(small_bank):
    reports = grade_players(["random", "solver"], small_bank)
    text = format_reports(reports, small_bank, examples=2)
    assert "bank: 30 positions" in text and "solver" in text and "100.0%" in text
    assert text.count('"') >= 2  # blunder examples in position text
    rows = reports_csv(reports).splitlines()
    assert rows[0].startswith("player,split,group,decisions,correct,accuracy,ci_low,ci_high")
    assert "solver,all,all,30,30,1.0000" in rows[1 + len(rows[1:]) // 2]
    assert grade_png(reports, small_bank)[:8] == b"\x89PNG\r\n\x1a\n"


def count_solves(monkeypatch) -> list[int]:
    calls = [0]
    real = bank_module.solve

    def counting(board, **kwargs):
        calls[0] += 1
        return real(board, **kwargs)

    monkeypatch.setattr(bank_module, "solve", counting)
    return calls


def test_cache_hit_returns_the_bank_without_solving(tmp_path, monkeypatch, tiny_bank):
    calls = count_solves(monkeypatch)
    parameters = BankParameters(**TINY)
    built = load_or_build_bank(parameters, cache_dir=tmp_path)
    assert built == tiny_bank and calls[0] >= 8 and not built.cached
    assert bank_path(parameters, tmp_path).parent == tmp_path / "banks"
    calls[0] = 0
    again = load_or_build_bank(parameters, cache_dir=tmp_path)
    assert again == tiny_bank and again.cached and calls[0] == 0
    assert load_or_build_bank(cache_dir=tmp_path, **TINY) == tiny_bank and calls[0] == 0


def test_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("GPQUARTO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "gpquarto"
    monkeypatch.setenv("GPQUARTO_CACHE", str(tmp_path / "mine"))
    assert cache_folder() == tmp_path / "mine"
    assert cache_folder(tmp_path / "given") == tmp_path / "given"


def tamper(text: str, change) -> str:
    """The JSON text with ``change(data)`` applied and the checksum recomputed, so that only the
    per-position validation can catch it."""
    from gpquarto.grading.cache import _checksum

    data = json.loads(text)
    change(data)
    data["checksum"] = _checksum(data["positions"])
    return json.dumps(data)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda text: text[: len(text) // 2],
        lambda text: text.replace('"value": 1', '"value": 0', 1),  # checksum no longer matches
        lambda text: tamper(text, lambda data: data["positions"][0].update(best_actions=[99])),
        lambda text: tamper(text, lambda data: data["positions"][1].update(text="..../..../..../.... -")),
        lambda text: tamper(text, lambda data: data["positions"].pop()),
        lambda text: tamper(text, lambda data: data["parameters"].update(seed=7)),
    ],
    ids=["truncated", "checksum", "illegal action", "out of range", "missing position", "other parameters"],
)
def test_corrupt_cache_is_rebuilt_with_a_warning(tmp_path, monkeypatch, tiny_bank, corrupt):
    parameters = BankParameters(**TINY)
    path = bank_path(parameters, tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(corrupt(bank_to_json(tiny_bank)))
    with pytest.raises(ValueError):
        bank_from_json(path.read_text(), parameters)
    calls = count_solves(monkeypatch)
    with pytest.warns(BankCacheWarning, match="unusable"):
        rebuilt = load_or_build_bank(parameters, cache_dir=tmp_path)
    assert rebuilt == tiny_bank and calls[0] > 0
    assert bank_from_json(path.read_text(), parameters) == tiny_bank  # the cache was repaired


def test_bank_json_round_trips(tiny_bank):
    again = bank_from_json(bank_to_json(tiny_bank), tiny_bank.parameters)
    assert again == tiny_bank and again.cached


def test_saved_players_are_graded_by_file_name(tmp_path, tiny_bank):
    import random

    from gpquarto.gp.library import LibraryConfig, get_library
    from gpquarto.gp.storage import player_data, save_player
    from gpquarto.gp.variation import random_genome
    from gpquarto.training.evolution import make_generator

    library = get_library(LibraryConfig())
    genome = random_genome(
        random.Random(8), make_generator(library, 8), min_rules=3, max_rules=6, min_height=1, max_height=4
    )
    path = tmp_path / "best_player.p"
    save_player(path, player_data(genome, library, name="champion"))
    (report,) = grade_players([str(path)], tiny_bank)
    assert report.player == str(path) and report.total.decisions == len(tiny_bank) and report.total.forfeits == 0
    again = grade_players([str(path)], tiny_bank)[0]
    assert [d.action for d in again.decisions] == [d.action for d in report.decisions]


def test_grading_on_worker_processes_gives_the_same_decisions(tiny_bank):
    serial = grade_players(["novice", WorstPlayer(), "random"], tiny_bank)
    with make_runner(2) as runner:
        parallel = grade_players(["novice", WorstPlayer(), "random"], tiny_bank, runner=runner)
    assert [report.player for report in parallel] == ["novice", "worst", "random"]
    for a, b in zip(serial, parallel, strict=True):
        assert [d.action for d in a.decisions] == [d.action for d in b.decisions]
