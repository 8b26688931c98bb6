"""A game's settings schema: each setting's name, type, default, allowed values and help.

A game plug-in declares its settings once (:class:`Setting`); the CLI makes its ``--NAME`` options from the
schemas of the installed games, the web checks its request fields with them, and both convert text the same
way. Example::

    >>> size = Setting("size", int, 5, choices=(3, 4, 5), help="board size")
    >>> size.from_text("4")
    4
    >>> size.check(7)
    Traceback (most recent call last):
    ...
    ValueError: size must be one of 3, 4, 5, got 7
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: The types a setting may have.
SETTING_TYPES = (bool, int, float, str)
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


@dataclass(frozen=True)
class Setting:
    """One setting of a game.

    ``choices`` (when not empty) lists every allowed value; ``minimum`` and ``maximum`` bound a number (both
    ends allowed). ``shortcuts`` are extra command-line flags that set a value: Quarto's ``rules`` has
    ``{"advanced": "advanced"}``, so ``--advanced`` means ``--rules advanced``.
    """

    name: str
    type: type
    default: object
    choices: tuple[object, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""
    shortcuts: Mapping[str, object] = field(default_factory=dict)
    #: How a value reads in a summary line, ``{}`` standing for the value (default ``"NAME {}"``; Quarto's
    #: rules: ``"{} rules"``).
    label: str = ""
    #: The largest value a request to the web server may set, where it is below ``maximum`` (a server bounds the
    #: work one visitor can ask for); None: ``maximum``, or the default when the setting has no maximum.
    served_maximum: float | None = None

    @property
    def served_bound(self) -> float | None:
        """The largest value of a number setting the web server accepts (see :attr:`served_maximum`); None for a
        setting with choices or of another type."""
        if self.type not in (int, float) or self.choices:
            return None
        for bound in (self.served_maximum, self.maximum):
            if bound is not None:
                return bound
        return self.default  # type: ignore[return-value]  # a number setting's default is a number

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name.startswith("_"):
            raise ValueError(f"a setting's name is an identifier not starting with '_', got {self.name!r}")
        if self.type not in SETTING_TYPES:
            raise ValueError(f"setting {self.name}: the type must be bool, int, float or str, got {self.type!r}")
        object.__setattr__(self, "choices", tuple(self.choices))
        for value in (self.default, *self.choices, *self.shortcuts.values()):
            self.check(value)

    def to_json(self) -> dict:
        """The setting as plain data (what the web page builds a game's form from: its maximum is the one the
        server accepts)."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.served_bound if self.served_bound is not None else self.maximum,
            "help": self.help,
        }

    @property
    def flag(self) -> str:
        """The command-line option: ``--ply-limit`` for ``ply_limit``."""
        return "--" + self.name.replace("_", "-")

    def shown(self, value: object) -> str:
        """``value`` in words for a summary line (``"classic rules"``, ``"size 4"``; a true/false setting without a
        label: ``"misere"`` or ``"no misere"``)."""
        if self.type is bool and not self.label:
            return self.name if value else f"no {self.name}"
        return (self.label or f"{self.name} {{}}").format(value)

    def describe(self) -> str:
        """What values are allowed, in words (for help texts and errors)."""
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        if self.minimum is not None and self.maximum is not None:
            return f"{self.type.__name__} from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"{self.type.__name__} >= {self.minimum:g}"
        if self.maximum is not None:
            return f"{self.type.__name__} <= {self.maximum:g}"
        return self.type.__name__

    def check(self, value: object) -> object:
        """``value`` if it is allowed (exactly of the type: ``True`` is no int, ``1`` no bool; an int is a
        float); a one-line ``ValueError`` otherwise."""
        typed = value.__class__ is self.type or (self.type is float and value.__class__ is int)
        if not typed:
            raise ValueError(f"{self.name} must be {self.describe()}, got {_shown(value)}")
        if self.type is float and not math.isfinite(value):  # type: ignore[arg-type]  # typed above
            raise ValueError(f"{self.name} must be a finite number, got {value!r}")
        if self.choices and value not in self.choices:
            raise ValueError(f"{self.name} must be {self.describe()}, got {_shown(value)}")
        if (self.minimum is not None and value < self.minimum) or (  # type: ignore[operator]  # a number here
            self.maximum is not None and value > self.maximum  # type: ignore[operator]  # a number here
        ):
            raise ValueError(f"{self.name} must be {self.describe()}, got {_shown(value)}")
        return float(value) if self.type is float else value  # type: ignore[arg-type]  # a number here

    def from_text(self, text: str) -> object:
        """The value that ``text`` (a command-line word, a form field) names, checked."""
        if not isinstance(text, str):
            raise ValueError(f"{self.name} must be {self.describe()}, got {_shown(text)}")
        word = text.strip()
        try:
            if self.type is bool:
                if word.lower() not in _TRUE + _FALSE:
                    raise ValueError
                value: object = word.lower() in _TRUE
            elif self.type is int:
                value = int(word)
            elif self.type is float:
                value = float(word)
            else:
                value = word
        except ValueError:
            raise ValueError(f"{self.name} must be {self.describe()}, got {_shown(text)}") from None
        return self.check(value)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_settings(game: str, schema: Sequence[Setting], settings: Mapping[str, object]) -> dict[str, object]:
    """``settings`` checked against ``schema`` and completed with the defaults, in the schema's order; a
    setting the game does not have or a bad value is a one-line ``ValueError`` naming the game."""
    by_name = {setting.name: setting for setting in schema}
    unknown = sorted(set(settings) - set(by_name))
    if unknown:
        have = ", ".join(by_name) or "none"
        raise ValueError(f"{game} has no setting {unknown[0]!r} (settings: {have})")
    return {
        setting.name: setting.check(settings[setting.name]) if setting.name in settings else setting.default
        for setting in schema
    }


def settings_from_text(game: str, schema: Sequence[Setting], texts: Mapping[str, str]) -> dict[str, object]:
    """The settings that ``texts`` (name -> text, from the command line or a form) name, converted by the schema
    (only those given: the game completes the rest); a one-line ``ValueError`` as :func:`check_settings`."""
    by_name = {setting.name: setting for setting in schema}
    unknown = sorted(set(texts) - set(by_name))
    if unknown:
        have = ", ".join(by_name) or "none"
        raise ValueError(f"{game} has no setting {unknown[0]!r} (settings: {have})")
    converted = {}
    for name, text in texts.items():
        try:
            converted[name] = by_name[name].from_text(text)
        except ValueError as error:
            raise ValueError(f"{game}: {error}") from None
    return converted
