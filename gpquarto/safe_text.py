"""Text read from files that are not trusted, made safe to print or to send to a page: control characters
escaped, length and depth bounded (``show`` and the web app's Runs page print what a saved player says of itself).
"""

from __future__ import annotations

import json

#: How much of a file's metadata is printed: the file is not trusted, so its text is bounded and escaped.
MAX_METADATA_CHARACTERS = 2000
MAX_METADATA_DEPTH = 8


def printable(text: str) -> str:
    """``text`` with control characters (terminal escape codes among them) written as escapes."""
    return "".join(
        character if character.isprintable() else character.encode("unicode_escape").decode("ascii")
        for character in text
    )


def bounded_text(value: object, limit: int = MAX_METADATA_CHARACTERS) -> str:
    """A compact, escaped rendering of plain data that stops after ``limit`` characters and
    ``MAX_METADATA_DEPTH`` levels, whatever the data holds (shared references, cycles, odd keys)."""
    parts: list[str] = []
    budget = [limit]

    def emit(text: str) -> bool:
        text = printable(text)
        parts.append(text[: budget[0]])
        budget[0] -= len(text)
        return budget[0] > 0

    def walk(item: object, depth: int, seen: frozenset[int]) -> bool:
        if depth > MAX_METADATA_DEPTH or id(item) in seen:
            return emit("...")
        if isinstance(item, dict):
            if not emit("{"):
                return False
            for number, (key, inner) in enumerate(item.items()):
                if (number and not emit(", ")) or not walk(key, depth + 1, seen | {id(item)}) or not emit(": "):
                    return False
                if not walk(inner, depth + 1, seen | {id(item)}):
                    return False
            return emit("}")
        if isinstance(item, list | tuple):
            if not emit("["):
                return False
            for number, inner in enumerate(item):
                if (number and not emit(", ")) or not walk(inner, depth + 1, seen | {id(item)}):
                    return False
            return emit("]")
        if isinstance(item, float):
            return emit(f"{item:.4g}")
        return emit(json.dumps(item) if isinstance(item, str) else repr(item))

    if not walk(value, 0, frozenset()):
        parts.append(" ...")
    return "".join(parts)
