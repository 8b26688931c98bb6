"""Position text of each game and action names, generated and mutated: a position (that writes back to the same
text) or an action of the position, or a one-line error (issue 32, the fuzz suite)."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gpquarto.games.registry import game_names, get_game
from tests.fuzz.support import FUZZ, Refused, outcome

#: Settings the command line and the web accept, by game.
SETTINGS = {"quarto": [{}, {"rules": "advanced"}], "quixo": [{}, {"size": 3}, {"size": 4}, {"rules": "course"}]}


def positions(game: str, count: int = 12) -> list:
    """Positions of real games: the start, then after random plies (seeded)."""
    rng = random.Random(5)
    found = []
    for settings in SETTINGS[game]:
        state = get_game(game).new_state(**settings)
        found.append(state.copy())
        for _ in range(count):
            if state.is_over():
                break
            state.apply(rng.choice(list(state.legal_actions())))
            found.append(state.copy())
    return found


TEXTS = {game: [state.text() for state in positions(game)] for game in game_names()}
#: Characters position texts and action names are made of, and others.
ALPHABET = st.sampled_from(list("0123456789abcdefABCDEF.-/ XOx o_:|\t\n") + ["\x00", "é", "\u202e", "９"])


@st.composite
def texts(draw, game: str) -> str:
    base = draw(st.sampled_from(TEXTS[game]))
    kind = draw(st.sampled_from(["mutated", "mutated", "random", "repeated"]))
    if kind == "random":
        return draw(st.text(ALPHABET, max_size=80))
    if kind == "repeated":
        return base * draw(st.integers(2, 2000))
    chars = list(base)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(chars)))
        edit = draw(st.sampled_from(["replace", "delete", "insert"]))
        if edit == "replace" and at < len(chars):
            chars[at] = draw(ALPHABET)
        elif edit == "delete" and at < len(chars):
            del chars[at]
        else:
            chars.insert(at, draw(ALPHABET))
    return "".join(chars)


def read_position(game: str, text: str, settings: dict) -> object:
    state = get_game(game).from_text(text, **settings)
    again = get_game(game).from_text(state.text(), **settings)
    assert again.text() == state.text()  # what was read writes back the same
    state.legal_actions()
    return state


@pytest.mark.parametrize("game", game_names())
@FUZZ
@given(data=st.data())
@example(data=None)
def test_position_text(game, data):
    if data is None:  # the classics: nothing, very long, control characters
        for text in ("", " " * 10_000, "\x00" * 50, "x" * 1_000_000, "\n".join(TEXTS[game])):
            outcome(f"position text ({game})", lambda text=text: read_position(game, text, {}))
        return
    text = data.draw(texts(game))
    settings = data.draw(st.sampled_from(SETTINGS[game]))
    outcome(f"position text ({game})", lambda: read_position(game, text, settings))


def parse(state, text: str) -> int:
    action = state.parse_action(text)
    assert isinstance(action, int)
    return action


@pytest.mark.parametrize("game", game_names())
@FUZZ
@given(data=st.data())
def test_action_names(game, data):
    states = [state for state in positions(game) if not state.is_over()]
    state = data.draw(st.sampled_from(states))
    names = [state.action_name(action) for action in state.legal_actions()]
    text = data.draw(
        st.one_of(
            st.sampled_from(names),
            st.text(ALPHABET, max_size=30),
            st.sampled_from(names).map(lambda name: name.upper() + " "),
            st.sampled_from(names).map(lambda name: name[: len(name) // 2]),
            st.sampled_from(["", "-1", "999", "1e9", "nan", "b1 to nowhere", "z9 to top", "x" * 10_000]),
            st.integers(-(10**30), 10**30).map(str),
        )
    )
    result = outcome(f"action names ({game})", lambda: parse(state, text))
    if text in names:
        assert not isinstance(result, Refused) and state.action_name(result) == text
