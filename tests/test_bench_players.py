"""The players benchmark: its positions (deterministic by seed) and its bookkeeping (not its speed)."""

from __future__ import annotations

import argparse

import pytest

from gpquarto.games.quarto.bench import players as bench
from gpquarto.games.quarto.bench.players import STAGES, benchmark_positions, time_player
from gpquarto.games.quarto.board import iter_positions
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.evaluator_files import evaluator_data, save_evaluator
from gpquarto.gp.library import load_library
from tests.conftest import REPO


def test_positions_cover_every_stage_and_both_decisions() -> None:
    positions = benchmark_positions(seed=5, per_kind=3)
    assert len(positions) == len(STAGES) * 2 * 3
    for stage in STAGES:
        at_stage = [p for p in positions if p.placed_count == stage]
        assert sum(p.choice_due for p in at_stage) == 3 and sum(p.placement_due for p in at_stage) == 3
    for position in positions:
        assert not position.is_over()
        # reached by legal play from the empty board (the history replays)
        assert list(iter_positions(position))[0].placed_count == 0


def test_positions_are_deterministic_by_seed() -> None:
    texts = [p.text() for p in benchmark_positions(seed=7)]
    assert texts == [p.text() for p in benchmark_positions(seed=7)]
    assert texts != [p.text() for p in benchmark_positions(seed=8)]
    assert all(" advanced" in p.text() for p in benchmark_positions(seed=7, rules="advanced"))


def test_bad_stage_is_rejected() -> None:
    with pytest.raises(ValueError, match="stage"):
        benchmark_positions(stages=(16,))


class CountingPlayer(QuartoPlayer):
    """Counts its decisions and exposes them as ``nodes`` (two per decision)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.seen: list[tuple[str, int]] = []

    def choose_piece(self, board) -> int:
        self.nodes += 2
        self.seen.append(("choose", board.placed_count))
        return board.legal_pieces()[0]

    def place_piece(self, board, piece) -> int:
        self.nodes += 2
        self.seen.append(("place", board.placed_count))
        return board.legal_squares()[0]


def test_time_player_asks_each_decision_and_counts_nodes(monkeypatch) -> None:
    player = CountingPlayer()
    monkeypatch.setattr(bench, "make_player", lambda spec, seed=None: player)
    positions = benchmark_positions(seed=1, per_kind=1)
    timing = time_player("counting", positions, repeats=3, seconds=1e-9)
    assert timing.repeats >= 1 and timing.decisions == len(player.seen)
    assert timing.decisions % len(positions) == 0
    expected = [("choose" if p.choice_due else "place", p.placed_count) for p in positions]
    assert player.seen[: len(positions)] == expected
    assert timing.nodes_per_second is not None and timing.nodes_per_second > 0
    assert 0 < timing.mean <= timing.max
    assert sorted(timing.stage_means) == list(STAGES)


def test_random_has_no_node_rate() -> None:
    timing = time_player("random", benchmark_positions(per_kind=1), repeats=1, seconds=1e-9)
    assert timing.nodes_per_second is None and timing.decisions == 8


def test_command_reports_skipped_players(monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench, "BENCH_PLAYERS", ("random", "no-such-player:depth=3"))
    args = argparse.Namespace(repeats=1, seconds=1e-9, rules="classic")
    assert bench.run_players_benchmark(args) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:1] == ["random"] for line in out.splitlines())
    assert "skipped (not registered): no-such-player:depth=3" in out


def test_node_rate_is_nodes_per_second_of_decision_time(monkeypatch) -> None:
    player = CountingPlayer()
    assert bench.counts_nodes_of(player) and not bench.counts_nodes_of(object())
    monkeypatch.setattr(bench, "make_player", lambda spec, seed=None: player)
    timing = time_player("counting", benchmark_positions(seed=2, per_kind=1), repeats=1, seconds=1e-9)
    assert timing.nodes_per_second * timing.mean == pytest.approx(2)  # one repeat: nodes per decision


def test_compare_times_the_reference_and_prints_rows_with_the_speed_up(capsys) -> None:
    args = argparse.Namespace(
        repeats=1, seconds=1e-9, rules="classic", players=["novice", "minimax:depth=1"], compare="tests.reference"
    )
    assert bench.run_players_benchmark(args) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[-4:]] == ["novice", "novice", "minimax:depth=1", "minimax:depth=1"]
    assert "(ref)" in rows[-4] and rows[-3].endswith("x") and rows[-1].endswith("x")


def test_compare_needs_a_module_with_make_player() -> None:
    with pytest.raises(ValueError, match="make_player"):
        bench.reference_factory("gpquarto.games.quarto.tables")


def test_every_pass_times_a_fresh_player_not_answers_it_remembers() -> None:
    # minimax remembers its root answers by position across games: a second pass over the same positions with
    # the same player would search nothing. Each pass builds the player afresh, so it searches as much again.
    positions = benchmark_positions(seed=3, per_kind=1)
    measurement = bench._Measurement("minimax:depth=1", positions, bench.make_player, seed=1)
    measurement.repeat(1e-9)
    first_pass = measurement.total_nodes
    measurement.repeat(1e-9)
    assert first_pass > 0 and measurement.total_nodes == 2 * first_pass


def test_the_factory_is_called_once_per_pass(monkeypatch) -> None:
    built = []

    def factory(spec, seed=None):
        built.append(CountingPlayer())
        return built[-1]

    positions = benchmark_positions(seed=1, per_kind=1)
    timing = time_player("counting", positions, repeats=3, seconds=1e-9, factory=factory)
    passes = timing.decisions // len(positions)
    assert len(built) == passes + 1  # one to look at the player, one per pass
    assert all(len(player.seen) == len(positions) for player in built[1:])


def test_saved_players_and_evaluator_searches_are_timed_and_a_missing_file_is_one_line(tmp_path, capsys) -> None:
    library = load_library()
    evaluator = str(tmp_path / "safe_pieces.json")
    save_evaluator(evaluator, evaluator_data(EvaluatorGenome.from_text("safe_piece_count", library), library))
    saved = str(REPO / "examples" / "players" / "parity_setter.json")
    args = argparse.Namespace(
        repeats=1, seconds=1e-9, rules="classic", players=[saved, f"minimax:depth=1,evaluator={evaluator}"]
    )
    assert bench.run_players_benchmark(args) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[-2:]] == [saved, f"minimax:depth=1,evaluator={evaluator}"]
    assert rows[-2].split()[1] == str(len(benchmark_positions()))  # one pass: every position decided once
    args.players = ["no/such/player.json"]
    with pytest.raises(ValueError, match="player file not found: no/such/player.json"):
        bench.run_players_benchmark(args)


def test_compare_times_a_saved_player_alone(capsys) -> None:
    saved = str(REPO / "examples" / "players" / "parity_setter.json")
    args = argparse.Namespace(
        repeats=1, seconds=1e-9, rules="classic", players=[saved, "novice"], compare="tests.reference"
    )
    assert bench.run_players_benchmark(args) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[-3:]] == [saved, "novice", "novice"]
    assert not rows[-3].endswith("x") and rows[-1].endswith("x")
