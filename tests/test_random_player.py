"""The random player: legal, uniform over the legal options, reproducible by seed; in Quarto's form (a piece, then a
square: what the arena's Quarto loop asks) it draws what ``decide`` draws."""

from __future__ import annotations

from collections import Counter

from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.players.form import QUARTO_FORM
from gpquarto.players.random_player import RandomPlayer
from tests.helpers import random_positions

# 0.999 quantile of the chi-square distribution with 15 degrees of freedom.
CHI_SQUARE_15_DOF_999 = 37.70


def chi_square(counts: Counter, options: tuple[int, ...], draws: int) -> float:
    expected = draws / len(options)
    return sum((counts[option] - expected) ** 2 / expected for option in options)


def choose(player: RandomPlayer, view) -> int:
    return QUARTO_FORM.ask(player, view)  # type: ignore[return-value]  # a piece: a choice is due


def test_choices_and_placements_are_legal() -> None:
    player = RandomPlayer(seed=3)
    for board in random_positions(4, 200):
        answer = QUARTO_FORM.ask(player, board.view())
        assert answer in (board.legal_pieces() if board.choice_due else board.legal_squares())
        assert player.decide(board.view()) in board.legal_actions()


def test_quartos_form_draws_what_decide_draws() -> None:
    """The arena plays a random player through Quarto's loop: the same seed must give the same game as ``decide``."""
    form, interface = RandomPlayer(seed=8), RandomPlayer(seed=8)
    for board in random_positions(4, 300):
        answer = QUARTO_FORM.ask(form, board.view())
        assert interface.decide(board.view()) == (answer if board.choice_due else PLACE_OFFSET + answer)


def test_draws_are_uniform_over_sixteen_options() -> None:
    board = Board()
    player = RandomPlayer(seed=11)
    draws = 32_000
    pieces = Counter(choose(player, board.view()) for _ in range(draws))
    board.choose(0)
    squares = Counter(QUARTO_FORM.ask(player, board.view()) for _ in range(draws))
    assert set(pieces) == set(range(16)) and set(squares) == set(range(16))
    assert chi_square(pieces, tuple(range(16)), draws) < CHI_SQUARE_15_DOF_999
    assert chi_square(squares, tuple(range(16)), draws) < CHI_SQUARE_15_DOF_999


def test_the_uniformity_check_catches_a_biased_player() -> None:
    """The check above can fail: a player that favours one piece by 15% over the others is caught."""
    draws = 32_000
    counts = Counter({option: 2000 for option in range(16)})
    counts[0] += 300
    counts[1] -= 300
    assert chi_square(counts, tuple(range(16)), draws) > CHI_SQUARE_15_DOF_999


def test_same_seed_same_draws_and_seed_hook_resets() -> None:
    view = Board().view()
    first = RandomPlayer(seed=5)
    sequence = [choose(first, view) for _ in range(50)]
    second = RandomPlayer(seed=99)
    second.seed(5)
    assert [choose(second, view) for _ in range(50)] == sequence
    assert [choose(RandomPlayer(seed=6), view) for _ in range(50)] != sequence
