"""The blocklist floor: unconditional, checked on every segment at every command position.

| rule                | fires when                                                    |
| ------------------- | ------------------------------------------------------------- |
| blocklist, 1 word   | command word is the pattern or starts with ``pattern.`` (1)   |
| blocklist, n words  | command word is the first word, the rest follow in order (2)  |
| git-worktrees       | see :mod:`.rm_rules`                                          |
| rm-protected-root   | see :mod:`.rm_rules` (sandbox roots and home are protected)   |
| network-redirect    | a ``/dev/tcp`` or ``/dev/udp`` redirection (3)                |

1. Base name, lowercase: ``mkfs`` blocks ``mkfs.ext4``, not ``mkfsx``; ``sudo`` not ``sudoku``.
2. Zeph's contiguous prefix (``rm -rf /`` blocks ``rm -rf /home/u``), or else: every middle word
   equals a later token and the last word starts a later token, in order. So ``dd if=`` also
   blocks ``dd bs=1M if=/dev/zero``, which the contiguous prefix misses.
3. Bash opens a socket itself for ``cat < /dev/tcp/host/80``: that is a network client like
   ``nc``, so it is blocked whenever any of :data:`NETWORK_COMMANDS` is (by default it is).

"Every command position" means each wrapper and the final command of a segment: ``env sudo x``
is checked as ``env sudo x``, ``sudo x`` and ``x``. Segments come from everywhere the analyzer
looked (substitutions, ``-c`` scripts, ``eval``, heredocs fed to shells, ``find -exec``…).
An opaque analysis is not a block: callers ask (see :func:`tooldeck.shell_analysis.decide`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence

import attrs

from tooldeck.shell_analysis.model import (
    BlockMatch,
    CommandAnalysis,
    Segment,
    Word,
    command_name,
)
from tooldeck.shell_analysis.rm_rules import (
    protected_root_violation,
    rm_flags,
    worktrees_violation,
)

__all__ = [
    "DEFAULT_BLOCKED",
    "NETWORK_COMMANDS",
    "NETWORK_REDIRECT_PATTERN",
    "PROTECTED_ROOT_PATTERN",
    "WORKTREES_PATTERN",
    "effective_blocklist",
    "find_blocked",
    "pattern_matches",
]

DEFAULT_BLOCKED: tuple[str, ...] = (
    "rm -rf /",
    "sudo",
    "mkfs",
    "dd if=",
    "curl",
    "wget",
    "nc ",
    "ncat",
    "netcat",
    "shutdown",
    "reboot",
    "halt",
)
"""The 12 built-in blocked patterns (curl/wget/nc stay blocked even with network allowed)."""

NETWORK_COMMANDS: tuple[str, ...] = ("curl", "wget", "nc ", "ncat", "netcat")
"""Patterns added back when ``allow_network`` is false."""

WORKTREES_PATTERN = "rm --recursive --force .git/worktrees"
"""Pattern reported by the ``git-worktrees`` rule."""

PROTECTED_ROOT_PATTERN = "rm --recursive <protected root>"
"""Pattern reported by the ``rm-protected-root`` rule."""

NETWORK_REDIRECT_PATTERN = "/dev/tcp | /dev/udp redirection"
"""Pattern reported by the ``network-redirect`` rule."""

_NETWORK_HEADS = frozenset(p.strip() for p in NETWORK_COMMANDS)


def effective_blocklist(
    blocked: Iterable[str] = (), allowed: Iterable[str] = (), *, allow_network: bool = True
) -> tuple[str, ...]:
    """Compute the blocklist from configuration (Zeph's computation).

    :param blocked: operator ``blocked_commands``; always added (an explicit block wins).
    :param allowed: operator ``allowed_commands``; removes matching *built-in* entries only.
    :param allow_network: when false, every network command is blocked whatever ``allowed`` says.
    :returns: lowercased, sorted, deduplicated patterns.
    """
    allowed_set = {a.lower() for a in allowed}
    patterns = [p for p in DEFAULT_BLOCKED if p.lower() not in allowed_set]
    patterns.extend(b.lower() for b in blocked)
    if not allow_network:
        patterns.extend(NETWORK_COMMANDS)
    return tuple(sorted(set(patterns)))


def _multi_word_matches(head: str, rest: Sequence[str], tokens: Sequence[str]) -> bool:
    if " ".join(tokens).startswith(" ".join([head, *rest])):
        return True
    position = 1
    for index, part in enumerate(rest, start=1):
        last = index == len(rest)
        while position < len(tokens) and not (
            tokens[position].startswith(part) if last else tokens[position] == part
        ):
            position += 1
        if position == len(tokens):
            return False
        position += 1
    return True


def pattern_matches(pattern: str, tokens: Sequence[str]) -> bool:
    """Match one blocklist pattern against one invocation's tokens.

    :param pattern: a blocklist pattern, e.g. ``sudo`` or ``dd if=``.
    :param tokens: lowercase tokens, command word first as a base name.
    :returns: whether the pattern fires (rules in the module table).
    """
    parts = pattern.lower().split()
    if not parts or not tokens:
        return False
    head, command = command_name(parts[0]), tokens[0]
    if len(parts) == 1:
        return command == head or command.startswith(head + ".")
    return command == head and _multi_word_matches(head, parts[1:], tokens)


@attrs.frozen
class _Compiled:
    """A blocklist prepared for fast matching; patterns keep their sorted order."""

    ordered: tuple[str, ...]
    single: dict[str, int]
    multi: tuple[tuple[int, str, tuple[str, ...]], ...]
    multi_heads: frozenset[str]

    def may_match(self, command: str) -> bool:
        """Whether any pattern could fire on a command word (a cheap look before the tokens).

        :param command: the lowercase base name.
        :returns: false when no pattern names this command or a ``name.`` prefix of it.
        """
        if command in self.single or command in self.multi_heads:
            return True
        return "." in command and any(
            command[:index] in self.single for index, char in enumerate(command) if char == ".")

    def first_match(self, tokens: Sequence[str]) -> str | None:
        command = tokens[0]
        best = self.single.get(command, len(self.ordered))
        for index, char in enumerate(command):
            if char == ".":
                best = min(best, self.single.get(command[:index], best))
        for index, head, rest in self.multi:
            if index < best and head == command and _multi_word_matches(head, rest, tokens):
                best = index
        return self.ordered[best] if best < len(self.ordered) else None


@functools.lru_cache(maxsize=64)
def _compile(blocklist: tuple[str, ...]) -> _Compiled:
    ordered = tuple(sorted({p.lower().strip() for p in blocklist if p.strip()}))
    single: dict[str, int] = {}
    multi: list[tuple[int, str, tuple[str, ...]]] = []
    for index, pattern in enumerate(ordered):
        parts = pattern.split()
        head = command_name(parts[0])
        if len(parts) == 1:
            single.setdefault(head, index)
        else:
            multi.append((index, head, tuple(parts[1:])))
    return _Compiled(ordered, single, tuple(multi), frozenset(head for _, head, _ in multi))


def _rm_rules(
    segment: Segment, position: int, roots: Sequence[str], home: str | None, cwd: str | None
) -> BlockMatch | None:
    flags = rm_flags(segment.words[position + 1 :])
    operand = worktrees_violation(flags)
    if operand is not None:
        detail = f"recursive forced rm of {operand!r} in {segment.text!r}"
        return BlockMatch("git-worktrees", WORKTREES_PATTERN, segment, detail)
    if home is None:
        home = os.path.expanduser("~")
    violation = protected_root_violation(flags, roots, home or None, cwd)
    if violation is not None:
        return BlockMatch("rm-protected-root", PROTECTED_ROOT_PATTERN, segment, violation)
    return None


def _check_segment(
    segment: Segment,
    compiled: _Compiled,
    roots: Sequence[str],
    home: str | None,
    cwd: str | None,
) -> BlockMatch | None:
    for position in segment.command_positions:
        head = command_name(segment.words[position].value)
        if head == "rm":
            match = _rm_rules(segment, position, roots, home, cwd)
            if match is not None:
                return match
        if not compiled.may_match(head):
            continue
        tokens = segment.invocation(position)
        pattern = compiled.first_match(tokens)
        if pattern is not None:
            detail = f"segment {segment.text!r} ({segment.origin}) runs {tokens[0]!r}"
            return BlockMatch("blocklist", pattern, segment, detail)
    return None


def _network_redirect(analysis: CommandAnalysis, compiled: _Compiled) -> BlockMatch | None:
    if not analysis.network_redirects or _NETWORK_HEADS.isdisjoint(compiled.single):
        return None
    target = analysis.network_redirects[0]
    segment = Segment(target, "redirect", (Word(target, target),), ())
    detail = f"bash opens a network socket through {target!r}"
    return BlockMatch("network-redirect", NETWORK_REDIRECT_PATTERN, segment, detail)


def find_blocked(
    analysis: CommandAnalysis,
    blocklist: Sequence[str] = DEFAULT_BLOCKED,
    *,
    protected_roots: Sequence[str] = (),
    home: str | None = None,
    cwd: str | None = None,
) -> BlockMatch | None:
    """Return the first blocklist or ``rm`` rule that fires, segment by segment.

    :param analysis: the analysed command.
    :param blocklist: patterns, e.g. from :func:`effective_blocklist`.
    :param protected_roots: sandbox roots (absolute); they and anything above them are protected.
    :param home: the home directory; ``None`` means ``os.path.expanduser("~")``.
    :param cwd: the directory the command runs in, for relative ``rm`` operands; ``None`` when
        unknown (then ``rm -r .`` and ``rm -r ..`` are blocked).
    :returns: the match, or ``None`` (which is *not* "allow" when the analysis is opaque).
    """
    compiled = _compile(tuple(blocklist))
    network = _network_redirect(analysis, compiled)
    if network is not None:
        return network
    for segment in analysis.segments:
        match = _check_segment(segment, compiled, protected_roots, home, cwd)
        if match is not None:
            return match
    return None
