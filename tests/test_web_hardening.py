"""One request cannot take the web server down: bounded bodies, budgets and player files, 4xx for bad values,
searches stopped at the time limit, a random game answered while abusive requests run, a prompt Ctrl-C."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from gpquarto.arena import play_game
from gpquarto.cli.serve import prompt_server
from gpquarto.games.quarto.board import Board
from gpquarto.players.base import TimeLimitExceeded
from gpquarto.players.random_player import RandomPlayer
from gpquarto.web.app import MAX_BODY_BYTES, create_app
from gpquarto.web.decisions import DecisionsStopped, RemotePlayer
from gpquarto.web.threads import ServerThreads
from tests.conftest import REPO
from tests.web_support import DeafPlayer, call, make_run_folder, save_tiny_player, serving


class Answer:
    """A response: status code and body."""

    def __init__(self, status_code: int, body: bytes) -> None:
        self.status_code = status_code
        self.text = body.decode("utf-8", "replace")

    def json(self) -> dict:
        return json.loads(self.text)


class Client:
    """Requests to a running app over real HTTP (urllib); ``content`` may be bytes or an iterable of chunks."""

    def __init__(self, base: str, app) -> None:
        self.base = base
        self.app = app

    def send(self, method: str, path: str, content=None, headers: dict | None = None) -> Answer:
        message = urllib.request.Request(self.base + path, data=content, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(message, timeout=120) as response:
                return Answer(response.status, response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read())

    def get(self, path: str) -> Answer:
        return self.send("GET", path)

    def post(self, path: str, json: object = None, content=None, headers: dict | None = None) -> Answer:
        if json is not None:
            content = globals()["json"].dumps(json).encode()
        return self.send("POST", path, content, {"Content-Type": "application/json", **(headers or {})})


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("hard")
    make_run_folder(root / "runs")
    (root / "players").mkdir()
    save_tiny_player(root / "players" / "tiny.json")
    secret = root / "secret"
    secret.mkdir()
    save_tiny_player(secret / "planted.json")
    (root / "runs" / "escape").symlink_to(secret)
    (root / "runs" / "demo" / "link.json").symlink_to(secret / "planted.json")
    inf_run = make_run_folder(root / "runs", "infinite")
    (inf_run / "logbook.csv").write_text("generation,best\n0,inf\n1,-inf\n2,nan\n")
    return root


@pytest.fixture(scope="module")
def client(folders):
    app = create_app(runs_dir=folders / "runs", players_dirs=[folders / "players"], time_limit=1.0, workers=2)
    with serving(app) as base:
        yield Client(base, app)


def post(client, path: str, body: object, **headers):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(path, content=data, headers={"Content-Type": "application/json", **headers})


def assert_one_line_4xx(response, status: int | None = None, text: str = "") -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    if status is not None:
        assert response.status_code == status, response.text[:300]
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message and len(message) < 300
    assert text in message, message


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ({"opponent": "random", "seat": 1.0}, "seat must be 0"),
        ({"opponent": "random", "seat": True}, "seat must be 0"),
        ({"opponent": "random", "seat": [1]}, "seat must be 0"),
        (b'{"opponent": "random", "seed": ' + b"7" * 5000 + b"}", "not JSON"),
        ({"opponent": "random", "seed": 10**4000}, "seed must be a whole number"),
        ({"opponent": "random", "seed": 2**63}, "seed must be a whole number"),
        ({"opponent": "x" * 5000}, "at most 300 characters"),
        ({"opponent": "minimax:depth=16"}, "minimax depth is at most 6"),
        ({"opponent": "mcts:iterations=1000000000"}, "iterations must be 1 to 10,000,000"),
        ({"opponent": "mcts:iterations=1000000"}, "mcts iterations is at most"),
        ({"opponent": "mcts:time=1e9"}, "time must be 0 to 3,600"),
        ({"opponent": "mcts:time=100"}, "mcts time is at most the 1 s time limit"),
        ({"opponent": "mcts:seconds=100"}, "mcts seconds is at most the 1 s time limit"),
        ({"opponent": "minimax:depth=2,seconds=100"}, "minimax seconds is at most the 1 s time limit"),
        ({"opponent": "solver:empties=16"}, "solver empties is at most 10"),
        ({"opponent": "minimax:depth=2,node_bound=99999999999"}, "node_bound must be 1 to"),
        ({"opponent": "minimax:depth=2,node_bound=99999999"}, "node_bound is at most"),
    ],
)
def test_wrong_values_and_budgets_over_the_caps_get_a_4xx(client, body, text):
    assert_one_line_4xx(post(client, "/api/games", body), text=text)


def test_json_nested_100000_deep_is_a_400(client):
    deep = b"[" * 100_000 + b"]" * 100_000
    assert_one_line_4xx(post(client, "/api/games", deep), 400, "nested more than")
    deep_object = b'{"a":' * 40 + b"1" + b"}" * 40
    assert_one_line_4xx(post(client, "/api/replay", deep_object), 400, "nested more than")


def raw_post(base: str, head: str, body_parts: list[bytes]) -> tuple[int, dict]:
    """Send a POST by hand (headers, then the parts of a body, stopping quietly if the server hangs up)."""
    host, port = base.split("//")[1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(f"POST /api/replay HTTP/1.1\r\nHost: {host}:{port}\r\n{head}\r\n".encode())
        try:
            for part in body_parts:
                connection.sendall(part)
        except OSError:
            pass  # refused before the whole body was sent: what we want
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1])


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    announced = f"Content-Type: application/json\r\nContent-Length: {50 * MAX_BODY_BYTES}\r\n"
    status, answer = raw_post(client.base, announced, [b"{"])  # one byte sent of 50 MB announced
    assert status == 413 and "request body over" in answer["error"]
    chunk = b" " * 100_000
    parts = [b"1\r\n{\r\n"] + [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * (MAX_BODY_BYTES // len(chunk) + 2)
    status, answer = raw_post(client.base, "Transfer-Encoding: chunked\r\n", parts)  # no length: counted
    assert status == 413 and "request body over" in answer["error"]


@pytest.mark.parametrize(
    "change",
    [{"forfeited_by": 7, "end": "forfeit"}, {"times": [math.nan]}, {"winner": 5}, {"seed": 10**4000}],
)
def test_tampered_replays_get_a_400(client, change):
    record = play_game((RandomPlayer(), RandomPlayer()), seed=3).to_dict()
    body = json.dumps({**record, **change}, allow_nan=True).encode()
    assert_one_line_4xx(post(client, "/api/replay", body), 400, "malformed game record")


def test_player_files_come_only_from_the_runs_and_players_folders(client, folders):
    assert client.post("/api/games", json={"opponent": "tiny.json"}).status_code == 201
    assert client.post("/api/games", json={"opponent": "demo/best_player.json"}).status_code == 201
    answers = set()
    for spec in (
        str(folders / "secret" / "planted.json"),  # exists, outside
        str(folders / "secret" / "missing.json"),  # missing, outside
        "../secret/planted.json",
        "escape/planted.json",  # a link in the runs folder out of it
        "demo/link.json",
        "/etc/passwd.json",
        "nothing.json",
    ):
        response = client.post("/api/games", json={"opponent": spec})
        assert_one_line_4xx(response, 404, "no player file")
        answers.add(response.json()["error"].replace(repr(spec[:80]), "SPEC"))
    assert len(answers) == 1  # existing and missing files are told apart by nothing
    files = client.get("/api/players").json()["files"]
    assert files == ["demo/best_player.json", "infinite/best_player.json", "tiny.json"]


def test_runs_with_odd_names_links_and_infinite_numbers(client):
    assert_one_line_4xx(client.get("/api/runs/" + "r" * 5000), 404)
    assert_one_line_4xx(client.get("/api/runs/escape"), 404)
    assert "escape" not in [run["name"] for run in client.get("/api/runs").json()["runs"]]
    response = client.get("/api/runs/infinite")
    assert response.status_code == 200
    assert [row[1] for row in response.json()["logbook"]["rows"]] == [None, None, None]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "evil.example:8000"}, 403),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Origin": "http://127.0.0.1:PORT"}, 201),
        ({"Host": "localhost:PORT", "Origin": "http://localhost:PORT"}, 201),
    ],
)
def test_state_changing_requests_must_come_from_this_host(client, headers, status):
    port = client.base.rsplit(":", 1)[1]
    headers = {key: value.replace("PORT", port) for key, value in headers.items()}
    response = post(client, "/api/games", {"opponent": "random"}, **headers)
    assert response.status_code == status, response.text
    if status == 403:
        assert_one_line_4xx(response, 403)


def test_a_search_keeps_within_the_server_limit(folders):
    # A limit of 3 s, so that a loaded machine's scheduling (a full parallel run) does not eat the slack the
    # search leaves between its share of the limit and the limit itself (with 1 s it once took 1.000 s).
    app = create_app(runs_dir=folders / "runs", players_dirs=[folders / "players"], time_limit=3.0, workers=1)
    with serving(app) as base:
        with app.state.pool.lease():  # its worker is ready (the workers start in the background): time the search
            pass
        started = time.monotonic()
        state = post(Client(base, app), "/api/games", {"opponent": "minimax:depth=6", "seat": 1}).json()
        assert time.monotonic() - started < 4.5  # the search stopped within the limit (issue 32, item 4)
    assert state["forfeit"] is None, state["forfeit"]


def test_a_player_over_the_limit_forfeits_and_its_process_is_replaced(client):
    pool = client.app.state.pool
    pool.start()  # every worker started (the server starts them in the background)
    before = set(pool.pids)
    deaf = RemotePlayer("deaf", DeafPlayer, {}, pool, 1.0)
    started = time.monotonic()
    with pytest.raises(TimeLimitExceeded, match="over the 1 s limit"):
        deaf.decide(Board().view())
    assert time.monotonic() - started < 10
    time.sleep(0.5)
    assert len(pool.pids) == pool.size and set(pool.pids) != before  # the late one was killed and replaced
    for pid in before - set(pool.pids):
        assert not _alive(pid)
    # a search that keeps just within the limit, from a position of five empty squares (a few of its decisions)
    body = {"players": ["random", "mcts:time=0.99,iterations=200000"], "position": "..1./E.30/B728/DF.4 -"}
    watched = post(client, "/api/watch", body)
    assert watched.status_code == 200 and "forfeits" not in watched.json()["result"], watched.json()["result"]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/status").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text()


# ------------------------------------------------------------------------------ a real server, under abuse
def start_server(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "gpquarto", "serve", "--port", "0", "--runs-dir", str(tmp_path), *extra]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert "serving on" in line, (line, process.stderr.read() if process.poll() is not None else "")
    return process, line.split("serving on ")[1].split("/ ")[0]


def request(base: str, method: str, path: str, body: object = None, timeout: float = 60) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    message = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(message, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


ABUSE = [
    {"players": ["mcts:iterations=200000", "mcts:iterations=200000"]},
    {"players": ["minimax:depth=6", "minimax:depth=6"]},
    {"players": ["solver:empties=10", "minimax:depth=6,strategy=deepest,node_bound=1000000"]},
    {"players": ["mcts:time=2", "frontier:depth=6"]},
]


def descendants(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in text.splitlines() if line.startswith("VmRSS:")), 0)
    return total / 1024


def test_a_game_needing_no_worker_is_answered_while_the_workers_start(tmp_path, monkeypatch):
    """The server starts its worker processes in the background: a game against ``random`` is answered while they
    are still starting (a forkserver's first start imports their modules: seconds on a loaded machine), and a
    game against a search waits for its worker, then plays."""
    from gpquarto.runner import killable

    release = threading.Event()
    start_worker = killable.Worker.start

    def slow_start(worker) -> None:
        release.wait(60)
        start_worker(worker)

    monkeypatch.setattr(killable.Worker, "start", slow_start)
    try:
        with serving(create_app(runs_dir=tmp_path, workers=1)) as base:
            status, state = call(base, "POST", "/api/games", {"opponent": "random", "seat": 1})
            assert status == 201 and state["moves"] and not release.is_set()
            answers: list[tuple[int, dict]] = []
            body = {"opponent": "minimax:depth=1", "seat": 1}
            searching = threading.Thread(target=lambda: answers.append(call(base, "POST", "/api/games", body)))
            searching.start()
            searching.join(0.5)
            assert searching.is_alive(), answers  # its worker has not started
            release.set()
            searching.join(60)
            ((status, state),) = answers
            assert status == 201 and state["moves"], state
    finally:
        release.set()


def test_a_random_game_answers_at_once_while_abusive_requests_run(tmp_path):
    # a 2 s limit (the searches run to it on each decision) keeps the games in flight while the random games are
    # timed, and a watch budget of 4 s ends each of them soon after (the player to move forfeits)
    process, base = start_server(tmp_path, "--time-limit", "2", "--watch-seconds", "4", "--workers", "4")
    try:
        results: list[int] = []
        durations: list[float] = []

        def watch(body: dict) -> None:
            started = time.monotonic()
            status, _ = request(base, "POST", "/api/watch", body, timeout=150)
            results.append(status)
            durations.append(time.monotonic() - started)

        threads = [threading.Thread(target=watch, args=(body,)) for body in ABUSE]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        latencies, memory, in_flight = [], [], []
        for _ in range(5):
            started = time.monotonic()
            status, state = request(base, "POST", "/api/games", {"opponent": "random", "seat": 1}, timeout=10)
            latencies.append(time.monotonic() - started)
            in_flight.append(len(ABUSE) - len(results))
            assert status == 201 and state["moves"]
            memory.append(rss_mb([process.pid, *descendants(process.pid)]))
            time.sleep(0.3)
        # the abusive games were running while (at least the first of) the random games were timed
        assert in_flight[0] >= len(ABUSE) // 2, (in_flight, results)
        for thread in threads:
            thread.join(timeout=160)
        assert results == [200] * len(ABUSE)
        # each game ended within its budget of 4 s and the decision under way (at most the 2 s limit): by a
        # forfeit, or by itself when its players were quick
        assert max(durations) < 20, durations
        assert max(latencies) < 1.0, latencies
        assert max(memory) < 500, memory
        time.sleep(1.0)
        busy = [pid for pid in [process.pid, *descendants(process.pid)] if _cpu_seconds(pid, 0.5) > 0.25]
        assert busy == []  # no decision keeps running after its forfeit
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def _cpu_seconds(pid: int, window: float) -> float:
    def ticks() -> int:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0
        return int(fields[11]) + int(fields[12])

    before = ticks()
    time.sleep(window)
    return (ticks() - before) / os.sysconf("SC_CLK_TCK")


def test_the_watch_budget_is_the_servers_setting(folders):
    for seconds, endings in ((0.0, {"forfeit"}), (None, {"win", "draw"})):  # None: the default, 120 s
        app = create_app(runs_dir=folders / "runs", players_dirs=[folders / "players"], watch_seconds=seconds)
        with serving(app) as base:
            status, watched = call(base, "POST", "/api/watch", {"players": ["novice", "random"], "seed": 3})
        app.state.stop()
        assert status == 200 and watched["record"]["end"] in endings, watched["result"]
        if seconds == 0.0:
            assert watched["result"] == "random wins: novice forfeits (the game ran past its time budget)"


def test_requests_caught_by_a_ctrl_c_answer_503_in_one_line_and_log_no_traceback(folders, caplog):
    app = create_app(runs_dir=folders / "runs", players_dirs=[folders / "players"], time_limit=1.0, workers=1)
    with serving(app) as base, caplog.at_level(logging.WARNING):
        app.state.stop()  # what Ctrl-C does first: the threads and worker processes stop before the server
        for method, path, body in (
            ("POST", "/api/watch", {"players": ["random", "random"]}),
            ("POST", "/api/games", {"opponent": "random", "seat": 1}),
            ("GET", "/api/runs", None),
        ):
            assert call(base, method, path, body) == (503, {"error": "the server is stopping"}), path
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []


def test_work_waiting_for_a_thread_at_a_ctrl_c_is_dropped_as_the_server_stopping():
    async def scenario() -> tuple[object, object]:
        threads = ServerThreads(1)
        release = threading.Event()
        running = asyncio.ensure_future(threads.run(lambda: release.wait(10) and "finished"))
        waiting = asyncio.ensure_future(threads.run(lambda: "never run"))
        await asyncio.sleep(0.1)
        threads.stop()
        release.set()
        return tuple(await asyncio.gather(running, waiting, return_exceptions=True))

    finished, dropped = asyncio.run(scenario())
    assert finished == "finished"  # work already running ends on its own
    assert isinstance(dropped, DecisionsStopped) and str(dropped) == "the server is stopping"


def test_the_prompt_server_stops_the_app_first_and_remembers_a_ctrl_c():
    stopped = []

    class Server:  # stands for uvicorn's: its handle_exit only asks the loop to end
        def handle_exit(self, sig, frame) -> None:
            stopped.append(("server", sig))

    prompt = prompt_server(Server, lambda: stopped.append("app"))
    terminated, interrupted = prompt(), prompt()
    terminated.handle_exit(signal.SIGTERM, None)
    assert not terminated.interrupted and stopped == ["app", ("server", signal.SIGTERM)]
    interrupted.handle_exit(signal.SIGINT, None)
    assert interrupted.interrupted  # serve exits with 130 even if uvicorn returned without raising it again


def test_ctrl_c_stops_a_busy_server_within_seconds(tmp_path):
    process, base = start_server(tmp_path, "--time-limit", "30")

    def watch() -> None:
        with contextlib.suppress(OSError):  # the server stops under it: the connection may be reset
            request(base, "POST", "/api/watch", {"players": ["minimax:depth=6", "mcts:time=20"]})

    threading.Thread(target=watch, daemon=True).start()
    time.sleep(2.0)
    children = descendants(process.pid)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("the server did not stop within 10 s of Ctrl-C") from None
    elapsed = time.monotonic() - started
    assert code == 130 and elapsed < 3.0, (code, elapsed)
    assert "Traceback" not in process.stderr.read()
    time.sleep(0.5)
    assert [pid for pid in children if _alive(pid)] == []


def test_serve_warns_off_loopback_and_checks_its_players_dirs(tmp_path):
    process, base = start_server(tmp_path, "--host", "0.0.0.0")
    try:
        status, _ = request(base.replace("0.0.0.0", "127.0.0.1"), "GET", "/api/players")
        assert status == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    assert "warning: serving on 0.0.0.0" in process.stderr.read()
    command = [sys.executable, "-m", "gpquarto", "serve", "--players-dir", str(tmp_path / "none")]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a folder" in done.stderr and done.stderr.count("\n") == 1
