"""One verdict for one command: block, ask or allow.

| order | condition                     | decision | rule                                  |
| ----- | ----------------------------- | -------- | ------------------------------------- |
| 0     | the text is no command (2)    | block    | command                               |
| 1     | :func:`.find_blocked` matches | block    | the block rule (1)                    |
| 2     | the analysis is opaque        | ask      | opaque (never allow what is unseen)   |
| 3     | :func:`.find_confirm` matches | ask      | confirm                               |
| 4     | otherwise                     | allow    | clean                                 |

1. blocklist, rm-protected-root, git-worktrees or network-redirect.
2. a NUL byte or a lone surrogate: :attr:`.CommandAnalysis.refusal`.

Confirmation never lifts a block: a gate must not offer "ask" for a rule-1 hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from tooldeck.shell_analysis.blocklist import DEFAULT_BLOCKED, find_blocked
from tooldeck.shell_analysis.confirm import DEFAULT_CONFIRM_PATTERNS, find_confirm
from tooldeck.shell_analysis.model import BlockMatch, CommandAnalysis
from tooldeck.shell_analysis.parse import analyze

__all__ = ["Verdict", "decide"]


@attrs.frozen
class Verdict:
    """The decision on one command and why.

    :param decision: ``block``, ``ask`` or ``allow``.
    :param rule: the rule that decided (see the module table).
    :param reason: one sentence naming the rule, for the audit log and the agent.
    :param analysis: the analysis the decision was made on.
    :param block: the block match for ``block`` decisions.
    """

    decision: Literal["block", "ask", "allow"]
    rule: str
    reason: str
    analysis: CommandAnalysis
    block: BlockMatch | None = None


def decide(
    command: str,
    *,
    blocklist: Sequence[str] = DEFAULT_BLOCKED,
    confirm_patterns: Sequence[str] = DEFAULT_CONFIRM_PATTERNS,
    protected_roots: Sequence[str] = (),
    home: str | None = None,
    cwd: str | None = None,
    extra_wrappers: Iterable[str] = (),
) -> Verdict:
    """Analyse a command and decide block / ask / allow.

    :param command: the command text.
    :param blocklist: blocklist patterns (see :func:`.effective_blocklist`).
    :param confirm_patterns: confirm patterns.
    :param protected_roots: sandbox roots for the ``rm`` rule.
    :param home: the home directory (default: the current user's).
    :param cwd: the working directory, when known.
    :param extra_wrappers: operator-declared wrappers.
    :returns: the verdict.
    """
    analysis = analyze(command, extra_wrappers=extra_wrappers)
    if analysis.refusal is not None:
        return Verdict("block", "command", analysis.refusal, analysis)
    match = find_blocked(analysis, blocklist, protected_roots=protected_roots, home=home, cwd=cwd)
    if match is not None:
        return Verdict("block", match.rule, match.message, analysis, match)
    if analysis.opaque:
        reason = "opaque command, confirmation needed: " + "; ".join(analysis.opaque_reasons)
        return Verdict("ask", "opaque", reason, analysis)
    pattern = find_confirm(command, analysis, confirm_patterns)
    if pattern is not None:
        return Verdict("ask", "confirm", f"confirm pattern {pattern!r} matched", analysis)
    return Verdict("allow", "clean", "no rule matched", analysis)
