"""Games, forfeits and records."""

from __future__ import annotations

import json
import random
import threading

import pytest

import gpquarto.arena.game as game_module
import gpquarto.games.quarto.players.form as quarto_form_module
from gpquarto.arena import GameRecord, play_game
from gpquarto.games.interface import Termination
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.players.base import BasePlayer, PlayerQuit
from gpquarto.players.random_player import RandomPlayer


class ScriptedPlayer(QuartoPlayer):
    """Plays the lowest legal piece and square, except for the scripted misbehaviour."""

    name = "scripted"

    def __init__(self, bad_choice=None, bad_place=None, raise_on_place=False, quit_on_place=False):
        self.bad_choice = bad_choice
        self.bad_place = bad_place
        self.raise_on_place = raise_on_place
        self.quit_on_place = quit_on_place

    def choose_piece(self, board):
        return self.bad_choice if self.bad_choice is not None else board.legal_pieces()[0]

    def place_piece(self, board, piece):
        if self.quit_on_place:
            raise PlayerQuit()
        if self.raise_on_place:
            raise RuntimeError("boom")
        return self.bad_place if self.bad_place is not None else board.legal_squares()[0]


def test_random_game_record_replays_to_the_same_result():
    for seed in range(50):
        record = play_game((RandomPlayer(), RandomPlayer()), seed=seed)
        assert record.end in (Termination.WIN, Termination.DRAW)
        board = record.replay()
        assert board.winner == record.winner
        assert board.is_over()
        assert len(record.times) == len(record.actions)


def test_same_seed_same_game_and_different_seeds_differ():
    a = play_game((RandomPlayer(), RandomPlayer()), seed=7)
    b = play_game((RandomPlayer(), RandomPlayer()), seed=7)
    assert a.actions == b.actions
    games = {tuple(play_game((RandomPlayer(), RandomPlayer()), seed=s).actions) for s in range(20)}
    assert len(games) == 20


def test_record_save_load_round_trip(tmp_path):
    record = play_game((RandomPlayer(), RandomPlayer()), seed=3)
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.replay().text() == record.replay().text()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "cannot read game record"),
        (json.dumps({"format": "other"}), "not a gpquarto game record"),
        (json.dumps({"format": "gpquarto-game/1", "players": ["a", "b"]}), "malformed game record"),
    ],
)
def test_bad_record_files_give_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        GameRecord.load(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"forfeited_by": 7, "end": "forfeit"}, "forfeited_by must be a seat"),
        ({"winner": 1.0}, "winner must be a seat"),
        ({"winner": True}, "winner must be a seat"),
        ({"end": "forfeit", "forfeited_by": None}, "forfeited_by must name a seat"),
        ({"end": "forfeit", "forfeited_by": 1, "winner": 1}, "the winner is the other seat"),
        ({"times": [float("nan")]}, "times must be finite"),
        ({"times": [float("inf")]}, "times must be finite"),
        ({"times": [-1.0]}, "times must be finite numbers >= 0"),
        ({"times": ["1"]}, "times must be finite"),
        ({"actions": [1.5]}, "actions must be whole numbers"),
        ({"actions": [99]}, "actions must be whole numbers"),
        ({"actions": "0"}, "actions must be a list"),
        ({"seed": 10**5000}, "seed must be a whole number"),
        ({"seed": -1}, "seed must be a whole number"),
        ({"players": ["a", 3]}, "players must be a list of two names"),
        ({"players": ["a"]}, "players must be a list of two names"),
        ({"start": ["x"]}, "start must be position text"),
        ({"end": "resigned"}, "unknown end"),
        ({"reason": {"a": 1}}, "reason must be text"),
    ],
)
def test_malformed_records_are_refused_in_one_line(change, message):
    data = {**play_game((RandomPlayer(), RandomPlayer()), seed=5).to_dict(), **change}
    with pytest.raises(ValueError, match=message) as caught:
        GameRecord.from_dict(data)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_a_forfeit_record_round_trips():
    record = play_game((ScriptedPlayer(bad_choice=99), RandomPlayer()), seed=1)
    assert record.end == "forfeit"
    assert GameRecord.from_dict(record.to_dict()) == record


def test_tampered_record_is_caught_on_replay():
    record = play_game((RandomPlayer(), RandomPlayer()), seed=5)
    record.actions[2] = record.actions[0]  # choose the same piece again
    with pytest.raises(ValueError, match="illegal"):
        record.replay()


@pytest.mark.parametrize(
    "player, reason",
    [
        (ScriptedPlayer(bad_choice=99), "illegal choice 99"),
        (ScriptedPlayer(bad_choice="x"), "illegal choice 'x'"),
        (ScriptedPlayer(bad_place=-3), "illegal placement -3"),
        (ScriptedPlayer(raise_on_place=True), "raised RuntimeError: boom"),
    ],
)
def test_misbehaving_player_forfeits_and_board_stays_consistent(player, reason):
    for seat in (0, 1):
        players = [RandomPlayer(1), RandomPlayer(2)]
        players[seat] = player
        record = play_game(tuple(players), seed=11)
        if record.end != Termination.FORFEIT:
            # The misbehaviour only shows at a kind of decision this seat never had to make.
            continue
        assert record.forfeited_by == seat
        assert record.winner == 1 - seat
        assert reason in record.reason
        record.replay()  # the legal prefix replays cleanly
    # Seat 0 always chooses first, and seat 1 always places first: both misbehaviours get exercised.
    first = play_game((player, RandomPlayer(2)) if player.bad_choice is not None else (RandomPlayer(2), player), seed=1)
    assert first.end == Termination.FORFEIT and reason in first.reason


def test_time_limit_forfeits_the_slow_side(monkeypatch):
    clock = {"now": 0.0}

    class SlowPlacer(ScriptedPlayer):
        def place_piece(self, board, piece):
            clock["now"] += 5.0  # pretend five seconds pass while thinking
            return super().place_piece(board, piece)

    def fake_perf_counter():
        clock["now"] += 0.001
        return clock["now"]

    for module in (game_module, quarto_form_module):  # the arena's loop and Quarto's own
        monkeypatch.setattr(module, "perf_counter", fake_perf_counter)
    record = play_game((RandomPlayer(1), SlowPlacer()), seed=2, time_limit=1.0)
    assert record.end == Termination.FORFEIT and record.forfeited_by == 1
    assert "over the 1 s limit" in record.reason
    # The late decision is timed but its action does not count: the record replays without it.
    assert len(record.times) == len(record.actions) + 1 and record.times[-1] > 5.0
    assert record.replay().placement_due
    unlimited = play_game((RandomPlayer(1), SlowPlacer()), seed=2)
    assert unlimited.end != Termination.FORFEIT


def test_a_winning_placement_that_comes_too_late_is_a_forfeit(monkeypatch):
    clock = {"now": 0.0}

    class SlowWinner(ScriptedPlayer):
        def place_piece(self, board, piece):
            clock["now"] += 5.0
            return 3  # completes the top row: pieces 0, 1, 2 and 3 all have the first characteristic

    for module in (game_module, quarto_form_module):
        monkeypatch.setattr(module, "perf_counter", lambda: clock["now"])
    start = "012./..../..../.... 3"
    assert Board.from_text(start).is_winning_placement(3, 3)
    record = play_game((SlowWinner(), SlowWinner()), start=start, time_limit=1.0)
    assert record.end == Termination.FORFEIT and record.actions == [] and record.times == [5.0]
    assert record.winner == 1 - record.forfeited_by
    assert play_game((SlowWinner(), SlowWinner()), start=start).end == Termination.WIN


def test_player_quit_is_not_a_forfeit():
    with pytest.raises(PlayerQuit):
        play_game((RandomPlayer(1), ScriptedPlayer(quit_on_place=True)))


def test_game_from_a_position_and_advanced_rules():
    start = "018F/..../..../.... 4"
    record = play_game((RandomPlayer(1), RandomPlayer(2)), start=start, seed=1)
    assert record.start == start
    assert record.replay().winner == record.winner
    rng = random.Random(0)
    for _ in range(20):
        record = play_game((RandomPlayer(), RandomPlayer()), rules="advanced", seed=rng.randrange(10**6))
        assert record.start.endswith("advanced")
        assert record.replay().rules.value == "advanced"


def test_decision_seats_follow_turn_order():
    record = play_game((RandomPlayer(), RandomPlayer()), seed=9)
    seats = record.decision_seats()
    board = Board()
    for seat, action in zip(seats, record.actions, strict=True):
        assert seat == board.player
        board.apply(action)


class DecidingRandom(BasePlayer):
    """A player of the generic protocol only (``decide``), drawing like :class:`RandomPlayer` does."""

    name = "deciding-random"

    def __init__(self) -> None:
        self._inner = RandomPlayer()

    def seed(self, seed):
        self._inner.seed(seed)

    def decide(self, view):
        return self._inner.decide(view)


def test_the_generic_loop_and_quartos_loop_give_the_same_records():
    from gpquarto.games.quarto.players.minimax import MinimaxPlayer

    for index in range(60):
        seed = 1000 + index
        fast = play_game((RandomPlayer(), MinimaxPlayer(depth=1)), seed=seed, rules="advanced" if index % 3 else None)
        generic_players = (DecidingRandom(), _GenericOnly(MinimaxPlayer(depth=1)))
        generic = play_game(generic_players, seed=seed, rules="advanced" if index % 3 else None, names=fast.players)
        assert (generic.actions, generic.end, generic.winner, generic.start) == (
            fast.actions,
            fast.end,
            fast.winner,
            fast.start,
        )


class _GenericOnly(BasePlayer):
    """Hides a Quarto player's choose/place form, so the arena must use the generic loop."""

    def __init__(self, player) -> None:
        self._player = player
        self.name = player.name

    def seed(self, seed):
        self._player.seed(seed)

    def new_game(self, seat):
        self._player.new_game(seat)

    def decide(self, view):
        return self._player.decide(view)


def test_the_generic_loop_forfeits_illegal_actions_and_raising_players():
    class Illegal(BasePlayer):
        def decide(self, view):
            return 99

    class Raising(BasePlayer):
        def decide(self, view):
            raise RuntimeError("boom")

    record = play_game((Illegal(), DecidingRandom()))
    assert (record.end, record.forfeited_by, record.winner) == (Termination.FORFEIT, 0, 1)
    assert record.reason.startswith("illegal action 99")
    record = play_game((DecidingRandom(), Raising()), seed=1)
    assert (record.end, record.forfeited_by) == (Termination.FORFEIT, 1)
    assert record.reason == "raised RuntimeError: boom"


def test_an_object_without_the_lifecycle_hooks_is_refused_in_one_line():
    class Bare:
        def decide(self, view):
            return view.legal_actions()[0]

    with pytest.raises(TypeError, match="not a gpquarto player .*derive it from gpquarto.players.BasePlayer"):
        play_game((Bare(), RandomPlayer()))


def test_records_name_their_game_and_positions_and_first_format_records_still_load(tmp_path):
    record = play_game((RandomPlayer(), RandomPlayer()), seed=3)
    data = record.to_dict()
    assert data["format"] == "gpquarto-game/2" and data["game"] == "quarto"
    assert data["settings"] == {"rules": "classic"}
    assert len(data["positions"]) == len(record.actions)
    assert data["positions"][-1] == record.replay().text()
    old = {key: value for key, value in data.items() if key not in ("game", "settings", "positions")}
    old["format"] = "gpquarto-game/1"
    again = GameRecord.from_dict(old)
    assert (again.game, again.actions, again.replay().text()) == ("quarto", record.actions, record.replay().text())
    assert record.decision_seats() == [0] + [seat for seat in (1, 1, 0, 0) * 8][: len(record.times) - 1]
    assert record.outcome.score(0) + record.outcome.score(1) == 1


def test_a_record_whose_end_disagrees_with_its_replay_is_refused():
    record = play_game((RandomPlayer(), RandomPlayer()), seed=4)
    data = record.to_dict()
    data["end"] = "draw" if record.end == "win" else "win"
    data["winner"] = None if data["end"] == "draw" else 0
    with pytest.raises(ValueError, match="record says"):
        GameRecord.from_dict(data).replay()
    data = record.to_dict()
    data["game"] = "chess"
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        GameRecord.from_dict(data)


class FreezeWatcher(RandomPlayer):
    """A random player that notes, at each decision, how many objects the garbage collector leaves frozen."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.frozen: list[int] = []

    def decide(self, view):
        import gc

        self.frozen.append(gc.get_freeze_count())
        return super().decide(view)


def test_a_timed_games_collections_walk_only_the_games_objects():
    """Under a time limit the program's objects are frozen for the game (a full collection of a large heap would
    otherwise land inside a timed decision), and thawed after it; without a limit nothing is frozen."""
    import gc

    assert gc.get_freeze_count() == 0
    watcher = FreezeWatcher(seed=1)
    play_game((watcher, RandomPlayer(seed=2)), game="quixo", settings={"size": 3}, seed=3, time_limit=5.0)
    assert watcher.frozen and min(watcher.frozen) > 1000 and gc.get_freeze_count() == 0
    watcher.frozen.clear()
    play_game((watcher, RandomPlayer(seed=2)), game="quixo", settings={"size": 3}, seed=3)
    assert watcher.frozen and set(watcher.frozen) == {0}


class Waiter(FreezeWatcher):
    """A :class:`FreezeWatcher` whose first decision waits until ``go`` is set, after saying it has begun."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.begun, self.go = threading.Event(), threading.Event()

    def decide(self, view):
        self.begun.set()
        assert self.go.wait(30)
        return super().decide(view)


def test_timed_games_in_threads_share_the_freeze_until_the_last_ends():
    import gc

    def start(waiter: Waiter, seed: int) -> threading.Thread:
        thread = threading.Thread(
            target=play_game,
            args=((waiter, RandomPlayer(seed=seed)),),
            kwargs={"game": "quixo", "settings": {"size": 3}, "seed": seed, "time_limit": 60.0},
        )
        thread.start()
        assert waiter.begun.wait(30)
        return thread

    first, second = Waiter(seed=1), Waiter(seed=2)
    first_game = start(first, 3)
    second_game = start(second, 4)
    first.go.set()
    first_game.join(30)
    assert not first_game.is_alive()
    assert gc.get_freeze_count() > 1000  # the first game's end left the freeze to the second, still under way
    second.go.set()
    second_game.join(30)
    assert not second_game.is_alive() and gc.get_freeze_count() == 0
    assert min(first.frozen) > 1000 and min(second.frozen) > 1000
