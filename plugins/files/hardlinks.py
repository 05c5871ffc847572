r"""Hard links: a file with several names is read only when its other names may be read too.

The sandbox checks the *name* a tool was given. A hard link is the same file under another
name, so ``notes.txt`` made by ``ln .env notes.txt`` (or by anyone, before tooldeck started)
would hand out ``.env`` while ``notes.txt`` matches no ``deny_read`` glob. The kernel does
not say where a file's other names are; it only counts them (``st_nlink``). So every open
for reading (``read``, ``edit``, ``grep``, ``copy_path``, the diff of ``write``) passes the
open file's ``fstat`` through :class:`HardlinkGuard`:

=====================  ==============  ======================================================
rule                   category        refuses a regular file with ``st_nlink > 1`` when
=====================  ==============  ======================================================
``hardlink-secret``    policy_blocked  one of its names that we can find is read-denied (1)
``hardlink-unknown``   policy_blocked  not all of its names were found inside the sandbox
                                       roots (2), and it is not in a package store (3)
=====================  ==============  ======================================================

1. Found by comparing ``(st_dev, st_ino)``: with every regular file of the sandbox roots
   (walked once per operation, without following symlinks, at most
   :data:`MAX_INDEXED_ENTRIES` entries) and with the read-denied files directly in the home
   directory and in each root, or one level into their dot-directories (``~/.ssh/id_rsa``,
   ``~/.aws/credentials``, ``~/.netrc``, ``./.env``, ``./deploy.key``, ``./.secrets/x``).
2. Names outside the roots cannot be listed without scanning whole filesystems, so a count
   that does not add up is refused: the missing names may be ``/etc/…``, another user's
   project or a secret we do not know. A capped walk counts as not adding up. Fail closed.
3. Package managers hard-link from their caches: ``uv`` and ``pip`` into ``.venv/…/
   site-packages``, ``pnpm`` into ``node_modules``, ``git clone --local`` into
   ``.git/objects``. Refusing those would break ordinary reading, so a file with a
   ``site-packages``, ``dist-packages`` or ``node_modules`` component, or under
   ``.git/objects`` or ``.git/lfs/objects``, is read when its inode is not a known secret
   (rule 1, the home and root scan). What is *not* known there: a secret elsewhere
   (``config/server.key``, ``/etc/…``) hard-linked into a package tree. Such a link
   needs write access to the store and the secret's file system; output redaction of
   key and token shapes still applies.

A file with one name (``st_nlink == 1``) costs one integer comparison.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox, canonicalize

__all__ = [
    "MAX_INDEXED_ENTRIES",
    "MAX_SECRET_SCAN_ENTRIES",
    "HardlinkGuard",
    "HardlinkRefused",
    "in_package_store",
]

MAX_INDEXED_ENTRIES = 200_000
"""How many directory entries the walk of the sandbox roots may visit (more: names unknown)."""

MAX_SECRET_SCAN_ENTRIES = 10_000
"""How many entries the scan of one directory (and its dot-directories) for known secrets may
visit."""

_STORE_COMPONENTS = frozenset({"site-packages", "dist-packages", "node_modules"})
_STORE_PARTS = ("/.git/objects/", "/.git/lfs/objects/")

Key = tuple[int, int]


def in_package_store(path: str) -> bool:
    """Whether a canonical path lies in a tree package managers fill with hard links.

    :param path: a canonical absolute path.
    :returns: true below ``site-packages``, ``dist-packages``, ``node_modules``,
        ``.git/objects`` or ``.git/lfs/objects``.
    """
    return bool(_STORE_COMPONENTS.intersection(path.split("/"))) or any(
        part in path for part in _STORE_PARTS
    )


class HardlinkRefused(ToolError):
    """Rule ``hardlink-secret`` or ``hardlink-unknown`` refused a read.

    :param rule: the rule's name.
    :param detail: why, naming the file.
    """

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(ErrorCategory.POLICY_BLOCKED, f"file rule '{rule}': {detail}")
        self.rule = rule


def _refuse(rule: str, detail: str) -> HardlinkRefused:
    return HardlinkRefused(rule, detail)


def _walk(base: str, depth: int | None, budget: list[int]) -> Iterator[os.DirEntry[str]]:
    """Regular files below ``base`` (symlinks never followed) while ``budget[0]`` lasts."""
    pending = [(base, 0)]
    while pending:
        directory, level = pending.pop()
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            budget[0] -= 1
            if budget[0] < 0:
                return
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth is None or level + 1 < depth:
                        pending.append((entry.path, level + 1))
                elif entry.is_file(follow_symlinks=False):
                    yield entry
            except OSError:
                continue


def _secret_candidates(base: str) -> Iterator[os.DirEntry[str]]:
    """Regular files in ``base`` and in its dot-directories (``.ssh``, ``.aws``), capped."""
    budget = [MAX_SECRET_SCAN_ENTRIES]
    try:
        with os.scandir(base) as entries:
            listed = list(entries)
    except OSError:
        return
    for entry in listed:
        budget[0] -= 1
        if budget[0] < 0:
            return
        try:
            if entry.is_file(follow_symlinks=False):
                yield entry
            elif entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
                yield from _walk(entry.path, 1, budget)
        except OSError:
            continue


def _key(entry: os.DirEntry[str]) -> Key | None:
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


class HardlinkGuard:
    """Applies the hard-link rules for one file operation (what it learns is kept until then).

    :param sandbox: the sandbox whose roots are searched and whose read rules apply.
    :param home: the home directory scanned for known secrets (default: the user's).
    """

    def __init__(self, sandbox: PathSandbox, *, home: str | None = None) -> None:
        self._sandbox = sandbox
        self._home = home if home is not None else os.path.expanduser("~")
        self._secrets: dict[Key, str] | None = None
        self._index: dict[int, list[str]] | None = None
        self._complete = True

    def check(self, shown: str, info: os.stat_result) -> None:
        """Raise unless a file that was opened for reading may be read despite other names.

        :param shown: the canonical path that was opened.
        :param info: the open file's ``fstat``.
        :raises HardlinkRefused: rules ``hardlink-secret`` and ``hardlink-unknown``.
        """
        if info.st_nlink <= 1 or not stat.S_ISREG(info.st_mode):
            return
        key = (info.st_dev, info.st_ino)
        secret = self._known_secrets().get(key)
        if secret is not None:
            raise self._secret_error(shown, secret)
        if in_package_store(shown):
            return
        names = self._names_in_roots(key)
        denied = next((n for n in names if not self._sandbox.read_allowed(n)), None)
        if denied is not None:
            raise self._secret_error(shown, denied)
        if len(names) < info.st_nlink:
            walked = "" if self._complete else " (the walk stopped early: the tree is too large)"
            raise _refuse(
                "hardlink-unknown",
                f"{shown} has {info.st_nlink} names (hard links) but only {len(names)} were "
                f"found inside the sandbox{walked}; the others may lie outside it or be "
                "read-denied, so it is not read",
            )

    @staticmethod
    def _secret_error(shown: str, secret: str) -> HardlinkRefused:
        return _refuse(
            "hardlink-secret",
            f"{shown} is a hard link to {secret}, which deny_read protects; it is not read",
        )

    def _known_secrets(self) -> dict[Key, str]:
        """Read-denied regular files in the home directory, each root, and their dot-dirs."""
        if self._secrets is not None:
            return self._secrets
        found: dict[Key, str] = {}
        if self._sandbox.has_read_rules:
            bases = [str(canonicalize(self._home)), *(str(r) for r in self._sandbox.roots)]
            for base in dict.fromkeys(bases):
                for entry in _secret_candidates(base):
                    if self._sandbox.read_allowed(entry.path):
                        continue
                    key = _key(entry)
                    if key is not None:
                        found.setdefault(key, entry.path)
        self._secrets = found
        return found

    def _names_in_roots(self, key: Key) -> list[str]:
        """Every name of the file ``key`` found in the sandbox roots (one walk per guard)."""
        if self._index is None:
            index: dict[int, list[str]] = {}
            budget = [MAX_INDEXED_ENTRIES]
            for root in self._sandbox.roots:
                for entry in _walk(str(root), None, budget):
                    index.setdefault(entry.inode(), []).append(entry.path)
            self._complete = budget[0] >= 0
            self._index = index
        names: list[str] = []
        for path in dict.fromkeys(self._index.get(key[1], ())):
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if (info.st_dev, info.st_ino) == key:
                names.append(path)
        return names
