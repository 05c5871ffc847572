"""Copies and archives of a whole tree that holds secrets: every secret in it is read.

``tar czf etc.tgz /etc`` carries ``/etc/shadow`` and the host's ssh keys (when the command
runs with the rights to read them); ``zip -r home.zip ~`` carries ``~/.ssh`` and every token
file of the home. The path rules let a copy *into* the project read outside it (the sources
of ``tar -c``, ``zip``, ``rsync``, ``cp`` are read, not changed), and the secret rules look
for a secret's own name: a tree above the secrets was seen by neither. Denied as a secret
read (rule ``secret-read``), as a search of the same trees for secrets is
(:func:`.secret_reads.secret_hunt_finding`); the exfiltration Atomic Red Team's T1048 test
runs on a host it reaches (``ssh HOST "(cd /etc && tar -zcvf - *)" > etc.tgz``) is the same
copy, resolved from the directory it changed to (:mod:`.changed_directory`).

| tree                                   | examples                                      |
| -------------------------------------- | --------------------------------------------- |
| ``/``, ``/etc``, ``/root``, ``/home``, | ``tar -czf - /etc``, ``cp -r /root r``,        |
| ``/var``, ``/Users``                   | ``rsync -a /home/ h/``, ``cd /etc && tar c *`` |
| the home and its hidden directories    | ``zip -r h.zip ~``, ``tar cf c.tar ~/.config`` |

A tree's entries as one glob count as the tree (``/etc/*``, ``*`` after ``cd /etc``); a
subdirectory that is no such tree (``/var/log/app``, ``~/projects/x``, ``/etc/nginx``)
stays an ordinary copy, and ``tar -x``/``-t`` and ``7z x`` copy nothing out of it.
"""

from __future__ import annotations

import os
import re

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["TREE_COPIERS", "copied_tree", "tree_copy_finding"]

TREE_COPIERS: frozenset[str] = frozenset({"tar", "bsdtar", "gtar", "zip", "7z", "7za", "7zz",
                                          "cp", "rsync", "scp", "ditto"})
"""Command names that copy or archive the trees their operands name."""

_SECRET_TREES = frozenset({"/", "/etc", "/root", "/home", "/var", "/Users"})
_HOME_CHILD = re.compile(r"^(?:/root|/home/[^/]+|/Users/[^/]+)(?:/\.[^/]+)?$")
"""A home (``/home/alice``) or one of its hidden directories (``~/.config``, ``~/.ssh``)."""
_TAR_HEADS = frozenset({"tar", "bsdtar", "gtar"})
_WHOLE_GLOBS = frozenset({"*", ".*", "*/"})


def _secret_tree(path: str) -> bool:
    home = os.path.expanduser("~")
    return (path in _SECRET_TREES or _HOME_CHILD.match(path) is not None
            or path == home or (os.path.dirname(path) == home
                                and os.path.basename(path).startswith(".")))


def _copies(head: str, args: list[str]) -> bool:
    """Whether this run copies out of its operands (tar and 7z also list and extract)."""
    if head in _TAR_HEADS:
        first = args[0] if args else ""
        return any(a in ("-c", "--create") or (
            a.startswith("-") and not a.startswith("--") and "c" in a) for a in args) or (
            not first.startswith("-") and "c" in first)  # tar czf out.tgz …
    if head.startswith("7z"):
        return args[:1] == ["a"]
    return True


def copied_tree(segment: Segment, directory: str | None) -> str | None:
    """The first operand of a copier or archiver that names a tree holding secrets.

    :param segment: one analysed segment.
    :param directory: where relative operands start; ``None`` judges absolute and ``~``
        operands only.
    :returns: the operand as written, or ``None``.
    """
    if not segment.command_positions or segment.command not in TREE_COPIERS:
        return None
    if not _copies(segment.command, list(segment.argv[1:])):
        return None
    for word in segment.words[segment.command_positions[-1] + 1 :]:
        value = word.value
        if word.dynamic or not value or value.startswith("-"):
            continue
        head, _, tail = value.rstrip("/").rpartition("/") if "/" in value else ("", "", value)
        base = (head or ("/" if value.startswith("/") else ".")) if (
            word.globbed and tail in _WHOLE_GLOBS) else value
        if not base.startswith(("/", "~")) and directory is None:
            continue
        path = os.path.normpath(os.path.join(directory or "/", os.path.expanduser(base)))
        if _secret_tree(path):
            return value
    return None


def tree_copy_finding(segment: Segment, cwd: str | None) -> Finding | None:
    """Deny a copy or archive of a tree that holds secrets.

    :param segment: one analysed segment.
    :param cwd: where the command runs (``None``: absolute operands only).
    :returns: the finding, or ``None``.
    """
    tree = copied_tree(segment, cwd)
    if tree is None:
        return None
    return Finding(DENY, "secret-read", f"{segment.text!r} copies {tree!r}, a tree that holds "
                   "secrets")
