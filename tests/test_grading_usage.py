"""Rule usage (``show``'s last section): tallies agree with the player's own counters, grading with a brute-force
solver written here, and the CLI's options and errors."""

from __future__ import annotations

import pytest

from gpquarto.cli import main
from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.player import EvolvedPlayer
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import shared_library
from gpquarto.gp.storage import player_data, save_player
from gpquarto.grading.usage import format_usage, rule_usage
from tests.test_solver import brute_value

RULES = {
    DecisionKind.CHOOSE: [
        ["greater_than(pieces_placed, add(4, 2))", "safe_piece"],
        ["True", "piece_leaving_fewest_safe_placements"],
    ],
    DecisionKind.PLACE: [
        ["True", "winning_square"],
        ["at_most(pieces_left, 4)", "tightest_safe_square"],
        ["True", "corner_square"],
    ],
}


@pytest.fixture(scope="module")
def library():
    return shared_library()


@pytest.fixture(scope="module")
def genome(library):
    return Genome.from_data(RULES, library.primitive_set())


def brute_grade(text: str, action: int) -> bool | None:
    """None when no legal action loses value (or the position is lost), else whether ``action`` keeps it."""
    board = Board.from_text(text)
    me, values = board.player, {}
    for legal in board.legal_actions():
        board.apply(legal)
        values[legal] = brute_value(board) if board.player == me else -brute_value(board)
        board.undo()
    best = max(values.values())
    if best < 0 or all(value == best for value in values.values()):
        return None
    return values[action] == best


def test_tallies_match_the_players_own_counters(genome, library):
    player = EvolvedPlayer(genome, library, name="counted")
    report = rule_usage(player, ["random", "novice"], games=30, seed=4, grade_max_empties=0)
    rules = player.rules
    for kind, compiled in ((DecisionKind.CHOOSE, rules.choose_rules), (DecisionKind.PLACE, rules.place_rules)):
        tallies = report.of_kind(kind)
        assert [tally.fired for tally in tallies[:-1]] == [rule.legal for rule in compiled]
        assert tallies[-1].index is None and tallies[-1].fired == rules.fallbacks[kind]
        assert report.decisions(kind) == rules.decisions[kind] > 30
    assert all(tally.graded == 0 for tally in report.tallies)


def test_grading_agrees_with_brute_force(genome, library, monkeypatch):
    import gpquarto.grading.usage as usage

    logged: list[tuple[str, int | None, str, int]] = []
    original = usage._RecordingPlayer.__init__

    def keep_log(self, player):
        original(self, player)
        self.log = logged

    monkeypatch.setattr(usage._RecordingPlayer, "__init__", keep_log)
    report = rule_usage(EvolvedPlayer(genome, library), ["novice"], games=16, seed=2, grade_max_empties=5)
    expected = {(kind, index): [0, 0] for kind, index, _, _ in logged}
    for kind, index, text, action in logged:
        if text.split(" ")[0].count(".") <= 5:
            verdict = brute_grade(text, action)
            if verdict is not None:
                expected[kind, index][0] += 1
                expected[kind, index][1] += verdict
    got = {(t.kind, t.index): [t.graded, t.optimal] for t in report.tallies if (t.kind, t.index) in expected}
    assert got == expected
    assert sum(graded for graded, _ in expected.values()) > 5
    winning = report.of_kind(DecisionKind.PLACE)[0]
    assert winning.graded and winning.optimal == winning.graded  # winning at once always keeps a won position


def test_same_seed_same_report_and_seed_matters(genome, library):
    def tallies(seed):
        report = rule_usage(EvolvedPlayer(genome, library), ["random"], games=12, seed=seed, grade_max_empties=6)
        return [(t.fired, t.graded, t.optimal) for t in report.tallies]

    assert tallies(1) == tallies(1)
    assert tallies(1) != tallies(2)


def test_bad_arguments(genome, library):
    player = EvolvedPlayer(genome, library)
    with pytest.raises(ValueError, match="games must be >= 0"):
        rule_usage(player, ["random"], games=-1)
    with pytest.raises(ValueError, match="at least one opponent"):
        rule_usage(player, [], games=2)


def test_format_names_every_rule_and_the_fallback(genome, library):
    report = rule_usage(EvolvedPlayer(genome, library), ["random"], games=6, seed=0)
    text = format_usage(report)
    assert "rule usage over 6 games against random" in text
    assert text.count("fallback fired") == 2
    assert "choose rules (" in text and "place rules (" in text
    assert "      3. fired" in text


@pytest.fixture
def saved(genome, library, tmp_path):
    path = tmp_path / "ruled.p"
    save_player(path, player_data(genome, library, name="ruled"))
    return str(path)


def test_show_prints_usage_unless_told_not_to(saved, capsys):
    assert main(["show", saved, "--games", "8", "--against", "novice", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "place rules:" in out and "rule usage over 8 games against novice" in out
    assert main(["show", saved, "--games", "0"]) == 0
    assert "rule usage" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--games", "-2"], "argument --games: expected a number >= 0, got -2"),
        (["--games", "100001"], "argument --games: expected a number from 0 to 100000, got 100001"),
        (["--against", "nobody"], "nobody"),
        (["--grade-empties", "17"], "--grade-empties must be 0..16"),
    ],
)
def test_show_usage_errors_are_one_line(saved, capsys, arguments, message):
    try:
        code = main(["show", saved, "--games", "4", *arguments])
    except SystemExit as exit:  # argparse's own refusal
        code = exit.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
