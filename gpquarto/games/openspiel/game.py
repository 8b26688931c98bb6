"""One OpenSpiel game on gpquarto's game interface (:class:`~gpquarto.games.interface.Game`)."""

from __future__ import annotations

from typing import Any

from gpquarto.games.interface import DecisionKind
from gpquarto.games.openspiel.names import canonical_name
from gpquarto.games.openspiel.state import START, OpenSpielState, position_text


class OpenSpielGame:
    """An OpenSpiel game (a loaded ``pyspiel`` game, ``spiel``) as a gpquarto game: no settings (its parameters
    are in its name), one decision kind, OpenSpiel's actions."""

    rule_sets: tuple[str, ...] = ("standard",)
    decision_kinds: tuple[DecisionKind, ...] = (DecisionKind.MOVE,)

    def __init__(self, spiel_game: Any) -> None:
        self.spiel = spiel_game
        self.name = canonical_name(spiel_game)
        self.action_count: int = spiel_game.num_distinct_actions()

    def check_settings(self, settings: dict[str, object]) -> dict[str, object]:
        """``{}`` (a one-line ``ValueError`` for any setting: OpenSpiel's parameters go in the game's name)."""
        if settings:
            name = sorted(settings)[0]
            raise ValueError(
                f"{self.name} has no setting {name!r}: an OpenSpiel game's parameters go in its name, as in "
                "openspiel:breakthrough(rows=6,columns=6)"
            )
        return {}

    def new_state(self, **settings: object) -> OpenSpielState:
        """The start position."""
        self.check_settings(settings)
        return OpenSpielState(self)

    def from_text(self, text: str, **settings: object) -> OpenSpielState:
        """The position that ``text`` (``"start 3 4"``: the actions from the start) reaches, each action checked;
        a one-line ``ValueError`` saying what is wrong."""
        self.check_settings(settings)
        if not isinstance(text, str):
            raise ValueError(f"position text must be a string, got {type(text).__name__}")
        words = text.split()
        if not words or words[0] != START:
            raise ValueError(
                f"expected {START!r} and the actions from the start (as in 'start 3 4'), got {text[:60]!r}"
            )
        state = OpenSpielState(self)
        for number, word in enumerate(words[1:], 1):
            if not (word.isascii() and word.isdecimal()) or int(word) not in state.legal_actions():
                raise ValueError(
                    f"action {number} of the position, {word[:20]!r}, is not legal after {position_text(state.history)[:60]!r}"
                )
            state.apply(int(word))
        return state

    def __repr__(self) -> str:
        return f"<game {self.name}>"
