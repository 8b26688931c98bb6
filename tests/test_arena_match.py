"""Matches: alternation, determinism by seed, totals, Wilson intervals, parallel equals serial."""

from __future__ import annotations

import math
import sys

import pytest

from gpquarto.arena import play_match, wilson_interval
from gpquarto.jobs.matches import run_match
from gpquarto.resolve import make_player
from gpquarto.runner import make_runner
from tests.helpers import LowestPlayer


class Cheater(LowestPlayer):
    name = "cheater"

    def place_piece(self, board, piece):
        return 0  # illegal as soon as square 0 is taken


def totals(result):
    return (result.games, result.wins, result.draws, result.losses, tuple(result.forfeits), tuple(result.decisions))


def test_match_is_reproducible_by_seed_and_seed_matters():
    first = run_match("random", "random", 200, seed=4)
    again = run_match("random", "random", 200, seed=4)
    other = run_match("random", "random", 200, seed=5)
    assert totals(first) == totals(again)
    assert first.wins + first.draws + first.losses == 200
    assert totals(first) != totals(other)


def test_starts_alternate():
    result = play_match(LowestPlayer(), LowestPlayer(), 6, keep_records=True)
    # Identical deterministic players: every game is the same game, so seat 0 always has the same fate;
    # alternation then gives A exactly half of the decisive games.
    winners = {record.winner for record in result.records}
    assert len(winners) == 1
    if winners != {None}:
        assert result.wins == result.losses == 3
    assert [record.players for record in result.records[:2]] == [
        ("lowest (A)", "lowest (B)"),
        ("lowest (B)", "lowest (A)"),
    ]


def test_forfeits_are_counted_and_the_match_goes_on():
    result = play_match(Cheater(), make_player("random"), 20, seed=1)
    assert result.games == 20
    assert result.forfeits[0] > 0 and result.forfeits[1] == 0
    assert all("cheater" in reason and "occupied" in reason for reason in result.forfeit_reasons)


def test_parallel_equals_serial():
    serial = run_match("random", "novice", 60, seed=3)
    with make_runner(2) as runner:
        parallel = run_match("random", "novice", 60, seed=3, runner=runner)
    assert totals(serial) == totals(parallel)


def _wilson_by_bisection(successes, trials, z=1.959963984540054):
    """Independent reference: the interval is the set of p with |p_hat - p| <= z sqrt(p(1-p)/n)."""
    p_hat = successes / trials

    def inside(p):
        return abs(p_hat - p) <= z * math.sqrt(p * (1 - p) / trials)

    def edge(lo, hi):  # lo inside, hi outside (or the reverse): bisect to the boundary
        for _ in range(200):
            mid = (lo + hi) / 2
            if inside(mid) == inside(lo):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    lower = 0.0 if inside(0.0) else edge(p_hat, 0.0)
    upper = 1.0 if inside(1.0) else edge(p_hat, 1.0)
    return lower, upper


@pytest.mark.parametrize("successes, trials", [(0, 10), (10, 10), (3, 10), (50, 100), (987, 1000), (12.5, 40)])
def test_wilson_matches_an_independent_computation(successes, trials):
    low, high = wilson_interval(successes, trials)
    ref_low, ref_high = _wilson_by_bisection(successes, trials)
    assert low == pytest.approx(ref_low, abs=1e-9)
    assert high == pytest.approx(ref_high, abs=1e-9)


def test_wilson_rejects_nonsense():
    with pytest.raises(ValueError):
        wilson_interval(5, 3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_decision_time_per_side_uses_both_sides():
    result = run_match("random", "random", 10, seed=1)
    assert result.decisions[0] > 0 and result.decisions[1] > 0
    assert sum(result.decisions) == sum(
        len(r.times) for r in run_match("random", "random", 10, seed=1, keep_records=True).records
    )


class Quitter(LowestPlayer):
    """Calls sys.exit when asked to place: a bug that must not end the whole match."""

    def place_piece(self, board, piece):
        sys.exit(3)


def test_a_player_calling_sys_exit_forfeits_like_any_other_error():
    result = play_match(Quitter(), make_player("random"), 6, seed=2)
    assert result.games == 6 and result.forfeits[0] == 6
    assert all("SystemExit" in reason for reason in result.forfeit_reasons)
