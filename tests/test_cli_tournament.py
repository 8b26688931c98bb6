"""The tournament command, run as a user types it."""

from __future__ import annotations

import csv
import json

from gpquarto.cli import main


def test_tournament_prints_the_table_and_writes_its_files(cli, tmp_path):
    result = cli(
        "tournament",
        "random",
        "novice",
        "random:",
        "--games",
        "8",
        "--seed",
        "3",
        "--workers",
        "2",
        "--per-game",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "round robin: 3 players, 8 games per pairing, quarto, classic rules, seed 3"
    assert lines[1].split()[:3] == ["rank", "player", "rating"]
    ranked = [line.split() for line in lines[2:5]]
    assert [row[0] for row in ranked] == ["1", "2", "3"]
    assert sorted(row[1] for row in ranked) == ["novice", "random", "random:"]
    assert [float(row[2]) for row in ranked] == sorted((float(row[2]) for row in ranked), reverse=True)
    folder = tmp_path / "runs" / "tournament-3"  # the default output folder
    assert {path.name for path in folder.iterdir()} == {
        "pairings.csv",
        "ratings.csv",
        "games.csv",
        "tournament.png",
        "config.json",
    }
    with open(folder / "pairings.csv", newline="") as stream:
        pairings = list(csv.DictReader(stream))
    assert len(pairings) == 3 and all(int(row["games"]) == 8 for row in pairings)
    with open(folder / "games.csv", newline="") as stream:
        assert len(list(csv.DictReader(stream))) == 24
    config = json.loads((folder / "config.json").read_text())
    assert config["players"] == ["random", "novice", "random:"] and config["seed"] == 3
    assert (folder / "tournament.png").read_bytes()[:4] == b"\x89PNG"


def exit_code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:  # argparse's own errors
        return int(stop.code)


def test_bad_tournaments_exit_2_with_one_line_before_playing(tmp_path, capsys):
    for args, message in [
        (("tournament", "random", "nosuch:depth=2"), "unknown player 'nosuch'"),
        (("tournament", "random"), "at least 2 players"),
        (("tournament", "random", "random"), "listed twice"),
        (("tournament", "random", "novice:depth=2"), "no parameter 'depth'"),
        (("tournament", "random", "novice", "--games", "0"), "expected a number >= 1"),
        (("tournament", "random", "human"), "player 'human' needs a person at the terminal"),
    ]:
        code = exit_code([*args, "--out", str(tmp_path / "out")])
        stderr = capsys.readouterr().err
        assert code == 2, args
        assert message in stderr and len(stderr.strip().splitlines()) == 1, (args, stderr)
        assert not (tmp_path / "out").exists()
