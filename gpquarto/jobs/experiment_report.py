"""An experiment's report: the summary table, the comparisons, a CSV and two figures."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from gpquarto.arena.stats import median_and_quartiles
from gpquarto.atomic import write_bytes_atomic, write_text_atomic
from gpquarto.jobs.experiment import GRADE_METRIC, ExperimentSummary


def _label(metric: str) -> str:
    return metric if metric == GRADE_METRIC else f"vs {metric}"


def format_summary(summary: ExperimentSummary) -> str:
    """Per variant and opponent: median final score rate and interquartile range; then every pairwise
    comparison with its Mann-Whitney U p-value and the Holm-adjusted one."""
    plan = summary.plan
    width = max(7, *(len(variant.name) for variant in summary.variants))
    lines = [
        f"{len(summary.variants)} variants x {len(plan.seeds)} seeds; final strength = score rate of the best "
        f"player over {plan.evaluation_games} games (median [interquartile range])",
        f"{'variant':<{width}}  " + "  ".join(f"{_label(metric):>26}" for metric in plan.metrics),
    ]
    for variant in summary.variants:
        cells = []
        for opponent in plan.metrics:
            low, middle, high = median_and_quartiles(variant.strength[opponent])
            cells.append(f"{f'{middle:.1%} [{low:.1%}-{high:.1%}]':>26}")
        lines.append(f"{variant.name:<{width}}  " + "  ".join(cells))
    if summary.comparisons:
        lines.append("pairwise: two-sided Mann-Whitney U, p adjusted by Holm over the pairs of each opponent")
        for comparison in summary.comparisons:
            verdict = "differ" if comparison.adjusted < 0.05 else "no significant difference"
            lines.append(
                f"  {_label(comparison.opponent)}: {comparison.first} / {comparison.second}: p = {comparison.p_value:.4f}, "
                f"Holm p = {comparison.adjusted:.4f} ({verdict} at 5%)"
            )
    return "\n".join(lines)


def summary_csv(summary: ExperimentSummary) -> str:
    """One row per variant and opponent: median, quartiles, and every seed's value."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["variant", "metric", "runs", "median", "q1", "q3", "values"])
    for variant in summary.variants:
        for opponent, values in variant.strength.items():
            low, middle, high = median_and_quartiles(values)
            writer.writerow(
                [variant.name, opponent, len(values), f"{middle:.4f}", f"{low:.4f}", f"{high:.4f}"]
                + [" ".join(f"{value:.4f}" for value in values)]
            )
    return out.getvalue()


def comparisons_csv(summary: ExperimentSummary) -> str:
    """One row per compared pair and opponent."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["metric", "variant_a", "variant_b", "p_value", "holm_p_value"])
    for item in summary.comparisons:
        writer.writerow([item.opponent, item.first, item.second, f"{item.p_value:.6f}", f"{item.adjusted:.6f}"])
    return out.getvalue()


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def strength_png(summary: ExperimentSummary) -> bytes:
    """Box plots of the final strength, one panel per evaluation opponent, with every run as a dot (with a few
    seeds per variant the dots say more than the boxes); each panel's scale fits its values."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    opponents = summary.plan.metrics
    names = [variant.name for variant in summary.variants]
    panel_width = max(3.0, 0.6 * len(names) + 1.0)
    figure = Figure(figsize=(1 + panel_width * len(opponents), 4.5))
    FigureCanvasAgg(figure)
    for index, opponent in enumerate(opponents):
        axes = figure.add_subplot(1, len(opponents), index + 1)
        values = [variant.strength[opponent] for variant in summary.variants]
        axes.boxplot(values)
        for position, runs in enumerate(values, 1):
            axes.plot([position] * len(runs), runs, "o", color="tab:blue", alpha=0.6, markersize=4)
        axes.set_xticks(range(1, len(names) + 1), names, rotation=30, ha="right")
        axes.set_title(_label(opponent))
        axes.set_ylabel("accuracy of the best player" if opponent == GRADE_METRIC else "score rate of the best player")
        flat = [value for runs in values for value in runs]
        low, high = min(flat), max(flat)
        margin = max(0.02, 0.1 * (high - low))
        axes.set_ylim(max(0.0, low - margin), min(1.0, high + margin) + 0.005)
        axes.grid(alpha=0.3)
    figure.tight_layout()
    return _png(figure)


def curves_png(summary: ExperimentSummary) -> bytes:
    """The median best fitness per generation of each variant, with its interquartile band."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for variant in summary.variants:
        length = min(len(curve) for curve in variant.curves)
        values = np.array([curve[:length] for curve in variant.curves])
        low, middle, high = np.percentile(values, [25, 50, 75], axis=0)
        line = axes.plot(range(length), middle, label=variant.name)[0]
        axes.fill_between(range(length), low, high, color=line.get_color(), alpha=0.2)
    axes.set_xlabel("generation")
    axes.set_ylabel("best fitness (median, interquartile band)")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return _png(figure)


def write_report(summary: ExperimentSummary, out: Path) -> list[str]:
    """Write ``summary.csv``, ``comparisons.csv``, ``strength.png`` and ``fitness.png`` into ``out``."""
    write_text_atomic(out / "summary.csv", summary_csv(summary))
    write_text_atomic(out / "comparisons.csv", comparisons_csv(summary))
    write_bytes_atomic(out / "strength.png", strength_png(summary))
    write_bytes_atomic(out / "fitness.png", curves_png(summary))
    return ["summary.csv", "comparisons.csv", "strength.png", "fitness.png"]
