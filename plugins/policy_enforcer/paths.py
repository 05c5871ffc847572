"""Which paths a call names, lexically normalised: what ``paths`` globs are matched against.

=======================  ===================================================================
source                   what is taken
=======================  ===================================================================
path parameters          the string values of ``file_path``, ``path``, ``uri``, ``url``,
                         ``query`` (Zeph's keys) and ``source``, ``destination``, ``cwd``
                         (tooldeck's transfer and shell tools)
``command``              every run starting with ``/`` up to a space, ``;``, ``|``, ``&``,
                         ``<``, ``>``, a quote, a backtick or a parenthesis (Zeph's
                         extraction, quotes added so ``"/etc/passwd"`` is found), and every
                         word holding a ``/`` (``../../etc/passwd``, ``~/.ssh/id_rsa``)
URLs                     a value with ``://`` is kept as written (lowercased when matched)
relative paths           joined to the working directory; ``~/`` is the home directory
normalisation            ``.`` dropped, ``..`` pops one component, never above ``/``
symlinks                 each path is also resolved on disk (a missing tail kept as
                         written); both forms are matched
=======================  ===================================================================
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["PATH_KEYS", "call_paths", "normalize_path"]

PATH_KEYS = ("file_path", "path", "uri", "url", "query", "source", "destination", "cwd")
"""Parameters whose string value is a path (or a URL)."""

_ABSOLUTE_RUN = re.compile(r"/[^\s;|&<>'\"`()]+")
_WORD_SPLIT = re.compile(r"[\s;|&<>'\"`()=]+")


def normalize_path(path: str) -> str:
    """Normalise an absolute path without the filesystem: ``.`` dropped, ``..`` pops.

    ``..`` never climbs above ``/`` (``/../etc`` is ``/etc``) and repeated slashes collapse
    (``//a`` is ``/a``, where :func:`posixpath.normpath` keeps two).

    :param path: an absolute path (a relative one is treated as if it began with ``/``).
    :returns: the normalised absolute path.
    """
    parts: list[str] = []
    for name in path.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if parts:
                parts.pop()
            continue
        parts.append(name)
    return "/" + "/".join(parts)


def _absolute(raw: str, cwd: str) -> str:
    if raw == "~" or raw.startswith("~/"):
        raw = os.path.expanduser("~") + raw[1:]
    elif not raw.startswith("/"):
        raw = f"{cwd}/{raw}"
    return normalize_path(raw)


def _raw_paths(params: Mapping[str, Any]) -> Iterator[str]:
    for key in PATH_KEYS:
        value = params.get(key)
        if isinstance(value, str) and value:
            yield value
    command = params.get("command")
    if isinstance(command, str):
        yield from _ABSOLUTE_RUN.findall(command)
        for word in _WORD_SPLIT.split(command):
            if "/" in word and not word.startswith("/"):
                yield word


def call_paths(params: Mapping[str, Any], cwd: str | None = None) -> tuple[str, ...]:
    """Every path and URL ``params`` name, normalised, each with its resolved form too.

    :param params: the call's validated parameters.
    :param cwd: what relative paths are joined to (default: the working directory).
    :returns: distinct strings, in the order found.
    """
    base = normalize_path(cwd if cwd is not None else os.getcwd())
    found: dict[str, None] = {}
    for raw in _raw_paths(params):
        if "\x00" in raw:
            continue
        if "://" in raw:
            found[raw] = None
            continue
        lexical = _absolute(raw, base)
        found[lexical] = None
        found[os.path.realpath(lexical)] = None
    return tuple(found)
