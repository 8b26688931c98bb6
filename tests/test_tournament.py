"""Round-robin tournaments: bookkeeping, reproducibility, worker independence, outputs."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from gpquarto.arena import play_match
from gpquarto.arena.plots import tournament_png
from gpquarto.arena.tournament import (
    format_table,
    games_csv,
    pairing_seed,
    pairings_csv,
    ratings_csv,
)
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.jobs.matches import run_match, run_tournament
from gpquarto.runner import make_runner


@pytest.fixture(scope="module")
def result():
    return run_tournament(["random", "novice"], games=12, seed=4, keep_records=True)


def test_each_pairing_is_the_match_with_the_pairing_seed(result) -> None:
    match = run_match("random", "novice", 12, seed=pairing_seed(4, 0, 1))
    assert (match.wins, match.draws, match.losses) == result.match(0, 1)
    assert result.match(1, 0) == (match.losses, match.draws, match.wins)


def test_totals_and_matrices_are_consistent(result) -> None:
    points = result.points_matrix()
    games = result.games_matrix()
    assert points + points.T == pytest.approx(games)
    for index in range(2):
        totals = result.totals(index)
        assert totals.games == 12
        assert totals.wins + totals.draws / 2 == pytest.approx(points[index].sum())
    score = result.score_matrix()
    assert np.isnan(score[0, 0]) and score[0, 1] + score[1, 0] == pytest.approx(1)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    serial = run_tournament(["random", "novice", "random:"], games=9, seed=2, keep_records=True)
    with make_runner(2) as runner:
        parallel = run_tournament(["random", "novice", "random:"], games=9, seed=2, runner=runner, keep_records=True)
    assert serial.matches.keys() == parallel.matches.keys()
    for key, match in serial.matches.items():
        other = parallel.matches[key]
        assert (match.wins, match.draws, match.losses) == (other.wins, other.draws, other.losses)
        assert [r.actions for r in match.records] == [r.actions for r in other.records]
    assert serial.ratings.ratings == pytest.approx(parallel.ratings.ratings)


def test_seed_changes_the_games() -> None:
    one = run_tournament(["random", "random:"], games=6, seed=1, keep_records=True)
    two = run_tournament(["random", "random:"], games=6, seed=2, keep_records=True)
    assert [r.actions for r in one.matches[0, 1].records] != [r.actions for r in two.matches[0, 1].records]


def test_progress_counts_every_game() -> None:
    counted = []
    run_tournament(["random", "novice", "random:"], games=5, seed=0, progress=counted.append)
    assert sum(counted) == 15


@pytest.mark.parametrize(
    ("specs", "message"),
    [(["random"], "at least 2"), (["random", "random"], "twice"), (["random", "nobody"], "unknown player")],
)
def test_bad_player_lists_are_rejected(specs, message) -> None:
    with pytest.raises(ValueError, match=message):
        run_tournament(specs, games=2)


def test_table_ranks_by_rating(result) -> None:
    lines = format_table(result).splitlines()
    best = result.ratings.ranking()[0]
    assert lines[2].split()[:2] == ["1", result.players[best]]
    totals = result.totals(best)
    assert f"{totals.wins}/{totals.draws}/{totals.losses}" in lines[2]


def test_csv_files(result) -> None:
    pairings = list(csv.DictReader(io.StringIO(pairings_csv(result))))
    assert len(pairings) == 1
    row = pairings[0]
    assert (row["player_a"], row["player_b"]) == ("random", "novice")
    assert (int(row["wins"]), int(row["draws"]), int(row["losses"])) == result.match(0, 1)
    assert float(row["score_ci_low"]) <= float(row["score"]) <= float(row["score_ci_high"])
    ratings = list(csv.DictReader(io.StringIO(ratings_csv(result))))
    assert [r["player"] for r in ratings] == [result.players[i] for i in result.ratings.ranking()]
    games = list(csv.DictReader(io.StringIO(games_csv(result))))
    assert len(games) == 12
    a_points = sum({"win": 1, "draw": 0.5, "loss": 0}[g["a_result"]] for g in games)
    assert a_points == pytest.approx(result.points_matrix()[0, 1])
    assert [g["a_seat"] for g in games[:2]] == ["0", "1"]


def test_plot_is_a_png(result) -> None:
    assert tournament_png(result).startswith(b"\x89PNG\r\n\x1a\n")


class FirstLegal(QuartoPlayer):
    """A deterministic player: always the first legal piece and square."""

    def choose_piece(self, board) -> int:
        return board.legal_pieces()[0]

    def place_piece(self, board, piece) -> int:
        return board.legal_squares()[0]


class LastLegal(QuartoPlayer):
    """Another deterministic player: always the last legal piece and square."""

    def choose_piece(self, board) -> int:
        return board.legal_pieces()[-1]

    def place_piece(self, board, piece) -> int:
        return board.legal_squares()[-1]


def test_repeated_games_of_deterministic_players_are_flagged(result) -> None:
    from gpquarto.arena.ratings import fit_ratings
    from gpquarto.arena.tournament import TournamentResult, pairwise_matrices

    match = play_match(FirstLegal(), LastLegal(), 10, seed=1, keep_records=True)
    matches = {(0, 1): match}
    points, games = pairwise_matrices(2, matches)
    repeated = TournamentResult(
        ("first", "last"), 10, 1, "classic", matches, fit_ratings(["first", "last"], points, games)
    )
    assert repeated.distinct_games(0, 1) == 2  # one game per seat, repeated
    assert "only 2 distinct games of 10" in format_table(repeated)
    assert result.distinct_games(0, 1) == 12 and result.repetition_warnings() == []
