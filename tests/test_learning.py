"""Learning: the updates against hand computation, trajectories, determinism across worker counts and on
resume, and the ``learn`` command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gpquarto.learning import LearnConfig, learn, open_learn_run, resume
from gpquarto.learning.episodes import Trajectory, make_model, opponent_of, play_episode
from gpquarto.learning.updates import NTupleLearner, TableLearner
from gpquarto.runner import make_runner
from tests import conftest


def trajectory(afterstates, best, reward, episode=0, seat=0):
    return Trajectory(episode, seat, list(afterstates), list(best), reward)


def test_q_learning_and_monte_carlo_match_a_hand_computed_update():
    # A tiny game: afterstate "a", then "b", then a winning turn (+1); the best values the seat saw at its
    # decisions were 0, 0.5 (the frozen table's) and 1. Then a game where "a" is followed by a loss (-1) at
    # once, on the opponent's turn.
    episodes = [trajectory(["a", "b"], [0.0, 0.5, 1.0], 1.0), trajectory(["a"], [0.0], -1.0, episode=1)]
    q = TableLearner(LearnConfig(method="q-learning", alpha=0.5))
    q.apply(episodes)
    # a: 0 + 0.5 (0.5 - 0) = 0.25, then 0.25 + 0.5 (-1 - 0.25) = -0.375; b: 0 + 0.5 (1 - 0) = 0.5
    assert q.model.table == {"a": -0.375, "b": 0.5}
    mc = TableLearner(LearnConfig(method="monte-carlo", alpha=0.5))
    mc.apply(episodes)
    # a: 0.5 (1 - 0) = 0.5, then 0.5 + 0.5 (-1 - 0.5) = -0.25; b: 0.5
    assert mc.model.table == {"a": -0.25, "b": 0.5}


def test_td_lambda_matches_a_hand_computed_update():
    config = LearnConfig(method="td-ntuple", alpha=0.25, lam=0.5, step="constant")
    learner = NTupleLearner(config)
    learner.model.weights[[0, 1]] = [0.2, -0.4]
    x0, x1 = np.array([0, 0]), np.array([1])  # afterstate 0 uses weight 0 twice; afterstate 1 weight 1
    learner.apply([trajectory([x0, x1], [0, 0, 0], 1.0)])
    v0, v1 = np.tanh(0.4), np.tanh(-0.4)
    g1 = 1.0  # the last afterstate's target is the result
    g0 = 0.5 * v1 + 0.5 * g1  # (1 - lambda) V(x1) + lambda G1
    expected0 = 0.2 + 2 * 0.25 * (g0 - v0) * (1 - v0 * v0)
    expected1 = -0.4 + 0.25 * (g1 - v1) * (1 - v1 * v1)
    assert learner.model.weights[0] == pytest.approx(expected0) and learner.model.weights[1] == pytest.approx(expected1)


def test_temporal_coherence_slows_a_weight_whose_errors_disagree():
    learner = NTupleLearner(LearnConfig(alpha=1.0, step="tc", lam=0.0))
    x = np.array([3])
    learner.apply([trajectory([x], [0], 1.0), trajectory([x], [0], -1.0, episode=1)])
    first = np.tanh(0.0)
    step1 = (1 - first) * 1.0  # coherence 1 at first
    w = step1
    v = np.tanh(w)
    error2 = (-1 - v) * (1 - v * v)
    assert learner.model.weights[3] == pytest.approx(w + abs(step1) / abs(step1) * error2)
    assert learner.errors[3] == pytest.approx(step1 + error2) and learner.sizes[3] == pytest.approx(step1 - error2)


def test_an_episode_records_one_afterstate_per_decision_not_over():
    config = LearnConfig(opponents="random", episodes=10)
    model = make_model(config, np.zeros(540))
    for episode in range(6):
        (record,) = play_episode(config, model, episode)
        assert record.seat == episode % 2 and record.reward in (-1.0, 0.0, 1.0)
        assert len(record.best) - len(record.afterstates) in (0, 1)
    assert [opponent_of(LearnConfig(opponents="self:1,random:1"), e) for e in (0, 49, 50, 99)] == [
        "self",
        "self",
        "random",
        "random",
    ]


def arrays_of(path):
    header, arrays = open_learn_run(path).checkpoint()
    return header, arrays


@pytest.mark.parametrize(
    ("game", "method", "episodes"),
    [
        ("quarto", "td-ntuple", 120),
        ("quarto", "q-learning", 6),
        ("quixo", "td-ntuple", 40),
        ("quixo", "q-learning", 20),
        ("quixo", "monte-carlo", 20),
    ],
)
def test_one_worker_or_two_give_the_same_model(tmp_path, game, method, episodes):
    # Quarto's canonical keys are slow (about 0.3 s an episode): a few episodes show the merge order.
    config = LearnConfig(
        game=game,
        method=method,
        episodes=episodes,
        batch=episodes // 2,
        seed=3,
        opponents="self:1,random:1",
        eval_games=0,
    )
    learn(config, tmp_path / "one")
    with make_runner(2) as runner:
        learn(config, tmp_path / "two", runner=runner)
    (h1, a1), (h2, a2) = arrays_of(tmp_path / "one"), arrays_of(tmp_path / "two")
    assert h1["episodes"] == h2["episodes"] == episodes
    assert set(a1) == set(a2) and all(np.array_equal(a1[name], a2[name]) for name in a1)
    assert np.abs(a1["weights" if method == "td-ntuple" else "values"]).sum() > 0  # it learned something


class Stop(Exception):
    pass


@pytest.mark.parametrize(
    "config",
    [
        LearnConfig(episodes=150, batch=50, seed=5, eval_every=100, eval_games=4, eval_opponents="random"),
        LearnConfig(
            game="quixo", episodes=150, batch=50, seed=5, eval_every=100, eval_games=2, eval_opponents="random"
        ),
    ],
    ids=["quarto", "quixo"],
)
def test_a_resumed_run_is_bit_identical(tmp_path, config):
    whole = learn(config, tmp_path / "whole")

    def stop_after_first(done: int) -> None:
        if done == 50:
            raise Stop

    with pytest.raises(Stop):
        learn(config, tmp_path / "cut", on_batch=stop_after_first)
    resumed = resume(tmp_path / "cut")
    assert resumed.learned_now == 100
    (h1, a1), (h2, a2) = arrays_of(tmp_path / "whole"), arrays_of(tmp_path / "cut")
    assert {k: v for k, v in h1.items() if k != "run_id"} == {k: v for k, v in h2.items() if k != "run_id"}
    assert all(a1[name].tobytes() == a2[name].tobytes() for name in a1)
    assert whole.curve() == resumed.curve() and len(whole.curve()) == 2
    assert (tmp_path / "cut" / "learning.csv").read_text() == (tmp_path / "whole" / "learning.csv").read_text()


def run_cli(*args):
    return conftest.run_cli(*args, cwd=Path.cwd())


def test_the_learn_command_makes_a_run_folder_and_a_player_every_command_loads(tmp_path):
    folder = tmp_path / "run"
    done = run_cli(
        "learn", "--game", "quarto", "--method", "td-ntuple", "--episodes", "100", "--seed", "1",
        "--run-dir", str(folder), "--eval-games", "4", "--eval-opponents", "random", "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for name in ("config.json", "checkpoint.npz", "learning.csv", "learning.png", "learned_player.npz"):
        assert (folder / name).is_file(), name
    player = str(folder / "learned_player.npz")
    match = run_cli("match", player, "random", "--games", "4", "--quiet")
    assert match.returncode == 0 and "win rate" in match.stdout
    shown = run_cli("show", player)
    assert shown.returncode == 0 and "td-ntuple" in shown.stdout and "540 weights" in shown.stdout
    again = run_cli("learn", "--run-dir", str(folder), "--episodes", "100")
    assert again.returncode == 2 and "already holds a learning run: continue it with --resume" in again.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "sarsa"], "invalid choice"),
        (["--episodes", "0"], "expected a number >= 1"),
        (["--opponents", "nobody"], "unknown player"),
        (["--alpha", "2"], "[0, 1]"),
        (["--resume"], "not a learning run folder"),
    ],
)
def test_bad_learn_arguments_are_one_line_errors(tmp_path, args, message):
    done = run_cli("learn", "--run-dir", str(tmp_path / "r"), "--episodes", "10", *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_unset_settings_take_the_defaults_of_the_method_and_game():
    quarto, quixo, table = LearnConfig(), LearnConfig(game="quixo"), LearnConfig(game="quixo", method="monte-carlo")
    assert (quarto.episodes, quarto.step, quarto.alpha, quarto.epsilon_start) == (60_000, "constant", 0.01, 0.2)
    assert (quixo.episodes, quixo.step, quixo.alpha, quixo.epsilon_start) == (10_000, "tc", 0.1, 0.1)
    assert (table.episodes, table.alpha, table.epsilon_start) == (20_000, 0.05, 0.1)
    assert LearnConfig(step="tc", alpha=0.5).as_dict()["alpha"] == 0.5
    # a run saved before the defaults were per game, with alpha unset, keeps the alpha it had
    old = {**LearnConfig().as_dict(), "alpha": None, "step": "tc", "epsilon_start": 0.1, "episodes": 20_000}
    assert LearnConfig.from_dict(old).alpha == 0.1
