"""The human terminal player, driven by scripted input streams."""

from __future__ import annotations

import io

import pytest

from gpquarto.arena.game import play_game
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import square_name
from gpquarto.games.quarto.pieces import parse_piece, piece_name
from gpquarto.games.quarto.players.human import HumanPlayer
from gpquarto.players.base import PlayerQuit
from gpquarto.players.human import QuitGame
from gpquarto.players.random_player import RandomPlayer
from gpquarto.players.registry import available_players
from gpquarto.resolve import make_player


def scripted(*lines: str) -> tuple[HumanPlayer, io.StringIO]:
    output = io.StringIO()
    return HumanPlayer(input_stream=io.StringIO("".join(line + "\n" for line in lines)), output_stream=output), output


def board_after(*placements: tuple[int, int], in_hand: int | None = None) -> Board:
    board = Board()
    for piece, square in placements:
        board.choose(piece)
        board.place(square)
    if in_hand is not None:
        board.choose(in_hand)
    return board


def reference_code(piece: int) -> str:
    return "".join(
        yes if piece & bit else no for bit, yes, no in ((8, "T", "S"), (4, "D", "L"), (2, "O", "H"), (1, "Q", "R"))
    )


# ---------------------------------------------------------------- parsing pieces
def test_parse_piece_accepts_hex_digits_and_codes() -> None:
    for piece in range(16):
        assert parse_piece(f"{piece:X}") == piece == parse_piece(f"{piece:x}")
        assert parse_piece(reference_code(piece)) == piece == parse_piece(reference_code(piece).lower())
        assert parse_piece(f"  {reference_code(piece)} ") == piece


@pytest.mark.parametrize("text", ["", "g", "10", "-1", "TDO", "TDOQX", "XDOQ", "a1"])
def test_parse_piece_rejects_other_text(text: str) -> None:
    with pytest.raises(ValueError, match="not a piece"):
        parse_piece(text)


# ---------------------------------------------------------------- choosing
def test_choose_re_asks_with_a_reason_until_the_answer_is_legal() -> None:
    board = board_after((2, 5))
    player, output = scripted("zz", "", "a1", "2", "tdoq")
    assert player.choose_piece(board.view()) == 15
    text = output.getvalue()
    assert text.count("Choose a piece for your opponent") == 5
    assert "not a piece: 'zz'" in text and "not a piece: ''" in text and "not a piece: 'a1'" in text
    assert "piece 2:SLOR (short light solid round) is already used" in text
    # the board with coordinates, and every available piece with hex index, code and name
    assert str(board) in text
    listing = [line.strip() for line in text.split("Available pieces:")[1].splitlines() if line.startswith("  ")]
    assert listing == [f"{piece:X}:{reference_code(piece)} ({piece_name(piece)})" for piece in range(16) if piece != 2]


def test_board_is_drawn_with_coordinates() -> None:
    board = board_after((15, 6))
    player, output = scripted("0")
    player.choose_piece(board.view())
    drawing = output.getvalue()
    assert any(line.split() == ["a", "b", "c", "d"] for line in drawing.splitlines())
    assert [line[0] for line in drawing.splitlines() if line[:1] in "1234" and line[:1]] == ["1", "2", "3", "4"]
    row_two = next(line for line in drawing.splitlines() if line.startswith("2 "))
    assert row_two.split() == ["2", "..", "..", "F:TDOQ", ".."]  # square 6 is c2


# ---------------------------------------------------------------- placing
def test_place_re_asks_with_a_reason_until_the_square_is_free() -> None:
    board = board_after((2, 5), (7, 0), in_hand=9)
    player, output = scripted("b2", "a1", "16", "e5", "x", "", "c3")
    assert player.place_piece(board.view(), 9) == 10
    text = output.getvalue()
    assert text.count("Place piece 9:TLHQ (tall light hollow square)") == 7
    assert "square b2 is occupied by 2:SLOR" in text and "square a1 is occupied by 7:SDOQ" in text
    assert "not a square: '16'" in text and "not a square: 'e5'" in text and "not a square: 'x'" in text
    assert "Your opponent placed 7:SDOQ (short dark solid square) on a1." in text


@pytest.mark.parametrize("square", range(16))
def test_place_accepts_names_and_indices(square: int) -> None:
    board = board_after(in_hand=0)
    assert scripted(square_name(square))[0].place_piece(board.view(), 0) == square
    assert scripted(square_name(square).upper())[0].place_piece(board.view(), 0) == square
    assert scripted(str(square))[0].place_piece(board.view(), 0) == square


# ---------------------------------------------------------------- leaving
@pytest.mark.parametrize("lines", [("quit",), ("QUIT",), ("exit",), ("q",), ("zz", "quit"), ()])
def test_quit_or_end_of_input_raises_quit_game(lines: tuple[str, ...]) -> None:
    board = board_after((1, 1), in_hand=3)
    player, _ = scripted(*lines)
    with pytest.raises(QuitGame):
        player.place_piece(board.view(), 3)
    player, _ = scripted(*lines)
    with pytest.raises(PlayerQuit):
        player.choose_piece(Board().view())


def test_default_streams_are_stdin_and_stdout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("nope\n5\n"))
    assert HumanPlayer().choose_piece(Board().view()) == 5
    assert "not a piece: 'nope'" in capsys.readouterr().out


# ---------------------------------------------------------------- in the registry and the arena
def test_registered_as_human_without_spec_parameters() -> None:
    info = next(info for info in available_players() if info.name == "human")
    assert info.parameters == () and info.summary
    assert isinstance(make_player("human"), HumanPlayer)


def test_a_whole_game_through_the_arena() -> None:
    # each decision takes the first legal answer: "0".."9" are pieces and squares, "10".."15" squares only
    answers = [str(number) for number in range(16)] * 20
    output = io.StringIO()
    human = HumanPlayer(input_stream=io.StringIO("\n".join(answers) + "\n"), output_stream=output)
    record = play_game((human, RandomPlayer()), seed=3)
    assert record.end in ("win", "draw") and record.forfeited_by is None
    board = record.replay()
    assert board.is_over()
    assert "you are player 0 (you choose the first piece)" in output.getvalue()


def test_quitting_stops_the_arena_instead_of_forfeiting() -> None:
    human = HumanPlayer(input_stream=io.StringIO("0\nquit\n"), output_stream=io.StringIO())
    with pytest.raises(QuitGame):
        play_game((RandomPlayer(), human), seed=1)
