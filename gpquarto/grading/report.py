"""Grade reports as a text table with blunder examples, as CSV, and as a bar chart (matplotlib Agg)."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence

from gpquarto.atomic import write_bytes_atomic
from gpquarto.games.interface import DecisionKind
from gpquarto.games.registry import get_game, get_plugin
from gpquarto.grading.bank import Bank
from gpquarto.grading.grade import GradeReport, Tally, describe_action
from gpquarto.search.exact import exact_solver

#: The column of each decision kind.
KIND_LABELS = {DecisionKind.CHOOSE: "choice", DecisionKind.PLACE: "place"}


def _label(kind: DecisionKind) -> str:
    return KIND_LABELS.get(kind, kind.value)


def _percent(tally: Tally) -> str:
    return f"{tally.accuracy:.1%}" if tally.decisions else "-"


def format_reports(reports: Sequence[GradeReport], bank: Bank, *, examples: int = 3) -> str:
    """The table (accuracy with its 95% interval, by kind and by empty squares, blunders, time per decision),
    then up to ``examples`` blunders of each kind per player, in position text."""
    empties = list(bank.parameters.empties_range)
    game = bank.parameters.game
    kinds = get_game(game).decision_kinds
    kinds = kinds if len(kinds) > 1 else ()  # a game of one decision kind: no split
    empty = exact_solver(get_plugin(game)).size_word.split()[0]  # "empty" squares, "blank" cubes
    best_move = bank.parameters.bank.knows_best
    width = max(6, *(len(report.player) for report in reports)) if reports else 6
    lines = [bank.describe()]
    header = f"{'player':<{width}}  {'accuracy':>8}  {'95% CI':>13}"
    header += "".join(f"  {_label(kind):>{max(6, len(_label(kind)))}}" for kind in kinds)
    header += f"  {'best move':>9}" if best_move else ""
    header += "".join(f"  {f'{count} {empty}':>7}" for count in empties)
    header += f"  {'won thrown':>10}  {'draw lost':>9}  {'forfeits':>8}  {'ms/decision':>11}"
    lines.append(header)
    for report in reports:
        total = report.total
        low, high = total.interval()
        by_kind = report.by_kind()
        by_empties = report.by_empties()
        row = f"{report.player:<{width}}  {total.accuracy:>8.1%}  {f'{low:.1%}-{high:.1%}':>13}"
        row += "".join(f"  {_percent(by_kind.get(kind, Tally.of([]))):>{max(6, len(_label(kind)))}}" for kind in kinds)
        row += f"  {total.best_move_rate:>9.1%}" if best_move else ""
        row += "".join(f"  {_percent(by_empties.get(count, Tally.of([]))):>7}" for count in empties)
        row += (
            f"  {total.won_thrown_away:>10}  {total.drawn_lost:>9}  {total.forfeits:>8}  {total.ms_per_decision:>11.3f}"
        )
        lines.append(row)
    accuracy, best, blunders = bank.parameters.bank.legend(bank.parameters.settings)
    lines.append(f"accuracy: {accuracy}; " + (f"best move: {best}; " if best_move else "") + blunders)
    if examples > 0:
        for report in reports:
            shown = []
            for kind in ("won thrown away", "drawn lost"):
                shown.extend(report.blunders(kind)[:examples])
            if shown:
                lines.append(f"{report.player}: examples of blunders")
            for decision in shown:
                best = ", ".join(
                    describe_action(action, decision.position) for action in decision.position.best_actions
                )
                taken = describe_action(decision.action, decision.position)
                why = f" ({decision.forfeit})" if decision.forfeit else ""
                lines.append(f'  {decision.blunder}: "{decision.position.text}" played {taken}{why}; best: {best}')
    return "\n".join(lines)


def reports_csv(reports: Sequence[GradeReport]) -> str:
    """One row per player and group: ``split`` is ``all``, ``kind`` (group ``choice``/``placement``) or
    ``empties`` (group = empty squares); accuracy with its 95% Wilson interval, blunders, forfeits, ms."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["player", "split", "group", "decisions", "correct", "accuracy", "ci_low", "ci_high"]
        + ["won_thrown_away", "drawn_lost", "forfeits", "ms_per_decision"]
    )
    for report in reports:
        groups = [("all", "all", report.total)]
        groups += [("kind", kind, tally) for kind, tally in report.by_kind().items()]
        groups += [("empties", str(count), tally) for count, tally in report.by_empties().items()]
        for split, group, tally in groups:
            low, high = tally.interval()
            writer.writerow(
                [report.player, split, group, tally.decisions, tally.correct]
                + [f"{tally.accuracy:.4f}", f"{low:.4f}", f"{high:.4f}", tally.won_thrown_away, tally.drawn_lost]
                + [tally.forfeits, f"{tally.ms_per_decision:.3f}"]
            )
    return out.getvalue()


def grade_png(reports: Sequence[GradeReport], bank: Bank, *, dpi: int = 120) -> bytes:
    """A bar chart as PNG bytes: each player's accuracy with its 95% interval, overall and by empty squares."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = [report.player for report in reports]
    empties = list(bank.parameters.empties_range)
    figure = Figure(figsize=(max(8.0, 1.2 * len(names) + 6), 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2, width_ratios=(1, 1.6))

    def bars(axes, x, tallies, **style):
        values = np.array([100 * t.accuracy for t in tallies])
        intervals = np.array([t.interval() for t in tallies]).reshape(-1, 2) * 100
        errors = np.clip(np.vstack([values - intervals[:, 0], intervals[:, 1] - values]), 0, None)
        axes.bar(x, values, yerr=errors, capsize=3, **style)

    positions = np.arange(len(names))
    colours = [f"C{number % 10}" for number in range(len(names))]
    bars(left, positions, [report.total for report in reports], color=colours)
    left.set_xticks(positions, names, rotation=30, ha="right")
    left.set_ylabel("accuracy % (95% Wilson interval)")
    left.set_ylim(0, 105)
    left.set_title(f"all {len(bank)} decisions")
    left.grid(axis="y", alpha=0.3)

    width = 0.8 / max(1, len(names))
    groups = np.arange(len(empties))
    for number, report in enumerate(reports):
        split = report.by_empties()
        tallies = [split.get(count, Tally.of([])) for count in empties]
        offset = (number - (len(names) - 1) / 2) * width
        bars(right, groups + offset, tallies, width=width, label=report.player, color=colours[number])
    right.set_xticks(groups, [str(count) for count in empties])
    right.set_xlabel("empty squares")
    right.set_ylim(0, 105)
    right.set_title("by empty squares")
    right.grid(axis="y", alpha=0.3)
    right.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    figure.suptitle(f"accuracy against perfect play ({bank.parameters.purpose} bank, seed {bank.seed})")

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def save_grade_png(reports: Sequence[GradeReport], bank: Bank, path: str | os.PathLike[str]) -> None:
    """Write :func:`grade_png` to ``path`` atomically."""
    write_bytes_atomic(path, grade_png(reports, bank))
