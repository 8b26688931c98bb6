"""Every command's arguments, generated and mutated: each run exits 0, or 2 with one line ``gpquarto: error: ...``
(or argparse's one-line usage error), within its budget, and writes nothing outside its own folder (issue 32, the
fuzz suite).

Each command starts from a quick valid command line (tiny sizes, one worker process); Hypothesis adds options the
command's parser declares, with hostile values (non-numbers, infinities, huge and negative numbers, long and
binary text, hostile files: a deep JSON, a zip bomb, a truncated pickle, a pipe, a folder, a link out of the
folder), or replaces a positional argument. Nothing binds a port: ``serve`` stops where it would listen. Options
that run code named on the command line by design (``--plugin``, ``bench --compare``) are left out.
"""

from __future__ import annotations

import argparse
import atexit
import io
import os
import shutil
import signal
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from gpquarto.cli import build_parser, main
from tests.conftest import REPO
from tests.fuzz.support import FUZZ, outcome

#: Each command's quick valid command line; ``RUN`` and ``OUT`` become folders of the input's own folder.
BASES: dict[str, list[str]] = {
    "match": ["match", "random", "random", "--games", "2", "--quiet", "--workers", "1"],
    "bench": ["bench", "engine", "--seconds", "0.01", "--repeats", "1"],
    "tournament": [
        *("tournament", "random", "novice", "--games", "2", "--quiet", "--workers", "1", "--out", "OUT"),
        *("--grade-positions", "4"),  # so a drawn --grade grades on a bank of 4 positions, not the default 200
    ],
    "players": ["players"],
    "play": ["play", "--opponent", "random"],
    "train": [
        *("train", "--generations", "1", "--population", "4", "--games", "2", "--final-games", "0"),
        *("--accuracy-weight", "0", "--run-dir", "RUN", "--workers", "1", "--quiet", "--filename", "RUN/copy.p"),
    ],
    "learn": [
        *("learn", "--game", "quixo", "--size", "3", "--episodes", "20", "--batch", "10", "--eval-games", "0"),
        *("--run-dir", "RUN", "--workers", "1"),
    ],
    "experiment": [
        *("experiment", "--seeds", "1", "--out", "OUT", "--quiet", "--workers", "1", "--eval-games", "2"),
        *("--set", "generations=1", "--set", "population=4", "--set", "games=2", "--set", "final_games=0"),
        *("--set", "accuracy_weight=0", "--grade-positions", "0"),
    ],
    "show": ["show", "PLAYER"],
    "primitives": ["primitives"],
    "solve": ["solve", "..1F/..2C/..../.65D 0"],
    "watch": ["watch", "random", "random", "--delay", "0"],
    "serve": ["serve", "--port", "0", "--runs-dir", "OUT"],
    "grade": ["grade", "random", "--positions", "4", "--quiet", "--workers", "1"],
}
#: Options left out: they run code named on the command line by design, choose where the server listens, or ask
#: for a long run on purpose (``solve --force``: solve a position with more empty squares than the limit).
EXCLUDED = {"--plugin", "--compare", "--host", "--scheduler", "--dask-workers", "--help", "-h", "--version", "--force"}
#: Commands whose valid runs do real work: the numbers drawn for them stay small (a huge valid count is a long run
#: the user asked for, not a fault); huge numbers are tried on the others, and by the caps' own tests.
NUMBERS = ["-1", "0", "1", "2", "nan", "inf", "-inf", "1e309", "0.5", "", "x", "0x1f", "1_0", " 2", "\u0663", "-0"]
HUGE = ["99999999999999999999", "1e18", "2147483648"]
TEXTS = [
    "random",
    "",
    " ",
    "-",
    "--",
    "minimax:depth=99",
    "mcts:iterations=1e9",
    "minimax:depth=2,evaluator=DEEP",
    "x" * 5000,
    "\x01\x7f",
    "../../../etc/passwd",
    "/dev/zero",
    "/proc/self/mem",
    "nonexistent.p",
    "nonexistent.npz",
]
#: Hostile files of the input's folder, named in the texts above and below by these words.
FILES = ["DEEP", "BOMB", "TRUNCATED", "PIPE", "FOLDER", "LINK", "RECORD", "PLAYER"]
#: Seconds one command may take (a soft budget; the hard stop, twice that, ends a hang with a failure).
SECONDS = 40.0


_SHARED: list[Path] = []


def shared_files() -> Path:
    """Hostile files every input may read (made once): a deep JSON, a zip bomb (a member declaring and holding 70 MB
    of zeros), a truncated pickle, a pipe nobody writes, a folder, a record of 10,000 actions, a good player."""
    if _SHARED:
        return _SHARED[0]
    folder = Path(tempfile.mkdtemp(prefix="gpquarto-cli-fuzz-files-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / "deep.json").write_bytes(b"[" * 100_000 + b"]" * 100_000)
    with zipfile.ZipFile(folder / "bomb.npz", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "|u1", "fortran_order": False, "shape": (70_000_000,)})
        with archive.open("header.npy", "w", force_zip64=True) as member:
            member.write(header.getvalue())
            for _ in range(70):
                member.write(bytes(1_000_000))
    (folder / "truncated.p").write_bytes(b"\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\x7f}")
    os.mkfifo(folder / "pipe.json")
    (folder / "folder.json").mkdir()
    actions = ",".join(["1"] * 9999)
    (folder / "record.json").write_text(
        f'{{"format": "gpquarto-game/2", "players": ["a", "b"], "actions": [{actions}]}}'
    )
    from tests.web_support import save_tiny_player

    save_tiny_player(folder / "player.json")
    _SHARED.append(folder)
    return folder


def hostile_folder(links: bool = True) -> Path:
    """The input's own folder: ``work`` (the current folder, with ``run`` and ``out``, a link to the shared hostile
    files, and links out of the folder) and ``outside``, whose file must stay unchanged. With ``links``, the run
    folder's lock files are links to that file (a write through one would change it)."""
    root = Path(tempfile.mkdtemp(prefix="gpquarto-cli-fuzz-"))
    work, outside = root / "work", root / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "notes.txt").write_text("keep me\n")
    for name in ("run", "out"):
        (work / name).mkdir()
    (work / "files").symlink_to(shared_files())
    (work / "link.p").symlink_to(outside / "notes.txt")
    if links:
        (work / "run" / "train.lock").symlink_to(outside / "notes.txt")
        (work / "run" / "learn.lock").symlink_to(outside / "notes.txt")
    return root


def concrete(argument: str, work: Path) -> str:
    names = {
        "DEEP": "files/deep.json",
        "BOMB": "files/bomb.npz",
        "TRUNCATED": "files/truncated.p",
        "PIPE": "files/pipe.json",
        "FOLDER": "files/folder.json",
        "LINK": "link.p",
        "RECORD": "files/record.json",
        "PLAYER": "files/player.json",
    }
    for word, name in names.items():
        argument = argument.replace(word, str(work / name))
    if argument == "RUN" or argument.startswith("RUN/"):
        argument = str(work / "run") + argument[3:]
    return str(work / "out" / "results") if argument == "OUT" else argument


def options(command: str) -> list[argparse.Action]:
    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return [
        action
        for action in commands.choices[command]._actions
        if action.option_strings and not set(action.option_strings) & EXCLUDED
    ]


def value_strategy(action: argparse.Action, command: str):
    if action.nargs == 0:
        return st.just(None)
    if action.choices:
        return st.sampled_from([*map(str, action.choices), "", "nosuch", "x" * 300])
    numbers = NUMBERS + (HUGE if command in ("match", "tournament", "show", "solve", "watch", "serve") else [])
    words = TEXTS + FILES + [f"OUT/{name}" for name in ("a.csv", "b.png", "c.json")]
    kind = getattr(action.type, "__name__", "")
    if action.type in (int, float) or any(word in kind for word in ("int", "float", "seconds", "number", "plies")):
        return st.sampled_from(numbers + ["x"])
    return st.sampled_from(words + numbers[:4])


@st.composite
def command_lines(draw, command: str) -> list[str]:
    argv = list(BASES[command])
    actions = options(command)
    for _ in range(draw(st.integers(0 if command in ("players", "primitives") else 1, 3))):
        action = draw(st.sampled_from(actions))
        value = draw(value_strategy(action, command))
        flag = draw(st.sampled_from(action.option_strings))
        argv += [flag] if value is None else [flag, value]
    positionals = [index for index in range(1, len(BASES[command])) if not BASES[command][index].startswith("-")]
    if positionals and draw(st.booleans()):
        index = draw(st.sampled_from(positionals))
        if index == 1 or not argv[index - 1].startswith("-"):  # a positional, not an option's value
            argv[index] = draw(st.sampled_from(TEXTS + FILES))
    return argv


class HardStop(BaseException):
    """A command ran twice its budget: a hang."""


def _stop(signum, frame):
    raise HardStop


def run(argv: list[str], root: Path, monkeypatch) -> int:
    """``main(argv)`` in the input's folder, stdin 'quit', no port bound; the exit code, or the
    ``SystemExit`` code of argparse; a hang stops with :class:`HardStop`."""
    work = root / "work"
    monkeypatch.chdir(work)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n" * 20))
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, 2 * SECONDS)
    try:
        return main([concrete(argument, work) for argument in argv])
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else 2
    except HardStop:
        raise AssertionError(f"hang: {argv} ran {2 * SECONDS:g} s") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def refuse_to_listen(host, port):
    raise OSError(f"cannot listen on {host}:{port}: not in the fuzz suite")


def _listing(folder: Path) -> set[str]:
    return {entry.name for entry in folder.iterdir()}


@pytest.mark.parametrize("command", sorted(BASES))
@settings(FUZZ, max_examples=max(4, FUZZ.max_examples // 4), phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(data=st.data())
def test_command_line(command, data, monkeypatch, capsys):
    monkeypatch.setattr("gpquarto.cli.serve.listen", refuse_to_listen)
    argv = data.draw(command_lines(command))
    root = hostile_folder(links=data.draw(st.booleans()))
    repo_before = _listing(REPO)
    capsys.readouterr()
    code = outcome(
        f"command line: {command}",
        lambda: run(argv, root, monkeypatch),
        seconds=SECONDS,
        memory=10**9,
        per_process=True,
    )
    error = capsys.readouterr().err
    assert code in (0, 2), (argv, code, error[-2000:])
    assert "Traceback" not in error, (argv, error[-2000:])
    if code == 2:
        lines = [line for line in error.splitlines() if line.startswith("gpquarto")]
        assert lines and (lines[-1].startswith("gpquarto: error:") or ": error: " in lines[-1]), (argv, error)
        longest = max(len(concrete(argument, root / "work")) for argument in argv)
        assert len(lines[-1]) < 2000 + 2 * longest, (argv, lines[-1][:300])  # it may quote what it was given
    assert (root / "outside" / "notes.txt").read_text() == "keep me\n"  # nothing written through a link
    assert _listing(root / "outside") == {"notes.txt"}
    assert _listing(REPO) == repo_before  # nothing written in the working copy
    os.chdir(REPO)
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("command", sorted(BASES))
def test_the_command_lines_the_fuzzing_starts_from_run(command, monkeypatch, capsys):
    """Each command's base line runs to the end (``serve`` up to where it would listen): the mutations start from
    real work, so a refusal is the mutation's doing."""
    monkeypatch.setattr("gpquarto.cli.serve.listen", refuse_to_listen)
    root = hostile_folder(links=False)
    code = run(BASES[command], root, monkeypatch)
    error = capsys.readouterr().err
    if command == "serve":
        assert code == 2 and "not in the fuzz suite" in error
    else:
        assert code == 0, error[-2000:]
    os.chdir(REPO)
    shutil.rmtree(root, ignore_errors=True)
