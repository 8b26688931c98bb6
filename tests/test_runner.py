"""The runner: same results in order on every back-end, batching, progress, worker deaths and Ctrl-C."""

from __future__ import annotations

import importlib.util
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gpquarto.runner import RunnerError, SerialRunner, batches, make_runner
from gpquarto.runner.killable import KillablePool
from gpquarto.runner.processes import ProcessRunner


def square(value: int) -> int:
    return value * value


def fail_on_seven(value: int) -> int:
    if value == 7:
        raise ValueError("seven is refused")
    return value


def sleep_long(value: int) -> int:
    time.sleep(30)
    return value


def environment_variable(name: str) -> str | None:
    return os.environ.get(name)


#: A module attribute the tests change in the parent: a worker, which starts from a fresh state, never sees the change.
FRESH_STATE = "as imported"


def fresh_state(_: object) -> str:
    return FRESH_STATE


def collected_and_frozen(_: object) -> tuple[int, int]:
    """How many objects this process's garbage collector walks, and how many it leaves frozen."""
    import gc

    return len(gc.get_objects()), gc.get_freeze_count()


def kill_own_process(value: int) -> int:
    if value == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def test_batches_are_contiguous_cover_everything_shrink_and_are_few():
    items = list(range(103))
    for workers in (1, 2, 3, 8):
        cut = batches(items, workers)
        assert [item for batch in cut for item in batch] == items
        sizes = [len(batch) for batch in cut]
        assert all(sizes) and sizes == sorted(sizes, reverse=True)
        share = 2 * workers
        assert sizes[0] == -(-len(items) // share) and sizes[-1] == 1
        # Each batch takes 1/share of what is left, so the count grows with log(items), not with items.
        assert len(cut) <= share * (1 + math.log(len(items))) + share
        assert [len(batch) for batch in batches(items, workers, size=10)] == [10] * 10 + [3]
    assert [len(batch) for batch in batches(list(range(40)), 2)] == [10, 8, 6, 4, 3, 3, 2, 1, 1, 1, 1]
    assert len(batches(list(range(100_000)), 2)) < 50
    assert batches([], 4) == []


def test_processes_give_the_serial_results_in_order_with_progress():
    items = list(range(-40, 60))
    counted = []
    with make_runner(2) as runner:
        assert isinstance(runner, ProcessRunner)
        assert runner.map(square, items, progress=lambda done: counted.extend(done)) == [square(i) for i in items]
        assert runner.map(square, [5]) == [25]  # the pool is reused
    assert sorted(counted) == sorted(square(i) for i in items)
    assert SerialRunner().map(square, items) == [square(i) for i in items]


def test_a_task_error_reaches_the_caller_and_a_dead_worker_is_one_line():
    with make_runner(2) as runner:
        with pytest.raises(ValueError, match="seven is refused"):
            runner.map(fail_on_seven, range(20))
        with pytest.raises(RunnerError, match="a worker process died") as error:
            runner.map(kill_own_process, range(8))
        assert "\n" not in str(error.value)
        assert runner.map(square, [3]) == [9]  # a fresh pool after the failure


def test_workers_start_fresh_with_the_parents_environment_of_when_they_start(monkeypatch):
    """A worker shares none of the parent's memory and sees the parent's environment as it is when the worker starts,
    also when an earlier worker of this process started the machinery that starts them (a forkserver, from its
    own start, would otherwise hand out its environment of then)."""
    monkeypatch.setattr(sys.modules[__name__], "FRESH_STATE", "changed in the parent")
    for value in ("first", "second"):
        monkeypatch.setenv("GPQUARTO_TEST_VARIABLE", value)
        with ProcessRunner(2) as runner:
            assert runner.map(environment_variable, ["GPQUARTO_TEST_VARIABLE"] * 4) == [value] * 4
            assert runner.map(fresh_state, range(4)) == ["as imported"] * 4
        pool = KillablePool(1)
        try:
            with pool.lease() as worker:
                assert worker.call(environment_variable, ("GPQUARTO_TEST_VARIABLE",), limit=60) == value
                assert worker.call(fresh_state, (None,), limit=60) == "as imported"
        finally:
            pool.close()
    monkeypatch.delenv("GPQUARTO_TEST_VARIABLE")
    with ProcessRunner(1) as runner:
        assert runner.map(environment_variable, ["GPQUARTO_TEST_VARIABLE"]) == [None]


def test_a_pool_closed_while_it_starts_its_workers_closes_at_once(monkeypatch):
    """A server's Ctrl-C handler closes its pool in whatever the main thread was doing, the pool's start included
    (the handler runs in that thread, inside start, as under load at a server's start): the close does not wait for
    the lock that start holds, and start begins no further worker once the pool is closed."""
    from gpquarto.runner import killable

    pool = KillablePool(3)
    start_worker = killable.Worker.start

    def interrupted_while_starting(worker) -> None:
        pool.close()  # the Ctrl-C handler, in this thread, in the middle of the pool's start
        start_worker(worker)

    monkeypatch.setattr(killable.Worker, "start", interrupted_while_starting)
    starting = threading.Thread(target=pool.start, daemon=True)
    starting.start()
    starting.join(30)
    try:
        assert not starting.is_alive(), "the close waited for the lock of the start it interrupted"
        assert pool.closed and len(pool.pids) == 1  # the worker whose start was under way, and no other
    finally:
        monkeypatch.undo()
        for pid in pool.pids:  # not pool.close(): in a deadlock it would wait for the same lock
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked from a server on Linux only")
def test_a_workers_collections_leave_the_servers_objects_alone():
    """A forked worker's garbage collections do not walk the objects of the server it was forked from (its imports):
    walking them would write to their pages and copy them into every worker, inside the worker's work."""
    with ProcessRunner(2) as runner:
        for walked, frozen in runner.map(collected_and_frozen, range(2)):
            assert frozen > 10 * walked, (walked, frozen)


def test_workers_above_the_cores_or_tasks_are_capped_with_a_note():
    notes = []
    runner = make_runner(64, note=notes.append)
    assert runner.workers <= os.cpu_count() and "instead of 64" in notes[0]
    runner.close()
    notes.clear()
    assert isinstance(make_runner(2, tasks=1, note=notes.append), SerialRunner)
    assert "only 1 tasks" in notes[0]
    with pytest.raises(ValueError, match="either a scheduler address or a number of local Dask workers"):
        make_runner(scheduler="tcp://127.0.0.1:1", dask_workers=2)


def interrupt_after(command: list[str], ready, cwd) -> tuple[int, str, float]:
    """Start ``command`` in its own process group, wait until ``ready()``, press Ctrl-C (SIGINT to the whole
    group, as a terminal does) and return the exit code, stderr and seconds from the signal to the exit.

    The Python command runs with ``-X faulthandler``: when it has not ended 60 s after Ctrl-C, every process of
    the group is sent SIGABRT, which prints where each one was, and the test fails with those tracebacks (the
    group is killed: nothing is left running)."""
    command = [command[0], "-X", "faulthandler", *command[1:]]
    process = subprocess.Popen(
        command,
        cwd=cwd,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    deadline = time.monotonic() + 120
    while (
        not (ready() and past_python_start_up(process.pid)) and time.monotonic() < deadline and process.poll() is None
    ):
        time.sleep(0.05)
    assert process.poll() is None, "the command ended before it could be interrupted"
    began = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, error = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        signal_group(process.pid, signal.SIGABRT)
        try:
            _, error = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            error = "(no traceback within 30 s of SIGABRT)"
        signal_group(process.pid, signal.SIGKILL)
        process.wait()
        pytest.fail(f"{' '.join(command[3:6])}... had not ended 60 s after Ctrl-C; where it was:\n{error[-8000:]}")
    return process.returncode, error, time.monotonic() - began


def past_python_start_up(pid: int) -> bool:
    """Whether process ``pid`` has finished the interpreter's own start-up and runs gpquarto's code (on Linux, from
    ``/proc``; elsewhere True). Python installs its Ctrl-C handler and then imports ``site``; a Ctrl-C before that
    import ends, in any program, is Python's fatal start-up error, not the program's to handle (on a loaded machine
    that start can take longer than a test's delay). numpy's compiled core, the first compiled module a command
    loads, marks the end (``site`` loads none of it), and so also that Python's handler is in place."""
    try:
        return "_multiarray_umath" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return True


def as_from_a_terminal() -> None:
    """Start a command with Ctrl-C as a terminal gives it (handled by default, not blocked) whatever this test
    process was given: run as a background job of a script, it ignores Ctrl-C, and so would the command."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def signal_group(group: int, number: int) -> None:
    """Send ``number`` to every process of ``group`` that is left."""
    try:
        os.killpg(group, number)
    except ProcessLookupError:
        pass


def test_a_ctrl_c_taken_by_another_thread_still_stops_the_wait_for_the_workers():
    """The kernel hands a process's SIGINT to any thread that does not block it: when it is not the main thread,
    the main thread's wait is not woken, and the KeyboardInterrupt must still come at once, not when a batch ends."""
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    runner = ProcessRunner(2)
    runner.map(square, [1, 2])  # the workers are up: what follows times the wait alone
    interrupter = threading.Thread(
        target=lambda: (time.sleep(1.0), signal.pthread_kill(threading.get_ident(), signal.SIGINT))
    )
    started = time.monotonic()
    try:
        interrupter.start()
        with pytest.raises(KeyboardInterrupt):
            runner.map(sleep_long, [1, 2])
        assert time.monotonic() - started < 10  # a batch takes 30 s
        # the interrupt did not leave Ctrl-C blocked in this thread (nor in the commands it would start)
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        interrupter.join()
        runner.close()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_match_on_workers_at_once_with_one_line(tmp_path):
    started = time.monotonic()
    code, error, _ = interrupt_after(
        [
            sys.executable,
            "-m",
            "gpquarto",
            "match",
            "random",
            "random",
            "--games",
            "2000000",
            "--workers",
            "2",
            "--quiet",
        ],
        lambda: time.monotonic() - started > 3,
        tmp_path,
    )
    assert code == 130
    assert error.strip() == "gpquarto: interrupted"


@pytest.mark.parametrize("delay", [0.3, 0.6, 1.0])
def test_ctrl_c_while_a_command_starts_its_workers_is_one_line(delay, tmp_path):
    """Ctrl-C at any moment of a command's start (its modules loading, the worker server starting, workers being
    born and reading their start-up data from a program that is leaving) is the one line, never a traceback of the
    command or of a worker."""
    started = time.monotonic()
    command = [sys.executable, "-m", "gpquarto", "match", "random", "random", "--games", "2000000", "--workers", "2"]
    code, error, _ = interrupt_after([*command, "--quiet"], lambda: time.monotonic() - started > delay, tmp_path)
    assert (code, error.strip()) == (130, "gpquarto: interrupted")


#: A command whose work raises ``exception`` where Python does not let it out as it is (in a finalizer, as a Ctrl-C
#: landing in the import system's module-lock callbacks does; in ``__set_name__`` while a class is made, which
#: Python wraps in a RuntimeError), then works on.
RAISED_WHERE_PYTHON_HIDES_IT = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from gpquarto import cli

class RaisesWhenDropped:
    def __del__(self):
        raise {exception}

class RaisesWhenNamed:
    def __set_name__(self, owner, name):
        raise {exception}

def work(argv):
    {where}
    for _ in range(50):
        time.sleep(0.01)
    print("went on", file=sys.stderr)
    return 0

cli._run = work
code = cli.main([])
time.sleep(0.3)  # a Ctrl-C raised again after the command stopped would end the program with a traceback here
sys.exit(code)
"""
IN_A_FINALIZER = "RaisesWhenDropped()"
#: A Ctrl-C in code run from a string (as dataclasses make their methods while a module loads).
IN_CODE_FROM_A_STRING = "exec('raise KeyboardInterrupt')"
#: A Ctrl-C lost in a finalizer, and another one caught at once.
LOST_THEN_CAUGHT = "RaisesWhenDropped(); raise KeyboardInterrupt"
IN_A_CLASS_BEING_MADE = "type('Made', (), {'field': RaisesWhenNamed()})"


@pytest.mark.parametrize(
    ("where", "exception", "code", "error"),
    [
        (IN_A_FINALIZER, "KeyboardInterrupt", 130, ["gpquarto: interrupted"]),
        (IN_A_CLASS_BEING_MADE, "KeyboardInterrupt", 130, ["gpquarto: interrupted"]),
        (LOST_THEN_CAUGHT, "KeyboardInterrupt", 130, ["gpquarto: interrupted"]),
        (IN_CODE_FROM_A_STRING, "KeyboardInterrupt", 130, ["gpquarto: interrupted"]),
        (IN_A_FINALIZER, "ValueError('dropped')", 0, ["Exception ignored in", "ValueError: dropped", "went on"]),
    ],
)
def test_a_ctrl_c_that_python_hides_still_stops_the_command_with_one_line(where, exception, code, error, tmp_path):
    """A Ctrl-C that Python would print as "Exception ignored" and forget (it lands in a callback Python runs for
    itself), wrap in another error, or mark as unhandled although the command handled it, still stops the command
    with the one line and its exit code; any other exception in a callback is still only printed. The script runs
    with ``-m``, as ``python -m gpquarto`` does (a program run so ends killed by SIGINT when the mark is left)."""
    (tmp_path / "hidden_ctrl_c.py").write_text(RAISED_WHERE_PYTHON_HIDES_IT.format(exception=exception, where=where))
    finished = subprocess.run(
        [sys.executable, "-m", "hidden_ctrl_c"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert finished.returncode == code, finished.stderr
    lines = finished.stderr.strip().splitlines()
    expected = [next((part for part in error if line.startswith(part)), line) for line in lines]
    assert [part for part in expected if part in error] == error, finished.stderr
    assert code == 0 or lines == error, finished.stderr


def test_ctrl_c_during_training_keeps_the_checkpoint_resumable(tmp_path):
    run = tmp_path / "run"
    common = ["--population", "6", "--games", "4", "--opponents", "random", "--final-games", "0", "--quiet"]
    command = [sys.executable, "-m", "gpquarto", "train", "--generations", "400", *common, "--workers", "2"]
    code, error, _ = interrupt_after(
        [*command, "--run-dir", str(run), "--filename", str(tmp_path / "best.p")],
        lambda: (run / "logbook.csv").exists(),
        tmp_path,
    )
    assert code == 130 and "Traceback" not in error
    assert error.strip().splitlines()[-1] == (
        f"gpquarto: interrupted; {run} keeps every finished generation; "
        f"continue with: python3 -m gpquarto train --resume --run-dir {run}"
    )
    resumed = subprocess.run(
        [sys.executable, "-m", "gpquarto", "train", "--resume", "--generations", "3", "--run-dir", str(run), "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "best.p").exists()


ORPHAN_SCRIPT = """
import os, sys, time
from gpquarto.runner.processes import ProcessRunner

def spin(value):
    os.write(1, f"{os.getpid()}\\n".encode())  # one write: the two workers' lines cannot interleave
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        pass
    return value

if __name__ == "__main__":
    ProcessRunner(2).map(spin, [1, 2])
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie waits for init to reap it: it is gone
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc (Linux)")
def test_workers_leave_when_their_parent_is_killed_outright(tmp_path):
    script = tmp_path / "orphans.py"
    script.write_text(ORPHAN_SCRIPT)
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as stderr:
        parent = subprocess.Popen(
            [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=tmp_path
        )
    lines = [parent.stdout.readline() for _ in range(2)]  # both workers are busy in a task
    assert all(line.strip().isdigit() for line in lines), f"no worker pids {lines}: {errors.read_text()[-2000:]}"
    workers = [int(line) for line in lines]
    assert all(alive(pid) for pid in workers)
    parent.kill()  # SIGKILL: the parent cannot stop its workers
    parent.wait()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the compiled code needs numba")
def test_the_compiled_code_numba_cached_is_loaded_before_its_first_call(tmp_path):
    """A forkserver loads the machine code numba cached for gpquarto before it forks the workers, so that they do
    not read it at their first search: in a fresh interpreter, the kernel is loaded without being called."""
    from gpquarto.games.quarto.search import compiled_tactics

    if not compiled_tactics.enabled():
        pytest.skip("the compiled tactics are off here (GPQUARTO_PURE_PYTHON)")
    compiled_tactics.warm_up()  # its code is in numba's cache from here on (compiled now, if it was not)
    script = (
        "from gpquarto.runner.compiled_code import load_compiled_code\n"
        "from gpquarto.games.quarto.search import tactics_kernels\n"
        "before = len(tactics_kernels.best_placement_2.signatures)\n"
        "load_compiled_code()\n"
        "print(before, len(tactics_kernels.best_placement_2.signatures))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = map(int, done.stdout.split())
    assert before == 0 and after >= 1
