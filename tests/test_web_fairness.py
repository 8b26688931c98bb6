"""The web server is fair to its visitors: quick requests do not wait behind expensive ones, slow bodies time out,
games are capped per client, Host and Origin are compared exactly, and refused player files never show the
server's folders (issue 32, item 7). The load test runs against 127.0.0.1 only."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import threading
import time
import zipfile

import numpy as np
import pytest

from gpquarto.web.app import create_app
from gpquarto.web.sessions import PlaySession, RequestError, SessionStore
from tests.test_web_hardening import Client, assert_one_line_4xx, descendants, post, request, rss_mb, start_server
from tests.web_support import make_run_folder, save_tiny_player, serving


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("fair")
    make_run_folder(root / "runs")
    players = root / "players"
    players.mkdir()
    save_tiny_player(players / "tiny.json")
    (players / "broken.json").write_text('{"format": "gpquarto-player/1", "rules": ')
    (players / "huge.p").write_bytes(b"\x80\x04" + b"(" * 200_000)
    with zipfile.ZipFile(players / "deep.npz", "w") as archive:
        deep = b"[" * 100_000 + b"]" * 100_000
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "|u1", "fortran_order": False, "shape": (len(deep),)})
        archive.writestr("header.npy", header.getvalue() + deep)
    return root


@pytest.fixture(scope="module")
def client(folders):
    app = create_app(
        runs_dir=folders / "runs", players_dirs=[folders / "players"], time_limit=1.0, workers=1, body_seconds=1.0
    )
    with serving(app) as base:
        yield Client(base, app)


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "127.0.0.1:1@evil.example"},
        {"Host": "127.0.0.1:PORT@evil.example"},
        {"Host": "evil.example#127.0.0.1:PORT"},
        {"Host": "127.0.0.1:PORT/x"},
        {"Host": "127.0.0.1:PORT:PORT"},
        {"Host": "127.0.0.1 evil.example"},
        {"Host": "[::1]evil.example"},
        {"Origin": "https://127.0.0.1:PORT"},
        {"Origin": "ws://127.0.0.1:PORT"},
        {"Origin": "http://127.0.0.1:PORT/path"},
        {"Origin": "http://127.0.0.1:PORT?x=1"},
        {"Origin": "http://user@127.0.0.1:PORT"},
        {"Origin": "http://127.0.0.1"},
        {"Origin": "http://127.0.0.1:PORT.evil.example"},
    ],
)
def test_host_and_origin_are_compared_exactly(client, headers):
    port = client.base.rsplit(":", 1)[1]
    headers = {key: value.replace("PORT", port) for key, value in headers.items()}
    assert_one_line_4xx(post(client, "/api/games", {"opponent": "random"}, **headers), 403)


def test_the_exact_host_and_origin_are_accepted(client):
    port = client.base.rsplit(":", 1)[1]
    for headers in (
        {"Origin": f"http://127.0.0.1:{port}"},
        {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"},
        {"Host": f"LOCALHOST:{port}", "Origin": f"http://localhost:{port}"},
        {"Host": f"[::1]:{port}", "Origin": f"http://[::1]:{port}"},
    ):
        assert post(client, "/api/games", {"opponent": "random"}, **headers).status_code == 201, headers


def raw_post(base: str, body: bytes, length: int) -> socket.socket:
    """A POST to ``/api/games`` announcing ``length`` bytes and sending ``body`` only (then nothing)."""
    host, port = base.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=30)
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    )
    connection.sendall(head.encode() + body)
    return connection


def answer_of(connection: socket.socket) -> bytes:
    data = b""
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            return data  # the server closed the connection
        data += chunk


def test_a_half_sent_body_times_out_with_408_and_the_connection_is_closed(client):
    started = time.monotonic()
    connection = raw_post(client.base, b'{"opponent": ', 200)
    answer = answer_of(connection)
    connection.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within 1 s" in answer
    assert time.monotonic() - started < 10
    complete = raw_post(client.base, b'{"opponent": "random"}', 22)  # a whole body is still served
    assert complete.recv(65536).startswith(b"HTTP/1.1 201")
    complete.close()


def test_refused_player_files_never_show_the_servers_folders(client, folders):
    for name, text in (
        ("broken.json", "broken.json"),
        ("huge.p", "huge.p"),
        ("minimax:depth=1,evaluator=deep.npz", "nests more than 64 levels deep"),
    ):
        response = client.post("/api/games", json={"opponent": name})
        assert_one_line_4xx(response, 400, text)
        message = response.json()["error"]
        assert str(folders) not in message and os.sep + "players" + os.sep not in message, message
        watched = client.post("/api/watch", json={"players": ["random", name]})
        assert_one_line_4xx(watched, 400, text)
        assert str(folders) not in watched.json()["error"]


class Nobody:
    name = "nobody"

    def new_game(self, seat):
        pass


def session() -> PlaySession:
    return PlaySession("nobody", Nobody())


def test_a_client_keeps_its_games_whatever_another_client_does():
    store = SessionStore(limit=1000, per_client=50)
    first = store.add(session(), "visitor")
    flood = [store.add(session(), "flooder") for _ in range(250)]
    assert store.get(first.key) is first  # 250 games of another client dropped none of the visitor's
    with pytest.raises(RequestError, match="dropped after 50 newer games of yours"):
        store.get(flood[0].key)
    assert all(store.get(game.key) is game for game in flood[-50:])
    assert len(store) == 51
    mine = [store.add(session(), "visitor") for _ in range(50)]
    with pytest.raises(RequestError):
        store.get(first.key)  # the visitor's own 51st game dropped its oldest
    assert store.get(mine[0].key) is mine[0]


def test_a_full_server_refuses_new_games_rather_than_drop_another_visitors():
    store = SessionStore(limit=3, per_client=50, idle_seconds=3600)
    kept = [store.add(session(), f"client{index}") for index in range(3)]
    with pytest.raises(RequestError, match="holds 3 games in play") as error:
        store.add(session(), "newcomer")
    assert error.value.status == 503
    assert all(store.get(game.key) is game for game in kept)
    idle = SessionStore(limit=3, per_client=50, idle_seconds=0.0)
    old = [idle.add(session(), f"client{index}") for index in range(3)]
    idle.add(session(), "newcomer")  # idle games make room, the least recently used first
    with pytest.raises(RequestError):
        idle.get(old[0].key)


# ------------------------------------------------------------------------------ the load test (127.0.0.1 only)
EXPENSIVE_WATCHES = [
    {"players": ["minimax:depth=6", "minimax:depth=6"]},
    {"players": ["mcts:iterations=200000", "frontier:depth=6"]},
    {"game": "quixo", "players": ["alphabeta:depth=8", "mcts:iterations=20000"]},
    {"game": "quixo", "players": ["minimax:depth=3", "alphabeta:depth=8"]},
]
WATCHES = 40
SLOW_BODIES = 500
#: Seconds the load test's server gives a request body (``serve --body-seconds``).
BODY_SECONDS = 6.0


def test_a_random_game_answers_within_a_second_under_expensive_watches_and_slow_bodies(tmp_path, capsys):
    # The defaults (10 s per decision, 2 worker processes) but for the time a body may take to arrive: long enough
    # for the bodies to be pending while the games are measured, short enough not to keep the searches going.
    process, base = start_server(tmp_path, "--body-seconds", str(BODY_SECONDS))
    assert base.startswith("http://127.0.0.1:")
    figures: dict[str, object] = {}
    slow: list[socket.socket] = []
    try:
        statuses: list[int] = []
        bodies = [EXPENSIVE_WATCHES[index % len(EXPENSIVE_WATCHES)] for index in range(WATCHES)]
        watchers = [
            threading.Thread(target=lambda body=body: statuses.append(_quiet_request(base, body)), daemon=True)
            for body in bodies
        ]
        for watcher in watchers:
            watcher.start()
        for _ in range(SLOW_BODIES):
            slow.append(raw_post(base, b'{"opponent": "ran', 300))
        sent = time.monotonic()
        time.sleep(2.0)  # the watches are searching, the bodies waiting
        latencies, memory = [], []
        for index in range(10):
            body = {"opponent": "random", "seat": 1, **({"game": "quixo"} if index % 2 else {})}
            started = time.monotonic()
            status, state = request(base, "POST", "/api/games", body, timeout=30)
            latencies.append(time.monotonic() - started)
            assert status == 201 and state["moves"], state
            memory.append(rss_mb([process.pid, *descendants(process.pid)]))
            time.sleep(0.1)
        in_flight = WATCHES - len(statuses)
        figures.update(
            watches_in_flight=in_flight,
            slow_bodies=len(slow),
            random_game_seconds_max=round(max(latencies), 3),
            random_game_seconds_median=round(sorted(latencies)[len(latencies) // 2], 3),
            server_memory_mb_max=round(max(memory), 1),
        )
        assert time.monotonic() < sent + BODY_SECONDS, "the games were measured after the slow bodies timed out"
        time.sleep(max(0.0, sent + BODY_SECONDS + 1.0 - time.monotonic()))  # past the body timeout
        answered = 0
        for connection in slow[:50]:
            connection.settimeout(10)
            try:
                answered += answer_of(connection).startswith(b"HTTP/1.1 408")
            except OSError:
                pass
        figures["slow_bodies_answered_408_of_50"] = answered
        with capsys.disabled():
            print(f"\nload test figures: {json.dumps(figures)}")
        assert in_flight >= WATCHES // 2, figures  # the watches were in flight while the games were measured
        assert max(latencies) < 1.0, figures
        assert max(memory) < 500, figures
        assert answered == 50, figures
    finally:
        for connection in slow:
            connection.close()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)


def _quiet_request(base: str, body: dict) -> int:
    try:
        return request(base, "POST", "/api/watch", body, timeout=300)[0]
    except OSError:
        return -1
