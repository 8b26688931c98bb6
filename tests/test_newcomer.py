"""What a newcomer meets after the Quick start: what ``train`` says at its end, where the readable (simplified)
champion is, what to do when the run folder is taken, no empty progress bar above an error, and ``show``'s
account of the training config."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.gp.storage import read_player_file, save_player

TINY = ["--generations", "1", "--population", "6", "--games", "4", "--final-games", "10", "--workers", "1"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[Path, str]:
    """A folder where a tiny run trained into ``runs/default`` with its copy ``best_player.p``; and what it said."""
    folder = tmp_path_factory.mktemp("newcomer")
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.chdir(folder)
        assert main(["train", *TINY, "--quiet"]) == 0
    return folder, out.getvalue()


def test_train_ends_with_its_champion_taken_apart_and_what_to_do_next(trained):
    folder, said = trained
    lines = said.splitlines()
    assert lines[0].startswith("trained 1 generation (1 in all, ")  # one generation, not "1 generations"
    fitness = read_player_file(folder / "best_player.p")["fitness"]
    wins, draws, losses = fitness["wins"], fitness["draws"], fitness["losses"]
    assert lines[1].startswith(f"champion: {wins} wins, {draws} draws, {losses} losses in 10 final games")
    points = (wins + draws / 2) / (wins + draws + losses)
    assert f"({points:.1%} of the points)" in lines[1]
    assert f"{fitness['accuracy']:.1%} of the training bank's decisions right, as grade counts them" in lines[1]
    # the fitness is the sum the line shows, on the scale it names
    found = re.fullmatch(
        r"fitness (\S+) = (\S+) points \+ 1 x (\S+) accuracy - 0\.0002 x (\d+) nodes \(at most 2\)", lines[2]
    )
    assert found, lines[2]
    total, shown_points, accuracy, nodes = (float(value) for value in found.groups())
    assert total == pytest.approx(fitness["score"], abs=5e-4) and shown_points == pytest.approx(points, abs=5e-4)
    assert nodes == fitness["size"]  # Quarto's parsimony, per node of the champion
    assert total == pytest.approx(shown_points + accuracy - 0.0002 * nodes, abs=1.5e-3)
    assert lines[3] == f"saved {Path('runs/default/best_player.p')} (and {folder / 'best_player.p'})"
    assert lines[4] == "next:" and "python3 -m gpquarto show best_player.p " in lines[5]
    assert "python3 -m gpquarto match best_player.p minimax:depth=2 --games 200" in lines[6]
    assert "python3 -m gpquarto play --opponent best_player.p" in lines[7]


@pytest.mark.parametrize(
    "game, spec", [("quarto", "best_player.p"), ("quixo", "q4.p"), ("quixo", "minimax:depth=2,evaluator=e.json")]
)
def test_every_next_step_train_suggests_is_a_command_line_the_cli_takes(game, spec, tmp_path, monkeypatch):
    from gpquarto.cli import build_parser
    from gpquarto.cli.train import next_steps

    monkeypatch.chdir(tmp_path)
    for name in ("best_player.p", "q4.p", "e.json"):
        (tmp_path / name).write_text("{}")  # files the parsers may look at
    lines = next_steps(spec.split("evaluator=")[-1], spec, game).splitlines()
    assert lines[0] == "next:" and len(lines) == 4
    for line in lines[1:]:
        words = shlex.split(line.split("  #")[0])
        assert words[:3] == ["python3", "-m", "gpquarto"]
        args = build_parser().parse_args(words[3:])  # argparse exits (SystemExit) on a line it does not take
        assert getattr(args, "game", game) == game


def test_the_copy_of_the_champion_has_its_simplified_form_beside_it(trained, capsys, monkeypatch):
    folder, _ = trained
    monkeypatch.chdir(folder)
    copy, original = folder / "best_player.simplified.json", folder / "runs" / "default" / "best_player.simplified.json"
    assert copy.read_bytes() == original.read_bytes()
    assert main(["show", "best_player.p", "--games", "0"]) == 0
    from_copy = capsys.readouterr()
    assert main(["show", "runs/default/best_player.p", "--games", "0"]) == 0
    from_run = capsys.readouterr()
    assert "the simplified form of best_player.p" in from_copy.err and "simplified: " in from_copy.out
    assert from_copy.out == from_run.out  # the same readable rules wherever the newcomer looks
    assert main(["show", "best_player.p", "--games", "0", "--original"]) == 0
    assert "simplified: " not in capsys.readouterr().out


def test_a_simplified_form_left_by_another_run_is_not_shown(trained, tmp_path, capsys):
    folder, _ = trained
    player = tmp_path / "mine.p"
    shutil.copy(folder / "best_player.p", player)
    stale = read_player_file(folder / "best_player.simplified.json")
    save_player(tmp_path / "mine.simplified.json", {**stale, "run": {"id": "another run", "folder": "elsewhere"}})
    assert main(["show", str(player), "--games", "0"]) == 0
    shown = capsys.readouterr()
    assert "simplified" not in shown.err and "simplified: " not in shown.out


def test_show_says_the_config_in_a_sentence_and_all_of_it_when_asked(trained, capsys):
    folder, _ = trained
    assert main(["show", str(folder / "best_player.p"), "--games", "0", "--original"]) == 0
    out = capsys.readouterr().out
    assert "{" not in out.split("choose rules:")[0].replace("primitive sources: {", "")  # no JSON dump
    assert (
        "trained: quarto, rules genomes, seed 0; 1 generation of 6 genomes x 4 games against "
        "random:1,minimax:depth=2:3; champion chosen on 10 final games (every setting: show --config)"
    ) in out
    assert main(["show", str(folder / "best_player.p"), "--games", "0", "--original", "--config"]) == 0
    lines = capsys.readouterr().out.splitlines()
    config = read_player_file(folder / "best_player.p")["config"]
    start = lines.index("config:") + 1
    assert [line.split(":")[0].strip() for line in lines[start : start + len(config)]] == list(config)


def test_a_taken_run_folder_says_what_to_do_with_a_finished_and_an_unfinished_run(trained, tmp_path, capsys):
    folder, _ = trained
    run = tmp_path / "runs" / "default"
    shutil.copytree(folder / "runs" / "default", run)
    assert main(["train", *TINY, "--quiet", "--run-dir", str(run), "--filename", str(tmp_path / "x.p")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "holds a finished run of 1 generation" in error
    assert (
        "--run-dir runs/NAME --filename NAME.p" in error
        and f"--resume --run-dir {run} --generations N (N > 1)" in error
    )
    (run / "finished.json").unlink()  # as a run stopped before its end
    assert main(["train", *TINY, "--quiet", "--run-dir", str(run), "--filename", str(tmp_path / "x.p")]) == 2
    error = capsys.readouterr().err
    assert "holds an unfinished run (1 generation done): continue it with --resume" in error


def test_no_progress_bar_is_drawn_above_an_error(trained, capsys):
    folder, _ = trained
    taken = str(folder / "best_player.p")  # another run's player: the new run refuses to write over it
    assert main(["train", *TINY, "--run-dir", str(folder / "runs" / "other"), "--filename", taken]) == 2
    error = capsys.readouterr().err
    assert error.startswith("gpquarto: error: ") and error.count("\n") == 1 and "gen/s" not in error
    assert "belongs to another run" in error


@pytest.fixture(scope="module")
def quixo_players(tmp_path_factory) -> dict[int, Path]:
    """Tiny Quixo players evolved on the 3x3 and the 4x4 board."""
    folder = tmp_path_factory.mktemp("quixo-players")
    files = {}
    for size in (3, 4):
        files[size] = folder / f"q{size}.p"
        command = ["train", "--game", "quixo", "--size", str(size), *TINY[:-2], "--workers", "1", "--quiet"]
        with contextlib.redirect_stdout(io.StringIO()):
            assert main([*command, "--run-dir", str(folder / f"run{size}"), "--filename", str(files[size])]) == 0
    return files


def first_line(capsys) -> str:
    return capsys.readouterr().out.splitlines()[0]


def test_a_player_file_carries_its_board_to_every_command_that_plays_it(quixo_players, capsys):
    q3, q4 = (str(quixo_players[size]) for size in (3, 4))
    game = ["--game", "quixo", "--quiet"]
    assert main(["match", q4, "random", "--games", "2", *game]) == 0
    assert ", size 4, " in first_line(capsys)  # not the game's default 5x5
    assert main(["match", "random", q3, "--games", "2", *game]) == 0
    assert ", size 3, " in first_line(capsys)
    assert main(["match", q4, "random", "--games", "2", "--size", "5", *game]) == 0
    assert ", size 5, " in first_line(capsys)  # what the command line says wins
    out = ["--out", str(quixo_players[3].parent / "tournament")]
    assert main(["tournament", q3, "random", "alphabeta:depth=1", "--games", "2", *out, *game]) == 0
    assert ", size 3, " in first_line(capsys)
    assert main(["watch", q4, "random", "--game", "quixo", "--delay", "0"]) == 0
    assert ", size 4, " in first_line(capsys)
    assert main(["match", q4, q3, "--games", "2", *game]) == 2
    assert capsys.readouterr().err == (
        f"gpquarto: error: {q4} was trained with size 4 and {q3} with size 3: choose one with --size\n"
    )
    assert main(["match", q4, q3, "--games", "2", "--size", "3", *game]) == 0
    assert ", size 3, " in first_line(capsys)


def test_play_seats_a_saved_opponent_on_its_own_board(quixo_players, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    main(["play", "--game", "quixo", "--opponent", str(quixo_players[4])])
    assert "size 4" in capsys.readouterr().out.splitlines()[0]


def test_learn_and_experiment_say_their_errors_without_a_bar_or_an_os_message(trained, tmp_path, capsys):
    folder, _ = trained
    learn = ["learn", "--game", "quixo", "--size", "3", "--episodes", "300", "--seed", "1"]
    assert main([*learn, "--run-dir", str(tmp_path / "l1"), "--opponents", "nobody"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("gpquarto: error: unknown player 'nobody'") and error.count("\n") == 1
    assert main([*learn, "--run-dir", str(folder / "runs" / "default")]) == 2  # a training run's folder
    assert capsys.readouterr().err == (
        f"gpquarto: error: {folder / 'runs' / 'default'} already holds another run (a training run?): "
        "use another --run-dir\n"
    )
    assert main(["experiment", "--seeds", "1", "--out", str(folder / "best_player.p")]) == 2
    assert capsys.readouterr().err == f"gpquarto: error: --out {folder / 'best_player.p'}: exists and is not a folder\n"
