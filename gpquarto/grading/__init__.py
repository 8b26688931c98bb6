"""Accuracy against perfect play: a bank of solved endgame decisions, and players scored on it.

``load_or_build_bank()`` gives the grade bank (built on first use, then cached); ``grade_players(players,
bank)`` scores players (objects or specs) on it; ``build_bank(seed=..., purpose="training")`` makes other
banks with the same code. See :mod:`gpquarto.grading.bank` for how positions are chosen.
"""

from gpquarto.grading.bank import TRAINING, Bank, BankParameters, BankPosition, build_bank
from gpquarto.grading.cache import BankCacheWarning, cache_folder, load_or_build_bank
from gpquarto.grading.grade import Decision, GradeReport, Tally, grade_player, grade_players
from gpquarto.grading.report import format_reports, grade_png, reports_csv, save_grade_png

__all__ = [
    "TRAINING",
    "Bank",
    "BankCacheWarning",
    "BankParameters",
    "BankPosition",
    "Decision",
    "GradeReport",
    "Tally",
    "build_bank",
    "cache_folder",
    "format_reports",
    "grade_player",
    "grade_players",
    "grade_png",
    "load_or_build_bank",
    "reports_csv",
    "save_grade_png",
]
