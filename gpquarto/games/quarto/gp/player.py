"""Quarto's evolved player: a Quarto genome playing in Quarto's form (``choose_piece``/``place_piece``), so the
arena's Quarto loop calls its rule set directly."""

from __future__ import annotations

from gpquarto.games.quarto.board import BoardView
from gpquarto.games.quarto.gp.rule_set import RuleSet
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.gp.player import RuleListPlayer


class EvolvedPlayer(RuleListPlayer, QuartoPlayer):
    """Plays a Quarto :class:`~gpquarto.gp.genome.Genome` in Quarto's form: first rule that fires with a legal
    action, else a counted random fallback (see :class:`~gpquarto.games.quarto.gp.rule_set.RuleSet`)."""

    _compiled = RuleSet
    _games = ("quarto",)
    rules: RuleSet

    def choose_piece(self, board: BoardView) -> int:
        return self.rules.choose_piece(board, self._rng)

    def place_piece(self, board: BoardView, piece: int) -> int:
        return self.rules.place_piece(board, self._rng)
