"""Argument types and helpers shared by the commands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from gpquarto.engine.lines import Rules


def _whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected a number >= {minimum}, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an int >= 1."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: an int >= 0."""
    return _whole_number(text, 0)


def positive_float(text: str) -> float:
    """argparse type: a float > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """``--advanced``: play with the 2x2 blocks as winning lines too; sets ``args.rules``."""
    parser.add_argument(
        "--advanced",
        dest="rules",
        action="store_const",
        const=Rules.ADVANCED.value,
        default=Rules.CLASSIC.value,
        help="advanced rules: the nine 2x2 blocks win too",
    )


def add_plugin_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--plugin FILE`` (repeatable): primitive plugin files; sets ``args.plugins`` (None when not given)."""
    parser.add_argument("--plugin", dest="plugins", action="append", default=None, metavar="FILE", help=help)


@contextmanager
def progress_bar(total: int, unit: str, *, disable: bool = False, minimum: int = 200) -> Iterator:
    """A tqdm bar on stderr for long runs (``total >= minimum`` and not disabled), else a silent stand-in."""
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, disable=disable or total < minimum, file=sys.stderr, leave=False) as bar:
        yield bar
