"""git's global options: what stands between ``git`` and its subcommand.

``git -C repo --no-pager -c core.pager=cat log -p`` runs ``log -p``: every rule that reads a
git subcommand skips these first (git(1), "OPTIONS"). The options that take a value as the
next word are :data:`GIT_VALUE_OPTIONS`; a glued form (``--git-dir=x``, ``-Crepo``) is one word.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["GIT_VALUE_OPTIONS", "without_git_options"]

GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                               "--config-env", "--exec-path", "--super-prefix",
                               "--list-cmds", "--attr-source"})
"""Global options whose value is the next word (git(1))."""


def without_git_options(args: Sequence[str]) -> list[str]:
    """The words of a git command from its subcommand on.

    :param args: the words after ``git``.
    :returns: ``["log", "-p"]`` for ``-C repo --no-pager log -p``; empty when nothing follows
        the global options.
    """
    words = list(args)
    while words and words[0].startswith("-"):
        option = words.pop(0)
        if option in GIT_VALUE_OPTIONS and words:
            words.pop(0)
    return words
