"""Secrets read inside the project: private keys, ``.env`` files, credential files.

The sandbox-path rule keeps secrets outside the roots out; a secret can also sit inside the
project (``.env``, ``config/master.key``, ``certs/server.key.pem``). A command that reads or
loads such a file is denied (rule ``secret-read``): its content would reach the model.

A path is a secret here when an :data:`.outside_reads.SECRET_PATTERNS` entry matches it,
except:

| exempt                                  | example                                    |
| --------------------------------------- | ------------------------------------------ |
| a template of a secret file             | ``.env.example``, ``.env.sample``, ``*.dist`` |
| source code and docs                    | ``credentials.py``, ``secrets.md``         |
| a public certificate                    | ``cert.pem`` (no ``key``/``priv`` in the name) |

Readers: the read-only commands of :data:`.outside_reads.READ_ONLY` that show content (not
``ls``, ``stat``, ``test``, ``wc``, checksums…, which show metadata), ``source``/``.``
(which load the file into the shell), the dumpers ``base64``, ``xxd``, ``openssl``, ``gpg``,
``awk``, ``sed`` (without ``-i``), ``paste``, ``vim``/``view``, clipboard tools, and
copiers (``cp``, ``scp``, ``rsync``) given a secret as a source (not as the destination:
``cp .env.example .env`` writes a secret file, it does not read one). The shell's own history
(``history``, ``fc``) is read like ``~/.bash_history``, a secret. A grep pattern or an
awk/sed script is data, not a file (``grep -n id_rsa README.md`` reads README.md).
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment, Word
from tooldeck.shell_analysis.outside_reads import READ_ONLY, SECRET_PATTERNS

__all__ = ["SECRET_MARKERS", "SECRET_READERS", "is_project_secret", "secret_read_finding"]

_METADATA_ONLY = frozenset({
    "ls", "stat", "file", "du", "df", "wc", "test", "[", "which", "type", "readlink",
    "realpath", "basename", "dirname", "lsattr", "getfacl", "namei", "getfattr", "find", "tree",
    "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "cmp",
})

SECRET_READERS: frozenset[str] = (READ_ONLY - _METADATA_ONLY) | frozenset({
    "source", ".", "base64", "xxd", "openssl", "gpg", "awk", "gawk", "paste", "view",
    "vim", "vi", "nano", "sed", "xclip", "pbcopy", "cp", "scp", "rsync", "history", "fc",
})
"""Command names whose path operands are read (or loaded) by :func:`secret_read_finding`."""

_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist", ".tmpl", ".defaults",
                      ".default", ".in", ".schema", ".test.example")
_CODE_SUFFIXES = (".py", ".js", ".ts", ".go", ".rs", ".rb", ".java", ".c", ".h", ".md",
                  ".rst", ".html", ".sh", ".txt", ".lock")
_PUBLIC_CERT_SUFFIXES = (".pem", ".crt", ".cer")
_SECRET_PATTERN = re.compile("|".join(fnmatch.translate(p) for p in SECRET_PATTERNS))
_COPIERS = frozenset({"cp", "scp", "rsync"})
SECRET_MARKERS = re.compile(
    r"\.(?:env|ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|pem|key|p12|pfx|jks|keystore|kdbx|"
    r"ppk|keytab|tfstate|git-credentials|vault-token|pgpass|my\.cnf|s3cfg|boto|terraform|config|"
    r"azure|password-store|cargo|local|mozilla|oci|databrickscfg|android|htpasswd)|"
    r"id_(?:rsa|ed25519|ecdsa|dsa)|credentials|shadow|sudoers|history|Keychains|secring|"
    r"ssh_host_|wallet\.dat|environ|/mem|secrets|ssl/private|master\.passwd",
)
"""A part every :data:`.outside_reads.SECRET_PATTERNS` match holds (a cheap first look)."""

_HISTORY_LISTERS = frozenset({"history", "fc"})
_PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "awk", "gawk", "sed"})
_PATTERN_OPTIONS = frozenset({"-e", "--regexp", "--expression"})


def _operands(head: str, words: Sequence[Word]) -> list[Word]:
    """The words that may name files: a grep pattern or an awk/sed script is data."""
    if head not in _PATTERN_FIRST:
        return list(words)
    values = [w.value for w in words]
    if _PATTERN_OPTIONS.intersection(values):
        return [w for i, w in enumerate(words) if i == 0 or values[i - 1] not in _PATTERN_OPTIONS]
    first = next((i for i, v in enumerate(values) if not v.startswith("-")), None)
    return [w for i, w in enumerate(words) if i != first]


def is_project_secret(path: str) -> bool:
    """Tell whether an absolute path inside the project names a secret.

    :param path: an absolute, normalised path.
    :returns: true for a :data:`.outside_reads.SECRET_PATTERNS` match that is not a
        template, source code, or a public certificate.
    """
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith(_TEMPLATE_SUFFIXES) or name.endswith(_CODE_SUFFIXES):
        return False
    if name.endswith(_PUBLIC_CERT_SUFFIXES) and "key" not in name and "priv" not in name:
        return False
    return _SECRET_PATTERN.match(path) is not None


def _sed_edits(args: list[str]) -> bool:
    return any(a.startswith(("-i", "--in-place")) for a in args)


def _makes_links(args: list[str]) -> bool:
    """``cp -l``/``-s``: the link rules judge what the link names."""
    return any(a.startswith(("--li", "--sy")) or (
        a.startswith("-") and not a.startswith("--") and ("l" in a or "s" in a)) for a in args)


def _inside(path: str, roots: Sequence[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def secret_read_finding(segment: Segment, cwd: str | None,
                        roots: Sequence[str]) -> Finding | None:
    """Deny a segment whose reading command is given a secret file of the project.

    Paths outside the roots are left to the sandbox-path rule.

    :param segment: one analysed segment.
    :param cwd: where the command runs (relative paths start there); ``None`` skips.
    :param roots: the sandbox roots (absolute).
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if head in _HISTORY_LISTERS:
        return Finding(DENY, "secret-read", f"{segment.text!r} reads or rewrites the shell history")
    if cwd is None or head not in SECRET_READERS or (head == "sed" and _sed_edits(args)) or (
            head == "cp" and _makes_links(args)):
        return None
    words = _operands(head, segment.words[segment.command_positions[-1] + 1 :])
    if head in _COPIERS:
        words = words[:-1]  # the destination is written, not read
    for word in words:
        value = word.value
        if word.dynamic or not value or (value.startswith("-") and "=" not in value):
            continue
        value = value.partition("=")[2] if value.startswith("-") else value
        if SECRET_MARKERS.search(value) is None:
            continue  # cheap first look: the word holds no part any secret pattern needs
        path = os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
        if _inside(path, roots) and is_project_secret(path) and _inside(
                os.path.realpath(path), roots):  # a link out is the sandbox-path rule's
            return Finding(DENY, "secret-read", f"{segment.text!r} reads the secret {value!r}")
    return None
