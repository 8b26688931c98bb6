"""Command-line interface: ``python3 -m gpquarto COMMAND ...`` (also the ``gpquarto`` script).

Each command lives in its own module with a ``register(subparsers)`` function that adds its parser and
sets ``handler`` to a function ``handler(args) -> int``. Expected failures (bad arguments, unreadable
files, unknown players) raise :class:`UsageError` or ``ValueError``/``OSError``: they print one line
``gpquarto: error: ...`` and exit with code 2, without a traceback.
"""

from __future__ import annotations

import _thread
import argparse
import importlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import NoReturn

#: Modules that define a command each (``register(subparsers)``), in the order ``--help`` lists them.
COMMAND_MODULES = [
    "gpquarto.cli.match",
    "gpquarto.cli.bench",
    "gpquarto.cli.tournament",
    "gpquarto.cli.players_cmd",
    "gpquarto.cli.play",
    "gpquarto.cli.train",
    "gpquarto.cli.learn",
    "gpquarto.cli.experiment",
    "gpquarto.cli.show",
    "gpquarto.cli.primitives_cmd",
    "gpquarto.cli.solve",
    "gpquarto.cli.watch",
    "gpquarto.cli.serve",
    "gpquarto.cli.grade",
]


class UsageError(Exception):
    """A problem with what the user asked for; reported in one line with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints usage too; keep it short)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every command registered."""
    parser = _Parser(prog="gpquarto", description="Evolve, test and play Quarto players.")
    from gpquarto import __version__

    parser.add_argument("--version", action="version", version=f"gpquarto {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


_SHOWN: set[str] = set()


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning as one line on stderr, each message once (a player may be loaded several times)."""
    if str(message) not in _SHOWN:
        _SHOWN.add(str(message))
        print(f"gpquarto: warning: {message}", file=sys.stderr)


#: Seconds after a Ctrl-C lost in a callback that it is raised again (in the code the main thread runs then).
RAISE_AGAIN_AFTER_SECONDS = 0.05


class _LostCtrlCRaisedAgain:
    """The CLI's ``sys.unraisablehook``. A Ctrl-C whose ``KeyboardInterrupt`` is raised inside a callback that Python
    runs for itself (a finalizer, or a weakref callback such as the import system's module locks) cannot leave that
    callback: Python prints "Exception ignored" and the command goes on as if no key had been pressed. This hook
    raises the Ctrl-C again a moment later, in the code that runs then, unless the command has stopped for a Ctrl-C
    by then (:meth:`stopped`). Any other exception goes to the hook it replaced."""

    def __init__(self, replaced: Callable[[sys.UnraisableHookArgs], object]) -> None:
        self.replaced = replaced
        self._stopped = threading.Event()

    def __call__(self, unraisable: sys.UnraisableHookArgs) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            # From another thread, a moment later: raised from here (signal.raise_signal, _thread.interrupt_main),
            # the handler runs at once, inside this hook, and the interrupt is lost again.
            later = threading.Timer(RAISE_AGAIN_AFTER_SECONDS, self._raise_again)
            later.daemon = True
            later.start()
        else:
            self.replaced(unraisable)

    def _raise_again(self) -> None:
        if not self._stopped.is_set():
            _thread.interrupt_main(signal.SIGINT)

    def stopped(self) -> None:
        """The command has stopped (for a Ctrl-C or at its end): a Ctrl-C lost before is not raised again."""
        self._stopped.set()


def _caused_by_ctrl_c(error: BaseException) -> bool:
    """Whether ``error`` is a Ctrl-C that Python wrapped (a ``KeyboardInterrupt`` raised inside ``__set_name__``
    while a class is made comes out as a ``RuntimeError`` caused by it)."""
    cause = error.__cause__
    while cause is not None and not isinstance(cause, KeyboardInterrupt):
        cause = cause.__cause__
    return cause is not None


def _clear_the_interpreters_unhandled_ctrl_c_mark() -> None:
    """CPython marks a Ctrl-C that leaves code run from a string (``exec`` of a text, as dataclasses and namedtuple
    make their methods while a module loads) as unhandled, even when a caller handles it later, and the program
    then ends killed by SIGINT instead of with its exit code. Running any code from a string clears the mark."""
    exec("")  # noqa: S102 - an empty program, from no input


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code. Ctrl-C at any moment, its modules still loading included, is one line
    (a command may add what it kept and how to go on) and exit code 130."""
    replaced = sys.unraisablehook
    hook = sys.unraisablehook = _LostCtrlCRaisedAgain(replaced)
    try:
        return _run(argv)
    except KeyboardInterrupt as interruption:
        hook.stopped()
        _clear_the_interpreters_unhandled_ctrl_c_mark()
        print(f"gpquarto: interrupted{f'; {interruption}' if str(interruption) else ''}", file=sys.stderr)
        return 130
    except Exception as error:
        if not _caused_by_ctrl_c(error):
            raise
        hook.stopped()
        _clear_the_interpreters_unhandled_ctrl_c_mark()
        print("gpquarto: interrupted", file=sys.stderr)
        return 130
    finally:
        hook.stopped()
        sys.unraisablehook = replaced


def _run(argv: Sequence[str] | None) -> int:
    """The command line's command, its errors as one line (exit code 2)."""
    from gpquarto.cli.common import complete_game_settings
    from gpquarto.runner import RunnerError

    parser = build_parser()
    args = parser.parse_args(argv)
    shown, warnings.showwarning = warnings.showwarning, _one_line_warning
    try:
        complete_game_settings(args)
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # the reader went away (``show --dot | head -1``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (UsageError, ValueError, OSError, RunnerError) as error:
        from gpquarto.plain_files import one_line

        print(f"gpquarto: error: {one_line(str(error), 4000)}", file=sys.stderr)  # one line, whatever it quotes
        return 2
    finally:
        warnings.showwarning = shown
