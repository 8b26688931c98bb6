"""``python -m gpquarto ARGS`` for the tests, without paying the interpreter's start and gpquarto's imports each time.

Each run of the command line in the tests (:func:`tests.conftest.run_cli`) used to start a fresh interpreter that
imported gpquarto's commands again: half a CPU second before any work, a few hundred times a session. A *CLI
server* per test process (a pytest-xdist worker, or the one process) starts once, imports what ``python -m
gpquarto`` imports before it reads its arguments (the command modules), and then forks one child per command; before
each fork it also loads the machine code numba cached for gpquarto, with the modules that hold it
(:func:`gpquarto.runner.compiled_code.load_compiled_code`), which each command would read again otherwise. The
child is a process of its own, as before: it takes the command's working folder, environment, standard input and
output files, puts the working folder first on ``sys.path`` (as ``-m`` does), and runs ``gpquarto.__main__`` as the
``__main__`` module (as ``-m`` does: a process pool's workers find it), and ends as the interpreter ends (its
threads waited for, ``atexit`` handlers run, standard output and error flushed) with the command's exit code.

What a fork cannot give is what the interpreter reads from the environment as it starts (``PYTHONPATH``, ``-X``
options, the hash seed: one per server, not per command) and what a module reads as it is imported: a command
whose environment differs from the server's in anything but :data:`READ_WHEN_USED` runs in a fresh interpreter
instead, as does every command when ``GPQUARTO_TEST_FRESH_INTERPRETER=1`` (the slow, plain way) or when two
commands run at once. The tests of the real start (``python -m gpquarto`` as a user types it: the Dask, Ctrl-C and
``serve`` tests, the packages installed in their own environments) start interpreters themselves.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

#: Environment variables gpquarto (and the server) read only when a command uses them, so a child applies them.
READ_WHEN_USED = frozenset(
    {"GPQUARTO_CACHE", "GPQUARTO_PLUGINS", "XDG_CACHE_HOME", "PYTHONIOENCODING", "PYTEST_CURRENT_TEST", "COLUMNS"}
)
#: Set to 1 to run every command in a fresh interpreter.
FRESH = "GPQUARTO_TEST_FRESH_INTERPRETER"


# --------------------------------------------------------------------------- the server (its own process)
def serve() -> None:  # pragma: no cover - runs in the server process
    """Read one request per line on standard input, fork a child per request, answer with its pid and then its
    exit code, one JSON line each on standard output. A child never returns from it (it ends in :func:`_exit`)."""
    import gc
    import importlib

    import gpquarto.cli as cli
    from gpquarto.runner.compiled_code import load_compiled_code

    for name in [*cli.COMMAND_MODULES, "gpquarto.cli.common", "gpquarto.runner", "gpquarto.plain_files"]:
        importlib.import_module(name)
    loaded: set[tuple[object, object]] = set()
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    while True:
        line = requests.readline()
        if not line:
            return
        request = json.loads(line)
        load_compiled_code(loaded)  # what numba cached since: each command starts with it in memory
        gc.freeze()  # the server's objects, out of the children's collections (see gpquarto.runner.preload)
        pid = os.fork()
        if pid == 0:
            _become_the_command(request)  # never returns
        answers.write(json.dumps({"pid": pid}).encode() + b"\n")
        answers.flush()
        _, status, usage = os.wait4(pid, 0)
        answer = {"returncode": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime}
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


def _become_the_command(request: dict) -> None:  # pragma: no cover - runs in a forked child
    import io
    import runpy

    for fd, path, flags in (
        (0, request["stdin"], os.O_RDONLY),
        (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    ):
        opened = os.open(path, flags, 0o644)
        os.dup2(opened, fd)
        os.close(opened)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    named, _, errors = os.environ.get("PYTHONIOENCODING", "").partition(":")
    encoding = named or None
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding)
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding, errors or None
    )
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)), encoding, "backslashreplace", line_buffering=True
    )
    if "numpy" in sys.modules:  # a fresh interpreter seeds NumPy's global generator afresh (random does at fork)
        sys.modules["numpy"].random.seed()
    sys.path[0] = os.getcwd()  # ``python -m`` puts the working folder first
    sys.argv = ["", *request["args"]]
    try:
        runpy.run_module("gpquarto", run_name="__main__", alter_sys=True)
        code: object = 0
    except SystemExit as exit:
        code = exit.code
    except BaseException:  # noqa: BLE001 - as the interpreter does with an exception nobody caught
        sys.excepthook(*sys.exc_info())
        code = 1
    _exit(code)


def _exit(code: object) -> None:  # pragma: no cover - runs in a forked child
    """End the child as the interpreter ends after ``sys.exit(code)``, up to what others can see: the exit code,
    the threads waited for, the ``atexit`` handlers run, standard output and error flushed (the interpreter's
    unloading of its modules only frees memory, and memory goes with the process)."""
    import atexit
    import threading

    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter calls: non-daemon threads end
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a reader gone away: the interpreter ignores it too
            pass
    os._exit(status & 0xFF)


# --------------------------------------------------------------------------- the client (in the test process)
class CliServer:
    """A server, started at its first command by ``python`` in ``folder`` (``python -m`` imports gpquarto from
    there, or from ``python``'s environment)."""

    def __init__(self, folder: Path, python: str | Path = sys.executable) -> None:
        self.start_folder = folder
        self.python = str(python)
        self.process: subprocess.Popen | None = None
        self.environment: dict[str, str] = {}
        self.folder = Path(tempfile.mkdtemp(prefix="gpquarto-cli-server-"))
        self.lock = threading.Lock()
        self.count = 0
        self.cpu = 0.0  # CPU seconds of the commands run, and of the processes they waited for
        self.pending = b""  # the server's answers read but not yet taken

    def _start(self, env: dict[str, str]) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self._close_pipes()
            self.environment, self.pending = dict(env), b""
            source = Path(__file__).read_text()
            with open(self.folder / "server.log", "ab") as log:  # the server writes to its own copy
                self.process = subprocess.Popen(
                    [self.python, "-c", f"{source}\nserve()\n"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    cwd=self.start_folder,
                    env={key: value for key, value in env.items() if key != "PYTEST_CURRENT_TEST"},
                )
        return self.process

    def _close_pipes(self) -> None:
        """Close this side of the pipes of the server started last, if any."""
        if self.process is not None:
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()

    def can_run(self, env: dict[str, str]) -> bool:
        """Whether a forked child runs a command with this environment as a fresh interpreter would."""
        if env.get(FRESH, "") not in ("", "0") or not hasattr(os, "fork"):
            return False
        if self.process is None:
            return True
        keys = set(env) | set(self.environment)
        return all(env.get(key) == self.environment.get(key) for key in keys - READ_WHEN_USED)

    def run(
        self, args: list[str], input_text: str | None, cwd: Path, env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess | None:
        """The command's result, or None when it must run in a fresh interpreter (see :meth:`can_run`)."""
        if not self.can_run(env) or not self.lock.acquire(blocking=False):
            return None
        try:
            process = self._start(env)
            if not self.can_run(env):
                return None
            self.count += 1
            stem = self.folder / str(self.count)
            files = {"stdin": os.devnull, "stdout": f"{stem}.out", "stderr": f"{stem}.err"}
            if input_text is not None:
                Path(f"{stem}.in").write_text(input_text)
                files["stdin"] = f"{stem}.in"
            request = {"args": [str(arg) for arg in args], "cwd": str(cwd), "env": env, **files}
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            pid = self._answer(process, time.monotonic() + 60)["pid"]
            try:
                answer = self._answer(process, time.monotonic() + timeout)
            except subprocess.TimeoutExpired:
                os.kill(pid, 9)
                self._answer(process, time.monotonic() + 60)
                raise subprocess.TimeoutExpired([self.python, "-m", "gpquarto", *args], timeout) from None
            returncode, self.cpu = answer["returncode"], self.cpu + answer["cpu"]
            output = [Path(files[name]).read_text(encoding="utf-8", errors="strict") for name in ("stdout", "stderr")]
            for name in ("stdout", "stderr"):
                os.unlink(files[name])
            return subprocess.CompletedProcess(
                [self.python, "-m", "gpquarto", *args], returncode, stdout=output[0], stderr=output[1]
            )
        finally:
            self.lock.release()

    def _answer(self, process: subprocess.Popen, deadline: float) -> dict:
        assert process.stdout is not None
        fd = process.stdout.fileno()
        while b"\n" not in self.pending:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise subprocess.TimeoutExpired(process.args, 0)
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError(f"the CLI server ended: see {self.folder / 'server.log'}")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()  # the server ends at the end of its requests
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close_pipes()
        shutil.rmtree(self.folder, ignore_errors=True)
