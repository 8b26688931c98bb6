"""Quarto as a :class:`~gpquarto.games.interface.Game`: its settings, start positions and position text."""

from __future__ import annotations

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.lines import Rules


class QuartoGame:
    """Quarto: 32 actions (0..15 give that piece, 16..31 place the piece in hand on square ``action - 16``);
    one setting, ``rules`` (``classic`` or ``advanced``, which also counts the nine 2x2 blocks)."""

    name = "quarto"
    rule_sets = tuple(rules.value for rules in Rules)
    action_count = 2 * PLACE_OFFSET
    decision_kinds: tuple[DecisionKind, ...] = (DecisionKind.CHOOSE, DecisionKind.PLACE)

    def check_settings(self, settings: dict[str, object]) -> dict[str, object]:
        """``{"rules": ...}`` checked, with the default (classic) filled in."""
        unknown = sorted(set(settings) - {"rules"})
        if unknown:
            raise ValueError(f"Quarto has no setting {unknown[0]!r} (settings: rules)")
        rules = settings.get("rules", Rules.CLASSIC)
        if isinstance(rules, Rules):
            return {"rules": rules.value}
        if rules not in self.rule_sets:
            raise ValueError(f"unknown Quarto rules {rules!r} (known: {', '.join(self.rule_sets)})")
        return {"rules": rules}

    def new_state(self, **settings: object) -> Board:
        """The empty board under ``rules``."""
        return Board(self.check_settings(settings)["rules"])  # type: ignore[arg-type]  # check_settings checked it

    def from_text(self, text: str, **settings: object) -> Board:
        """The position in Quarto's position text (which carries its rules); a ``rules`` setting must agree."""
        board = Board.from_text(text)
        if "rules" in settings and self.check_settings(settings)["rules"] != board.rules.value:
            raise ValueError(f"the position {text!r} is not under {settings['rules']} rules")
        return board

    def __repr__(self) -> str:
        return "<game quarto>"


QUARTO = QuartoGame()
