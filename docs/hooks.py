"""MkDocs hooks of the documentation site (``mkdocs.yml``): the tutorial page is the README itself, its links made
relative to the site; the command-line reference is written from the CLI's own parsers at every build, so that
neither can drift from what it documents."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

#: The README's links into ``docs/`` become links within the site; its links to other files of the repository
#: (``examples/``, ``gpquarto/``) are written as code, since the site holds no copy of them.
_DOCS_LINK = re.compile(r"\]\(docs/([^)]+)\)")
_REPOSITORY_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:|#|docs/)([^)]+)\)")
CLI_MARKER = "<!-- cli-reference -->"
README_MARKER = "<!-- the README -->"
README = Path(__file__).resolve().parent.parent / "README.md"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if README_MARKER in markdown:
        readme = _DOCS_LINK.sub(r"](\1)", README.read_text(encoding="utf-8"))
        markdown = markdown.replace(README_MARKER, _REPOSITORY_LINK.sub(r"\1 (`\2`)", readme))
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    return markdown


#: A docstring's Sphinx cross-reference, as the API pages render it: ``:class:`~a.b.C``` shows ``C``, else the whole
#: path (the site has no Sphinx; the role's name is dropped).
_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):<code>(~?)([^<]*)</code>")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return _ROLE.sub(lambda match: f"<code>{match[2].rsplit('.', 1)[-1] if match[1] else match[2]}</code>", html)


def cli_reference() -> str:
    """Every command's ``--help``, as the parsers print it at 100 columns, one section per command."""
    os.environ["COLUMNS"] = "100"  # argparse wraps its help to the terminal's width
    from gpquarto.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command")  # the subparsers
    sections = [f"## gpquarto\n\n```text\n{parser.format_help().strip()}\n```\n"]
    for name, subparser in commands.choices.items():
        sections.append(f"## {name}\n\n```text\n{subparser.format_help().strip()}\n```\n")
    return "\n".join(sections)
