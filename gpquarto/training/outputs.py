"""The files of a run folder that people read: ``logbook.csv``, ``hall_of_fame.txt`` and ``fitness.png``.

Each is written atomically, so an interrupted run leaves the last complete version.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from deap import tools

from gpquarto.atomic import write_bytes_atomic, write_text_atomic


def logbook_csv(rows: list[dict]) -> str:
    """``logbook.csv`` text: one row per generation (floats written exactly, with ``repr``)."""
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({key: repr(value) if isinstance(value, float) else value for key, value in row.items()})
    return buffer.getvalue()


def write_logbook(path: Path, rows: list[dict]) -> None:
    """Write :func:`logbook_csv` atomically."""
    write_text_atomic(path, logbook_csv(rows))


def as_deap_logbook(rows: list[dict]) -> tools.Logbook:
    """The rows as a DEAP :class:`~deap.tools.Logbook` (``logbook.select("best")`` and friends)."""
    logbook = tools.Logbook()
    if rows:
        logbook.header = list(rows[0])
    for row in rows:
        logbook.record(**row)
    return logbook


def write_hall_of_fame(path: Path, hall_of_fame) -> None:
    """``hall_of_fame.txt``: each member's fitness and games (with pooled fitness, all the generations' games it
    played), and its rules (or an evaluator's formula)."""
    parts = []
    for rank, genome in enumerate(hall_of_fame, 1):
        record = genome.record
        when = f" in generation {record['generation']}" if "generation" in record else ""
        if "island" in record:
            when += f" of island {record['island']}"
        if record.get("generations_played", 1) > 1:  # pooled fitness: the games of several generations
            when += f", the mean of {record['generations_played']} generations' games"
        games = f"{record.get('wins')} wins, {record.get('draws')} draws, {record.get('losses')} losses"
        if "fallbacks" in record:  # rule players
            games += f", {record.get('fallbacks')} fallbacks in {record.get('decisions')} decisions"
        parts.append(f"# {rank}. score {genome.fitness.values[0]!r}{when}: {games}, size {record.get('size')}")
        parts.append(genome.describe())
        parts.append("")
    write_text_atomic(path, "\n".join(parts))


def write_fitness_plot(path: Path, rows: list[dict]) -> None:
    """``fitness.png``: best and mean score per generation, and the hall of fame's best."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    generations = [row["generation"] for row in rows]
    axes.plot(generations, [row["best"] for row in rows], label="best of generation")
    axes.plot(generations, [row["mean"] for row in rows], label="mean")
    axes.plot(generations, [row["hall_of_fame_best"] for row in rows], label="hall of fame best", linestyle=":")
    axes.set_xlabel("generation")
    axes.set_ylabel("score")
    axes.legend()
    axes.grid(alpha=0.3)
    # fixed margins that fit its labels (scores, generation numbers): a layout engine would measure the text at
    # every run's end and cost as much again as drawing the figure
    figure.subplots_adjust(left=0.1, right=0.97, bottom=0.12, top=0.97)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    write_bytes_atomic(path, buffer.getvalue())
