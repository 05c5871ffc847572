"""The ``dedupe_adjacent`` plugin: a strategy type, and a ``journalctl`` rule that uses it.

``journalctl`` repeats the same message many times in a row; the strategy keeps one copy of
each run, marked with how many lines it stood for. The rule ships with the type
(:attr:`Strategy.rules`): once the plugin is enabled it applies after the built-in rules, and a
user's ``filters.toml`` can override it, or switch it off, by its name ``journalctl-dedupe``.

Configuration::

    [plugins]
    enable = ["dedupe_adjacent"]
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.strategy import Reduction, Strategy


class DedupeAdjacentParams(BaseModel):
    """The ``strategy`` table of a rule using ``dedupe_adjacent`` (without ``type``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_run: int = Field(2, ge=2, description="Shortest run of equal lines that is collapsed.")


class DedupeAdjacent(Strategy[DedupeAdjacentParams]):
    """Collapse runs of identical adjacent lines into one line ending ``(xN)``."""

    name = "dedupe_adjacent"
    Params = DedupeAdjacentParams
    rules = """
[[rules]]
name = "journalctl-dedupe"
match = { prefix = "journalctl" }
strategy = { type = "dedupe_adjacent" }

[[rules.tests]]
command = "journalctl -u nginx"
input = "Started nginx\\nGET /health 200\\nGET /health 200\\nGET /health 200\\nStopped nginx"
expected = "Started nginx\\nGET /health 200 (x3)\\nStopped nginx"
"""

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Collapse the runs; the core puts back any must-keep line a strategy dropped."""
        out: list[str] = []
        lines = clean.split("\n")
        start = 0
        while start < len(lines):
            end = start
            while end + 1 < len(lines) and lines[end + 1] == lines[start]:
                end += 1
            run = end - start + 1
            if run >= self.params.min_run:
                out.append(f"{lines[start]} (x{run})")
            else:
                out.extend(lines[start : end + 1])
            start = end + 1
        return Reduction("\n".join(out), FilterConfidence.FULL)


@hookimpl
def tooldeck_register_filters(register: Callable[..., None]) -> None:
    """Publish the strategy type, and with it its rule."""
    register(DedupeAdjacent)
