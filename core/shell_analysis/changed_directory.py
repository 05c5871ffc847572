"""Secrets read by a path relative to a directory the command changed to.

``cat hosts.yml`` names nothing secret from the project, but after ``cd ~/.config/gh &&`` it
reads GitHub CLI's token. The other rules resolve a relative path from where the command
starts; this one also resolves the operands of every reading command that follows a static
``cd``/``pushd`` against each directory the command changed to before it (in any nesting:
``(cd ~/.kube && cat config)`` too), and denies a secret among them, or a copy of a tree that
holds secrets (``cd /etc && tar czf - *``, :mod:`.tree_copies`). It only ever adds a
denial: the judgement of the path from the starting directory is untouched.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment
from tooldeck.shell_analysis.outside_reads import is_secret_path
from tooldeck.shell_analysis.secret_reads import SECRET_READERS, is_project_secret, reader_operands
from tooldeck.shell_analysis.tree_copies import TREE_COPIERS, copied_tree

__all__ = ["CHANGER_HEADS", "changed_directory_secret_finding"]

CHANGER_HEADS = frozenset({"cd", "pushd"})
"""The commands that change to a directory this rule follows."""


def _target(segment: Segment) -> str | None:
    """The one static directory ``cd``/``pushd`` changes to, else ``None``."""
    operands = [w for w in segment.words[segment.command_positions[-1] + 1 :]
                if w.value != "--"]
    if len(operands) != 1 or not operands[0].stable or operands[0].value in ("", "-"):
        return None
    return operands[0].value


def _secret(path: str, roots: Sequence[str]) -> bool:
    inside = any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)
    return is_project_secret(path) if inside else is_secret_path(path)


def changed_directory_secret_finding(analysis: CommandAnalysis, cwd: str | None,
                                     roots: Sequence[str]) -> Finding | None:
    """Deny a reading command given a secret relative to a directory changed to before it.

    Every static ``cd``/``pushd`` met in source order moves a running directory; each place
    it reaches stays a candidate for the rest of the command (a failed ``cd`` or a subshell
    may leave any of them in effect, so all are tried).

    :param analysis: the analysed command.
    :param cwd: where the command starts; ``None`` skips the rule.
    :param roots: the sandbox roots: inside them a secret is a project's (a template or
        source code is none), outside them any secret path counts.
    :returns: the finding, or ``None``.
    """
    if cwd is None:
        return None
    running, places = cwd, []
    for segment in analysis.segments:
        if not segment.command_positions:
            continue
        if segment.command in CHANGER_HEADS:
            target = _target(segment)
            if target is not None:
                running = os.path.normpath(os.path.join(running, os.path.expanduser(target)))
                places.append(running)
            continue
        if places and segment.command in TREE_COPIERS:  # cd /etc && tar czf - *
            for place in places:
                tree = copied_tree(segment, place)
                if tree is not None:
                    return Finding(DENY, "secret-read", f"{segment.text!r} copies {tree!r} "
                                   f"in {place!r}, a tree that holds secrets")
        if not places or segment.command not in SECRET_READERS:
            continue
        for word in reader_operands(segment):
            value = word.value
            if not word.stable or not value or value.startswith(("-", "/", "~")):
                continue
            for place in places:
                path = os.path.normpath(os.path.join(place, value))
                if _secret(path, roots):
                    return Finding(DENY, "secret-read", f"{segment.text!r} reads the secret "
                                   f"{path!r} (relative to the directory changed to)")
    return None
