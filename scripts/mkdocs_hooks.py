"""MkDocs hooks for the docs site (``hooks:`` in ``mkdocs.yml``).

The pages are written to read well on a repository browser, where a link to a source file
(``[urlguard.py](../core/egress/urlguard.py)``) or to ``../examples`` works. The site holds
only ``docs/``, so such links become the path in code, and ``--strict`` stays meaningful for
the links between pages. A fence's info string may name the file it shows
(`````toml pyproject.toml``), which the site's Markdown would not take for a fence: only the
language is kept.
"""

from __future__ import annotations

import re
from typing import Any

_OUTSIDE = re.compile(r"\[([^\]]+)\]\((?:\.\./)+((?:core|plugins|filters|examples|bench|scripts"
                      r"|tests)(?:/[^)\s#]*)?)\)")

_FENCE_TITLE = re.compile(r"^([ \t]*```[\w+-]+)[ \t]+[^\s{][^\n]*$", re.M)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Turn links that leave ``docs/`` into text and fence titles into the bare language.

    :param markdown: the page's Markdown.
    :returns: the page with those links rewritten.
    """
    def plain(match: re.Match[str]) -> str:
        text, path = match.group(1), match.group(2)
        return text if text.strip("`") == path.rsplit("/", 1)[-1] else f"{text} (`{path}`)"

    return _FENCE_TITLE.sub(r"\1", _OUTSIDE.sub(plain, markdown))
