"""Quixo as a :class:`~gpquarto.games.interface.Game`: its settings, start positions and position text."""

from __future__ import annotations

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quixo.board import (
    DEFAULT_PLY_LIMIT,
    DEFAULT_REPETITIONS,
    DEFAULT_SIZE,
    MAX_PLY_LIMIT,
    MAX_REPETITIONS,
    QuixoBoard,
    QuixoRules,
)
from gpquarto.games.quixo.tables import SIZES

SETTINGS = ("rules", "size", "ply_limit", "repetitions")


class QuixoGame:
    """Quixo: actions ``4*cell + direction`` (100 on the 5x5 board, 44 of them ever legal); settings ``rules``
    (``official`` or ``course``), ``size`` (5; 3 and 4 for exact solving), ``ply_limit`` (300) and
    ``repetitions`` (3)."""

    name = "quixo"
    rule_sets = tuple(rules.value for rules in QuixoRules)
    action_count = 4 * DEFAULT_SIZE * DEFAULT_SIZE
    decision_kinds: tuple[DecisionKind, ...] = (DecisionKind.MOVE,)

    def check_settings(self, settings: dict[str, object]) -> dict[str, object]:
        """The settings checked and completed with the defaults; ``ValueError`` in one line when one is bad."""
        unknown = sorted(set(settings) - set(SETTINGS))
        if unknown:
            raise ValueError(f"Quixo has no setting {unknown[0]!r:.40} (settings: {', '.join(SETTINGS)})")
        rules = settings.get("rules", QuixoRules.OFFICIAL)
        if rules not in self.rule_sets:
            raise ValueError(f"unknown Quixo rules {rules!r:.40} (known: {', '.join(self.rule_sets)})")
        size = settings.get("size", DEFAULT_SIZE)
        if size.__class__ is not int or size not in SIZES:
            raise ValueError(f"a Quixo size is 3, 4 or 5, got {size!r:.40}")
        ply_limit = settings.get("ply_limit", DEFAULT_PLY_LIMIT)
        if ply_limit.__class__ is not int or not 1 <= ply_limit <= MAX_PLY_LIMIT:
            raise ValueError(f"ply_limit must be an int >= 1 and <= {MAX_PLY_LIMIT}, got {ply_limit!r:.40}")
        repetitions = settings.get("repetitions", DEFAULT_REPETITIONS)
        if repetitions.__class__ is not int or not 2 <= repetitions <= MAX_REPETITIONS:
            raise ValueError(f"repetitions must be an int >= 2 and <= {MAX_REPETITIONS}, got {repetitions!r:.40}")
        return {"rules": str(rules), "size": size, "ply_limit": ply_limit, "repetitions": repetitions}

    def new_state(self, **settings: object) -> QuixoBoard:
        """The empty board under ``settings``."""
        s = self.check_settings(settings)
        return QuixoBoard(s["size"], s["rules"], s["ply_limit"], s["repetitions"])  # type: ignore[arg-type]  # check_settings checked it

    def from_text(self, text: str, **settings: object) -> QuixoBoard:
        """The position in Quixo's position text (which carries the size and the rules); ``size`` and ``rules``
        settings, when given, must agree with it."""
        s = self.check_settings(settings)
        board = QuixoBoard.from_text(text, s["ply_limit"], s["repetitions"])  # type: ignore[arg-type]  # check_settings checked it
        for name, value in (("size", board.size), ("rules", board.rules.value)):
            if name in settings and s[name] != value:
                raise ValueError(f"the position {text!r} has {name} {value}, not {settings[name]}")
        return board

    def __repr__(self) -> str:
        return "<game quixo>"


QUIXO = QuixoGame()
