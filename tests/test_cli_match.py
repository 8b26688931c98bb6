"""The match and bench commands, run as a user types them."""

from __future__ import annotations


def test_match_prints_the_summary_table(cli):
    result = cli("match", "random", "random", "--games", "300", "--seed", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "random (A) vs random (B): 300 games, quarto, classic rules, seed 1"
    assert lines[1].split()[:5] == ["player", "wins", "draws", "losses", "score"]
    wins, draws, losses = (int(x) for x in lines[2].split()[2:5])
    assert wins + draws + losses == 300
    score = float(lines[2].split()[5].rstrip("%"))
    assert score == round(100 * (wins + draws / 2) / 300, 1) and draws > 0
    # the two figures differ by the draws, and the summary says so
    assert lines[4] == (
        f"score counts a draw as half a win; random (A)'s win rate, wins only: {wins / 300:.1%} "
        f"(95% CI {lines[4].split('(95% CI ')[1]}"
    )
    again = cli("match", "random", "random", "--games", "300", "--seed", "1", "--workers", "2")
    # Same seed, any number of workers: the same table (but for the measured ms per decision).
    assert [line.split()[:7] for line in again.stdout.splitlines()] == [line.split()[:7] for line in lines]


def test_match_saves_replayable_records(cli, tmp_path):
    from gpquarto.arena import GameRecord

    result = cli("match", "random", "novice", "--games", "4", "--seed", "2", "--save-records", str(tmp_path))
    assert result.returncode == 0, result.stderr
    files = sorted(tmp_path.glob("game_*.json"))
    assert len(files) == 4
    for path in files:
        GameRecord.load(path).replay()


def test_bad_arguments_exit_2_with_one_line(cli):
    for args, message in [
        (("match", "random", "nosuch"), "unknown player 'nosuch'"),
        (("match", "human", "random"), "player 'human' needs a person at the terminal"),
        (("match", "random", "random", "--games", "0"), "expected a number >= 1"),
        (("match", "random", "random", "--games", "many"), "expected a whole number"),
        (("match", "random"), "required"),
        (("frobnicate",), "invalid choice"),
    ]:
        result = cli(*args)
        assert result.returncode == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) <= 2  # argparse adds its usage line before the error


def test_bench_engine_reports_three_paths(cli):
    result = cli("bench", "engine", "--repeats", "1", "--seconds", "0.2")
    assert result.returncode == 0, result.stderr
    assert "player API" in result.stdout and "fast playout" in result.stdout and "batched" in result.stdout
