"""MkDocs hooks of the documentation site (``mkdocs.yml``): the tutorial page is the README itself, its links made
relative to the site, and the task guides take their sections of it; the command-line reference is written from the CLI's own parsers at every build, so that
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


#: ``<!-- README section: 1. Train a player -->``: a guide page takes that section of the README (its commands are run
#: by the README's test), under the section's title without its number.
_SECTION_MARKER = re.compile(r"<!-- README section: (.+?) -->")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if README_MARKER in markdown:
        markdown = markdown.replace(README_MARKER, site_links(README.read_text(encoding="utf-8")))
    markdown = _SECTION_MARKER.sub(lambda match: readme_section(match[1]), markdown)
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    return markdown


def site_links(markdown: str) -> str:
    """README text with its links made the site's: into ``docs/`` as site links, to other files as code."""
    return _REPOSITORY_LINK.sub(r"\1 (`\2`)", _DOCS_LINK.sub(r"](\1)", markdown))


def readme_section(title: str) -> str:
    """The README's section ``## title``, to the next section, headed ``## `` with the title less its number; a
    title the README does not have fails the build (``ValueError``)."""
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    if found is None:
        raise ValueError(f"the README has no section '## {title}'")
    heading = re.sub(r"^\d+\.\s*", "", title)
    return f"## {heading}\n{site_links(found[1])}"


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
