"""``[[tools.file.examples]]``: paths the read globs must allow or deny, checked on every build.

``deny_read`` and ``allow_read`` are lists of globs, which cannot carry examples of their own
as permission rules do. A sibling array of tables tests them together::

    [tools.file]
    deny_read = ["**/.env", "**/*.pem"]
    allow_read = ["**/.env.example"]

    [[tools.file.examples]]
    path = "app/.env"
    read = "deny"

    [[tools.file.examples]]
    path = "app/.env.example"
    read = "allow"

Each path is made absolute the way the file tools do (``~`` expanded, a relative path joined
to the sandbox's working directory) and judged by the read globs alone: the file need not
exist, and the sandbox roots are not consulted (``[[examples.calls]]`` tests a whole call).
A failing example refuses the configuration at start-up and refuses a reload, so the last
good policy keeps deciding; the error names the file, the line and the example.
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import Field

from tooldeck.config import StrictModel
from tooldeck.errors import ConfigError
from tooldeck.runtime import Runtime
from tooldeck.toml_lines import array_table_lines

__all__ = ["PathExample", "check_path_examples"]


class PathExample(StrictModel):
    """One ``[[tools.file.examples]]`` table: a path and what the read globs must say of it."""

    path: str = Field(min_length=1, description="A path, as a tool call would give it.")
    read: Literal["allow", "deny"] = Field(
        description="allow: no deny_read glob matches it, or an allow_read glob re-allows it; "
        "deny: a deny_read glob matches it and no allow_read glob does.")


def check_path_examples(runtime: Runtime, examples: tuple[PathExample, ...]) -> int:
    """Judge every path example by the runtime's read globs; how many there were.

    :param runtime: the runtime being configured (its path service is the one the tools use).
    :param examples: the examples of ``[tools.file]``.
    :returns: the number of examples, all of which passed.
    :raises ConfigError: the first example the globs decide otherwise.
    """
    if not examples:
        return 0
    sandbox = runtime.services.paths.sandbox
    doc = runtime.settings.document
    lines = array_table_lines(doc.text, ("tools", "file", "examples"), len(examples))
    for index, example in enumerate(examples):
        full = os.path.normpath(os.path.join(sandbox.cwd, os.path.expanduser(example.path)))
        verdict = "allow" if sandbox.read_allowed(full) else "deny"
        if verdict == example.read:
            continue
        key = f"tools.file.examples[{index}]"
        where = f"{doc.label}:{lines[index]}" if lines else doc.label
        raise ConfigError(f"{where}: {key}: reading {example.path!r} ({full}) should be "
                          f"{example.read} but the deny_read/allow_read globs {verdict} it",
                          path=doc.label, key=key)
    return len(examples)
