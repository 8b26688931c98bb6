"""Saved evaluators: JSON files of plain data (the tree in safe text form), never pickled code.

An evaluator file is a JSON object: the format tag, the gpquarto version, a name, ``{"evaluator": text}``, the
primitives the tree uses with the source of each, the versions of the primitive sources, the training config
and the fitness. Loading parses the text against the library's evaluator primitive set
(:mod:`gpquarto.gp.textform`), so a file can neither run code nor hang the process; any problem (missing,
corrupt, truncated or foreign file, a rule player given where an evaluator is expected, an unknown
primitive) is a one-line ``ValueError`` naming the file. Writes are atomic.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gpquarto.atomic import write_bytes_atomic
from gpquarto.games.capabilities import EvolvedEvaluators
from gpquarto.games.registry import get_plugin
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.storage import PLAYER_FORMAT, default_library
from gpquarto.plain_files import read_plain_file

EVALUATOR_FORMAT = "gpquarto-evaluator/1"


def evaluator_data(
    genome: EvaluatorGenome,
    library: PrimitiveLibrary,
    *,
    name: str = "evolved",
    config: dict | None = None,
    fitness: dict | None = None,
    run: dict | None = None,
) -> dict:
    """The plain-data description of ``genome`` that an evaluator file stores."""
    from gpquarto import __version__

    used = sorted({node.name for node in genome.tree})
    return {
        "format": EVALUATOR_FORMAT,
        "gpquarto_version": __version__,
        "name": name,
        "tree": genome.to_data(),
        "primitives": {primitive: library.get(primitive).source for primitive in used},
        "library_versions": dict(getattr(library, "versions", {})),
        "config": dict(config or {}),
        "fitness": dict(fitness or {}),
        "run": dict(run or {}),
    }


def save_evaluator(path: str | os.PathLike[str], data: dict) -> None:
    """Write ``data`` (from :func:`evaluator_data`) to the ``.json`` file ``path`` atomically."""
    if Path(path).suffix.lower() != ".json":
        raise ValueError(f"{path}: an evaluator file must end in .json")
    write_bytes_atomic(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def read_evaluator_file(path: str | os.PathLike[str]) -> dict:
    """The validated plain data of an evaluator file (the tree still as text)."""
    path = str(path)
    if Path(path).suffix.lower() != ".json":
        raise ValueError(f"{path}: an evaluator file must end in .json")
    data = read_plain_file(path, "evaluator file", json_format=True)
    problem = _problem(data)
    if problem:
        raise ValueError(f"{path}: not a gpquarto evaluator ({problem})")
    return data  # type: ignore[return-value]  # _problem found it a dict


def _problem(data: object) -> str:
    if not isinstance(data, dict):
        return f"holds a {type(data).__name__}, not an evaluator description"
    if data.get("format") == PLAYER_FORMAT:
        return "it is a rule player: name it as a player spec, not as evaluator=FILE"
    if data.get("format") != EVALUATOR_FORMAT:
        return f"format is {str(data.get('format'))[:40]!r}, expected {EVALUATOR_FORMAT!r}"
    tree = data.get("tree")
    if not isinstance(tree, dict) or set(tree) != {"evaluator"} or not isinstance(tree["evaluator"], str):
        return "'tree' must map 'evaluator' to the tree text"
    for key, kind in (
        ("primitives", dict),
        ("library_versions", dict),
        ("config", dict),
        ("fitness", dict),
        ("simplification", dict),
    ):
        if key in data and not isinstance(data[key], kind):
            return f"{key!r} must be a {kind.__name__}"
    report = data.get("simplification", {})
    if any(not isinstance(report.get(key, 0), int) for key in ("nodes_before", "nodes_after", "checked_positions")):
        return "'simplification' must hold counts"
    if "name" in data and not isinstance(data["name"], str):
        return "'name' must be a str"
    return ""


def evolved_evaluators(game: str) -> EvolvedEvaluators:
    """The evolved evaluators of ``game``; a one-line ``ValueError`` for a game without them."""
    return get_plugin(game).capability(EvolvedEvaluators)


def evaluator_from_data(data: dict, library: PrimitiveLibrary | None = None, *, source: str = "") -> Any:
    """The compiled evaluator (of the library's game, :class:`~gpquarto.games.capabilities.EvolvedEvaluators`) of
    validated evaluator data; ``source`` names it in messages."""
    library = library if library is not None else default_library()
    try:
        genome = EvaluatorGenome.from_data(data["tree"], library.evaluator_primitive_set())
    except ValueError as error:
        message = str(error)
        for primitive, origin in data.get("primitives", {}).items():
            if f"'{primitive}'" in message and primitive not in library:
                message += f"; the evaluator was saved with {primitive} from {origin}"
                break
        raise ValueError(f"{source}: {message}" if source else message) from None
    name = data.get("name") or (Path(source).stem if source else "evolved")
    return evolved_evaluators(library.game).compile(genome, library, name=name)


def load_evaluator(
    path: str | os.PathLike[str], library: PrimitiveLibrary | None = None, *, plugins: tuple[str, ...] | None = None
) -> Any:
    """The compiled evaluator of an evaluator file (``plugins`` default: ``GPQUARTO_PLUGINS``)."""
    data = read_evaluator_file(path)
    library = library if library is not None else default_library(plugins)
    return evaluator_from_data(data, library, source=str(path))


def is_evaluator_file(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a readable JSON file tagged as an evaluator (whatever else is wrong with it)."""
    if Path(path).suffix.lower() != ".json":
        return False
    try:
        data = read_plain_file(path, "evaluator file", json_format=True)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == EVALUATOR_FORMAT


def describe_evaluator(
    path: str | os.PathLike[str], library: PrimitiveLibrary | None = None, *, plugins: tuple[str, ...] | None = None
) -> str:
    """What ``show`` prints for an evaluator file: its name, formula, size and fitness (and, for a simplified
    evaluator, the size of the original)."""
    data = read_evaluator_file(path)
    evaluator = evaluator_from_data(
        data, library if library is not None else default_library(plugins), source=str(path)
    )
    fitness = ", ".join(f"{key} {value}" for key, value in sorted(data.get("fitness", {}).items()))
    lines = [
        f"evaluator {evaluator.name} ({evaluator.genome.size} nodes; scores for the player to move)",
        f"  {evaluator.genome.describe()}",
        f"  fitness: {fitness or 'none recorded'}",
        f"  play it as minimax:depth=D,evaluator={path}",
    ]
    report = data.get("simplification")
    if report:
        lines.insert(
            1,
            f"  simplified: {report.get('nodes_before')} -> {report.get('nodes_after')} nodes; scores like the original "
            f"at {report.get('checked_positions')} positions",
        )
    return "\n".join(lines)
