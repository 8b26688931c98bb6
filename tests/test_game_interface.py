"""The game interface's invariants, on every registered game, over many seeded random games (OpenSpiel's way)."""

from __future__ import annotations

import random

import pytest

from gpquarto.games import (
    DecisionKind,
    GameState,
    GameView,
    IllegalActionError,
    Outcome,
    Termination,
    game_names,
    get_game,
)

GAMES = game_names()


def random_states(game_name: str, games: int, seed: int):
    """Every state met in ``games`` seeded random games, each followed by the action played from it (None at
    the end)."""
    rng = random.Random(seed)
    game = get_game(game_name)
    for _ in range(games):
        state = game.new_state()
        while not state.is_over():
            action = rng.choice(state.legal_actions())
            yield state, action
            state.apply(action)
        yield state, None


@pytest.mark.parametrize("name", GAMES)
def test_states_and_views_meet_the_protocols(name):
    check_protocols(name)


def check_protocols(name: str) -> None:
    """A state and its view meet the interface's protocols (shared with the OpenSpiel games' tests)."""
    state = get_game(name).new_state()
    assert isinstance(state, GameState)
    assert isinstance(state.view(), GameView)
    assert not isinstance(state.view(), GameState) or not hasattr(state.view(), "apply")
    assert state.game_name == name == get_game(name).name


@pytest.mark.parametrize("name", GAMES)
def test_invariants_hold_on_every_state_of_random_games(name):
    check_invariants(name, 200)


def check_invariants(name: str, games: int) -> None:
    """The interface's invariants on every state of ``games`` seeded random games."""
    game = get_game(name)
    for state, action in random_states(name, games, seed=1):
        legal = list(state.legal_actions())
        assert legal == sorted(set(legal))
        assert all(0 <= a < game.action_count for a in legal)
        assert (legal == []) == state.is_over() == (state.outcome() is not None)
        assert game.from_text(state.text()).text() == state.text()
        if action is None:
            continue
        assert state.decision_kind() in game.decision_kinds
        for candidate in legal:
            assert state.parse_action(state.action_name(candidate)) == candidate
        before = (state.text(), state.canonical_key(), state.history, state.player)
        state.apply(action)
        assert state.undo() == action
        assert (state.text(), state.canonical_key(), state.history, state.player) == before


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_are_refused_and_change_nothing(name):
    check_illegal_actions(name, 30)


def check_illegal_actions(name: str, games: int) -> None:
    """Illegal actions (and values that are no action) are refused and change nothing."""
    game = get_game(name)
    for state, action in random_states(name, games, seed=2):
        if action is None:
            continue
        legal = set(state.legal_actions())
        illegal = [a for a in range(game.action_count) if a not in legal][:5]
        before = state.text()
        for bad in [*illegal, -1, game.action_count, True, "1", 1.0, None]:
            with pytest.raises(IllegalActionError):
                state.apply(bad)
            assert state.text() == before


@pytest.mark.parametrize("name", GAMES)
def test_a_view_follows_its_state_and_cannot_change_it(name):
    check_view(name)


def check_view(name: str) -> None:
    """A view follows its state and cannot change it; its copy is independent."""
    state = get_game(name).new_state()
    view = state.view()
    assert not hasattr(view, "apply") and not hasattr(view, "undo")
    state.apply(state.legal_actions()[0])
    assert view.text() == state.text()
    copy = view.copy()
    copy.apply(copy.legal_actions()[0])
    assert view.text() == state.text() != copy.text()


@pytest.mark.parametrize("name", GAMES)
def test_finished_games_have_an_outcome_that_scores_both_seats(name):
    check_outcomes(name, 300)


def check_outcomes(name: str, games: int) -> None:
    """Finished games have an outcome scoring 1 in all, and some random game is won."""
    ends = set()
    for state, action in random_states(name, games, seed=3):
        if action is None:
            outcome = state.outcome()
            assert isinstance(outcome, Outcome)
            assert outcome.score(0) + outcome.score(1) == 1
            ends.add(outcome.termination)
    assert Termination.WIN in ends


def test_bad_game_names_and_settings_are_one_line_errors():
    with pytest.raises(ValueError, match="unknown game 'chess' \\(known: quarto"):
        get_game("chess")
    with pytest.raises(ValueError, match="no setting 'size'"):
        get_game("quarto").new_state(size=3)
    with pytest.raises(ValueError, match="unknown Quarto rules 'blitz'"):
        get_game("quarto").new_state(rules="blitz")


def test_outcomes_refuse_inconsistent_results():
    assert Outcome(Termination.FORFEIT, 1, forfeited_by=0, reason="slow").score(1) == 1
    for bad in (
        lambda: Outcome(Termination.WIN),
        lambda: Outcome(Termination.DRAW, 0),
        lambda: Outcome(Termination.FORFEIT, 1),
        lambda: Outcome(Termination.FORFEIT, 1, forfeited_by=1),
        lambda: Outcome(Termination.WIN, 7),
    ):
        with pytest.raises(ValueError):
            bad()


def test_decision_kinds_are_their_names():
    assert DecisionKind.CHOOSE == "choose" and str(DecisionKind.MOVE) == "move"
    assert Termination("ply_limit") is Termination.PLY_LIMIT
