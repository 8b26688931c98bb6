"""Dask for real: a `dask scheduler` and `dask worker` processes on 127.0.0.1, started and killed by the tests.

Checks that training on the cluster equals serial training, that a worker killed with SIGKILL mid-map has
its tasks run again with unchanged results, that losing every worker is said after a bounded wait, that
an unreachable scheduler is one line before anything is written, and that a scheduler killed mid-run
leaves a checkpoint that resumes to the serial result.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="the distributed extra is part of the test command")

from gpquarto.runner import RunnerError  # noqa: E402
from gpquarto.runner.dask import CONNECT_TIMEOUT_VARIABLE, DaskRunner  # noqa: E402
from gpquarto.training import EvolutionConfig, open_run, resume, train  # noqa: E402

TINY = {"generations": 4, "population": 6, "games": 4, "opponents": "random:1,novice:1", "seed": 5, "final_games": 6}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def slow_square(value: int) -> int:
    time.sleep(0.05)
    return value * value


def square_but_not_three(value: int) -> int:
    if value == 3:
        raise ValueError("three")
    return value * value


class Cluster:
    """A scheduler and named workers in their own processes, on loopback."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.scheduler = self._start(["scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"])
        self.workers: dict[str, subprocess.Popen] = {}

    def _start(self, arguments: list[str]) -> subprocess.Popen:
        log = open(self.folder / f"{arguments[0]}-{len(os.listdir(self.folder))}.log", "w")  # noqa: SIM115
        root = str(Path(__file__).resolve().parent.parent)  # workers import the test module's functions
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        environment["DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED"] = "False"  # as the README's worker line has it
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *arguments],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.folder,
            env=environment,
        )

    def add_worker(self, name: str) -> None:
        self.workers[name] = self._start(
            ["worker", self.address, "--name", name, "--nthreads", "1", "--no-nanny", "--no-dashboard"]
            + ["--host", "127.0.0.1"]
        )

    def kill_worker(self, name: str) -> None:
        process = self.workers.pop(name)
        process.send_signal(signal.SIGKILL)
        process.wait()

    def wait_for_workers(self, count: int, timeout: float = 60) -> None:
        with distributed.Client(self.address, timeout=timeout, set_as_default=False) as client:
            client.wait_for_workers(count, timeout=timeout)

    def stop(self) -> None:
        for process in [*self.workers.values(), self.scheduler]:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait()


@pytest.fixture()
def cluster(tmp_path):
    folder = tmp_path / "cluster"
    folder.mkdir()
    cluster = Cluster(folder)
    cluster.add_worker("w1")
    cluster.add_worker("w2")
    try:
        cluster.wait_for_workers(2)
        yield cluster
    finally:
        cluster.stop()


def serial_run(folder: Path):
    return open_run(train(EvolutionConfig(**TINY), folder, best_player_copy=None).path)


def same_run(one, other) -> bool:
    return (
        one.logbook() == other.logbook()
        and (one.path / "logbook.csv").read_text() == (other.path / "logbook.csv").read_text()
        and one.best_player().genome == other.best_player().genome
    )


def test_training_on_the_cluster_equals_serial_and_survives_a_killed_worker(cluster, tmp_path):
    reference = serial_run(tmp_path / "serial")
    runner = DaskRunner(cluster.address)
    try:
        on_cluster = train(EvolutionConfig(**TINY), tmp_path / "dask", best_player_copy=None, runner=runner)
        assert same_run(open_run(on_cluster.path), reference)

        # A worker killed with SIGKILL while a map is under way: its tasks run again on the other one.
        killer = threading.Timer(0.5, cluster.kill_worker, args=("w1",))
        killer.start()
        items = list(range(60))
        assert runner.map(slow_square, items, batch_size=1) == [value * value for value in items]
        killer.join()
        assert "w1" not in cluster.workers
    finally:
        runner.close()


def test_a_map_reports_progress_per_batch_and_raises_a_tasks_own_error(cluster):
    with DaskRunner(cluster.address) as runner:
        seen: list[list[int]] = []
        assert runner.map(slow_square, range(12), progress=seen.append, batch_size=3) == [v * v for v in range(12)]
        assert sorted(map(sorted, seen)) == [[v * v for v in range(start, start + 3)] for start in (0, 3, 6, 9)]
        with pytest.raises(ValueError, match="three"):
            runner.map(square_but_not_three, range(8))
        assert runner.map(abs, [-1, -2]) == [1, 2]  # the runner is still usable


def test_no_worker_left_is_said_after_a_bounded_wait_and_work_goes_on_when_one_joins(cluster, capsys):
    runner = DaskRunner(cluster.address, idle_warning=1.0)
    try:
        cluster.kill_worker("w1")
        cluster.kill_worker("w2")
        result: list = []
        mapping = threading.Thread(target=lambda: result.append(runner.map(slow_square, range(6))))
        mapping.start()
        deadline = time.monotonic() + 60
        seen = ""
        while "no Dask worker has been connected" not in seen and time.monotonic() < deadline:
            time.sleep(0.2)
            seen += capsys.readouterr().err
        assert "no Dask worker has been connected for 1 s" in seen
        cluster.add_worker("w3")
        mapping.join(timeout=120)
        assert result == [[value * value for value in range(6)]]
    finally:
        runner.close()


def test_an_unreachable_scheduler_is_one_line_before_the_run_folder_is_written(tmp_path):
    run_dir = tmp_path / "never"
    address = f"tcp://127.0.0.1:{free_port()}"
    began = time.monotonic()
    finished = subprocess.run(
        [sys.executable, "-m", "gpquarto", "train", "--scheduler", address, "--run-dir", str(run_dir), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, CONNECT_TIMEOUT_VARIABLE: "1.5"},  # the default, 10 s, is waited for below
    )
    assert finished.returncode == 2
    assert finished.stderr.strip().startswith(
        f"gpquarto: error: cannot reach the Dask scheduler at {address} within 1.5 s"
    ), finished.stderr
    assert finished.stderr.count("\n") == 1
    assert time.monotonic() - began < 60
    assert not run_dir.exists() and not (tmp_path / "best_player.p").exists()
    with pytest.raises(RunnerError, match="cannot reach the Dask scheduler .* within 1 s"):
        DaskRunner(address, connect_timeout=1)


def test_a_scheduler_killed_mid_run_is_one_line_and_the_run_resumes(cluster, tmp_path):
    reference = serial_run(tmp_path / "serial")
    run_dir = tmp_path / "dask"
    options = [f"--{key.replace('_', '-')}={value}" for key, value in TINY.items() if key != "generations"]
    options += ["--no-racing", "--accuracy-positions=200", "--parsimony=0"]  # the reference's: the dataclass's defaults
    process = subprocess.Popen(
        [sys.executable, "-m", "gpquarto", "train", "--generations", "400", *options, "--quiet"]
        + ["--scheduler", cluster.address, "--run-dir", str(run_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    deadline = time.monotonic() + 120
    while not (run_dir / "logbook.csv").exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    cluster.scheduler.send_signal(signal.SIGKILL)
    cluster.scheduler.wait()
    _, error = process.communicate(timeout=120)
    assert process.returncode == 2, error
    assert error.strip().startswith("gpquarto: error: lost the Dask scheduler") and error.count("\n") == 1
    resumed = resume(run_dir, generations=TINY["generations"])
    assert same_run(open_run(resumed.path), reference)
