"""The players command lists every registered player with its parameters."""

from __future__ import annotations

from gpquarto.players.registry import available_players, format_limits


def test_players_lists_every_registered_player_with_parameters(cli):
    result = cli("players")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for info in available_players():
        header = next(line for line in lines if line.split()[:1] == [info.name])
        assert info.summary in header
        start = lines.index(header)
        for parameter in info.parameters:
            expected = f"    {parameter.name}: {parameter.type.__name__} = {parameter.default!r}"
            if parameter.limits is not None:
                expected += f" ({format_limits(parameter.limits)})"
            assert expected in lines[start + 1 : start + 1 + len(info.parameters)]
    assert "saved player file" in result.stdout
    assert "    depth: int = 2 (1 to 16)" in lines  # minimax's depth, capped at the game's 16 turns
