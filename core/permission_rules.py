r"""Permission rules: ordered ``{pattern, action}`` globs, compiled to linear-time matchers.

Shared by the gates that judge a tool's input against rules (the ``permissions`` gate on the
whole input, the shell gate on every command segment).

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
glob on the input      ``pattern`` matches the *whole* input, case-insensitively; ``*`` is
                       any run of characters (``/`` and newlines included), ``?`` one
                       character, ``[…]`` a class (``[!…]``/``[^…]`` negated), ``\`` escapes
linear time            ``*``-only globs are matched with string searches, the rest with RE2:
                       no pattern can make a match take more than linear time
first match wins       :func:`first_match` returns the first rule that matches
inline examples        a rule's ``match`` examples must be decided by that rule and its
                       ``not_match`` examples must not match it, or :func:`compile_rules`
                       refuses the rules, naming the file, the rule and the example
=====================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import attrs
import re2
from pydantic import BaseModel, ConfigDict, Field

from tooldeck.errors import ConfigError
from tooldeck.models import Verdict
from tooldeck.toml_lines import array_table_lines

__all__ = [
    "MAX_PATTERN",
    "CompiledRule",
    "PermissionRule",
    "StarGlob",
    "compile_glob",
    "compile_rules",
    "first_match",
    "glob_literal",
    "glob_to_regex",
]

MAX_PATTERN = 1024
"""The longest pattern accepted."""


class PermissionRule(BaseModel):
    """One ``[[tools.permissions.<tool>]]`` table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str = Field(min_length=1, max_length=MAX_PATTERN)
    action: Literal["allow", "ask", "deny"]
    match: tuple[str, ...] = ()
    not_match: tuple[str, ...] = ()


def glob_to_regex(pattern: str) -> str:
    """Translate a permission glob to an RE2 pattern matching the whole input.

    :raises ValueError: an unterminated ``[`` class or a trailing backslash.
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "\\":
            if i + 1 == n:
                raise ValueError("trailing backslash")
            i += 1
            out.append(re2.escape(pattern[i]))
        elif c == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if end == -1:
                raise ValueError(f"unterminated character class at position {i}")
            body = pattern[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            escaped = "".join("\\" + ch if ch in "\\^[]" else ch for ch in body)
            out.append(f"[{'^' if negate else ''}{escaped}]")
            i = end
        else:
            out.append(re2.escape(c))
        i += 1
    return "(?is)^" + "".join(out) + "$"


@attrs.frozen
class CompiledRule:
    """A rule ready to match: its glob compiled to a linear-time matcher.

    :param pattern: the glob as written.
    :param verdict: its action.
    :param matcher: the compiled matcher.
    :param index: its position in its tool's list.
    :param key: its id, the dotted key with the index (``tools.permissions.bash[2]``).
    :param line: the line of its ``[[…]]`` header in its file, when known
        (:mod:`tooldeck.toml_lines`).
    :param source: where it came from (a file, ``env``, ``default``, ``builtin``), when the
        gate that holds it records that per rule.

    ``literal`` (not a parameter) is the matcher's :attr:`StarGlob.inner`: :func:`first_match`
    tests such a rule with ``in`` and calls no matcher.
    """

    pattern: str
    verdict: Verdict
    matcher: Any
    index: int
    key: str = ""
    line: int | None = None
    source: str | None = None
    literal: str | None = attrs.field(init=False, repr=False, eq=False, default=attrs.Factory(
        lambda self: self.matcher.inner if isinstance(self.matcher, StarGlob) else None,
        takes_self=True))

    def matches(self, text: str) -> bool:
        """True when the glob matches the whole ``text`` (case-insensitively)."""
        return bool(self.matcher.search(text.lower()))


class StarGlob:
    """A glob whose only metacharacter is ``*``, matched by finding its literal parts in order.

    Most rules look like ``git *`` or ``*sudo*``; matching them with ``str`` methods is linear
    and avoids a regex call on every tool call. Taking each middle part at its leftmost
    occurrence is exact for ``*``-only globs.
    """

    def __init__(self, pattern: str) -> None:
        self.parts = pattern.lower().split("*")
        # ``*literal*`` (every legacy bash rule has this shape) is a plain substring test
        literal = len(self.parts) == 3 and self.parts[::2] == ["", ""]
        self.inner: str | None = self.parts[1] if literal else None
        """The literal of a ``*literal*`` glob (matched by ``in``), else ``None``."""

    def search(self, text: str) -> bool:
        """True when the (already lowercased) ``text`` matches the whole glob."""
        if self.inner is not None:
            return self.inner in text
        parts = self.parts
        if len(parts) == 1:
            return text == parts[0]
        first, last = parts[0], parts[-1]
        if len(text) < len(first) + len(last) or not (
            text.startswith(first) and text.endswith(last)
        ):
            return False
        pos, end = len(first), len(text) - len(last)
        for middle in parts[1:-1]:
            found = text.find(middle, pos, end)
            if found < 0:
                return False
            pos = found + len(middle)
        return True


def compile_glob(pattern: str, options: Any) -> Any:
    """A matcher for ``pattern``: :class:`StarGlob` when it only uses ``*``, else RE2.

    :raises ValueError: an invalid glob.
    """
    if not any(ch in pattern for ch in "?[\\"):
        return StarGlob(pattern)
    return re2.compile(glob_to_regex(pattern.lower()), options)


def compile_rules(
    tool: str, rules: Sequence[PermissionRule], source: str, *,
    section: str = "tools.permissions", text: str | None = None,
) -> list[CompiledRule]:
    """Compile and self-test one tool's rules.

    :param tool: the tool id (the last part of the rules' key).
    :param rules: the rules, in order.
    :param source: the file they came from, for messages.
    :param section: the dotted table holding the tool's list.
    :param text: the file's TOML text: each rule then records the line of its header.
    :raises ConfigError: an invalid glob, or an inline example that fails; the message names
        the file, the tool, the rule and the example.
    """
    compiled: list[CompiledRule] = []
    options = re2.Options()
    options.max_mem = 1 << 20
    lines = (array_table_lines(text, (*section.split("."), tool), len(rules))
             if text is not None else ())
    for i, rule in enumerate(rules):
        key = f"{section}.{tool}[{i}]"
        try:
            matcher = compile_glob(rule.pattern, options)
        except (ValueError, re2.error) as exc:
            raise ConfigError(f"{source}: {key}: invalid pattern {rule.pattern!r}: {exc}",
                              path=source, key=key) from None
        compiled.append(CompiledRule(rule.pattern, Verdict(rule.action), matcher, i, key,
                                     lines[i] if lines else None))
    for i, rule in enumerate(rules):
        key = f"{section}.{tool}[{i}]"
        for example in rule.match:
            decider = first_match(compiled, example)
            if decider is None or decider.index != i:
                by = "no rule" if decider is None else (
                    f"rule [{decider.index}] {decider.pattern!r} first")
                raise ConfigError(
                    f"{source}: {key}: example {example!r} should be decided by rule "
                    f"{rule.pattern!r} but is matched by {by}", path=source, key=key)
        for example in rule.not_match:
            if compiled[i].matches(example):
                raise ConfigError(
                    f"{source}: {key}: example {example!r} in not_match is matched by rule "
                    f"{rule.pattern!r}", path=source, key=key)
    return compiled


def first_match(rules: Sequence[CompiledRule], text: str) -> CompiledRule | None:
    """The first rule whose glob matches ``text``, or ``None``."""
    lowered = text.lower()
    for rule in rules:
        literal = rule.literal  # most rules: a substring test, no call
        if literal is not None:
            if literal in lowered:
                return rule
        elif rule.matcher.search(lowered):
            return rule
    return None


_GLOB_LITERAL = {"*": "[*]", "?": "[?]", "[": "[[]", "\\": "\\\\"}


def glob_literal(text: str) -> str:
    """``text`` as a glob that matches exactly it (metacharacters escaped)."""
    return "".join(_GLOB_LITERAL.get(ch, ch) for ch in text)
