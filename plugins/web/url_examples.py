"""``[[tools.scrape.examples]]``: URLs the egress domain lists must allow or deny, on every build.

``allowed_domains`` and ``denied_domains`` are lists of patterns, which cannot carry
examples of their own as permission rules do. A sibling array of tables tests them::

    [tools.scrape]
    allowed_domains = ["*.example.com"]
    denied_domains = ["secrets.example.com"]

    [[tools.scrape.examples]]
    url = "https://docs.example.com/guide"
    expect = "allow"

    [[tools.scrape.examples]]
    url = "https://secrets.example.com/"
    expect = "deny"
    rule = "denylist"          # optional: the egress rule that must decide

Each URL is judged by the egress policy's static rules (:meth:`EgressService.check_url`: the
URL checks, the address rules on IP literals, the domain lists); no host name is resolved,
so loading a policy never waits on DNS. A failing example refuses the configuration at
start-up and refuses a reload, so the last good policy keeps deciding; the error names the
file, the line, the example and the rule that decided.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tooldeck.config import StrictModel
from tooldeck.errors import ConfigError
from tooldeck.runtime import Runtime
from tooldeck.toml_lines import array_table_lines

__all__ = ["UrlExample", "check_url_examples"]


class UrlExample(StrictModel):
    """One ``[[tools.scrape.examples]]`` table: a URL and the egress verdict it must get."""

    url: str = Field(min_length=1, description="A URL, as a fetch call would give it.")
    expect: Literal["allow", "deny"] = Field(description="The verdict the egress rules must give.")
    rule: str | None = Field(None, description="The egress rule that must deny it "
                             "(denylist, allowlist, bare-ip-with-allowlist, scheme…).")


def check_url_examples(runtime: Runtime, examples: tuple[UrlExample, ...]) -> int:
    """Judge every URL example by the runtime's egress policy; how many there were.

    :param runtime: the runtime being configured (its egress service is the one tools use).
    :param examples: the examples of ``[tools.scrape]``.
    :returns: the number of examples, all of which passed.
    :raises ConfigError: the first example the egress rules decide otherwise.
    """
    if not examples:
        return 0
    egress = runtime.services.egress
    doc = runtime.settings.document
    lines = array_table_lines(doc.text, ("tools", "scrape", "examples"), len(examples))
    for index, example in enumerate(examples):
        found = egress.check_url(example.url)
        wrong_rule = example.rule is not None and found.rule != example.rule
        if found.verdict == example.expect and not wrong_rule:
            continue
        key = f"tools.scrape.examples[{index}]"
        where = f"{doc.label}:{lines[index]}" if lines else doc.label
        wanted = example.expect + (f" by rule {example.rule}" if example.rule else "")
        raise ConfigError(f"{where}: {key}: {example.url!r} should be {wanted} but is "
                          f"{found.verdict} (rule {found.rule or '-'}): {found.reason}",
                          path=doc.label, key=key)
    return len(examples)
