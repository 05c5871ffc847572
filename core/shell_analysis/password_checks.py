"""A password checked on the command line: whether a stolen or phished password works.

Each tool below takes an account's password as an argument or on its input and says only
whether it is right (or logs in with it); an agent has no business holding such a password,
and one that tries it is validating a credential it should not have. Rule
``credential-store``, deny, like the keychain reads (each tool's manual):

| tool                                | checks a password when                                |
| ----------------------------------- | ----------------------------------------------------- |
| ``dscl``                            | ``-authonly USER PASS`` (macOS directory service)     |
| ``security``                        | ``unlock-keychain -p PASS`` (the login keychain's)    |
| ``sshpass``                         | ``-p PASS`` or ``-e`` (``SSHPASS``): ssh given one    |
| ``smbclient``, ``rpcclient``,       | ``-U user%PASS``, ``--password=PASS``                 |
| ``smbget``, ``smbcacls``            |                                                       |
| ``ldapwhoami``, ``ldapsearch``,     | ``-w PASS`` (a simple bind's password; ``-W``         |
| ``ldapcompare``, ``ldapexop``       | prompts)                                              |
| ``kinit``                           | the password on its input (a pipe, a here-string, a   |
|                                     | file) or ``--password-file``                          |
| ``htpasswd``                        | ``-v`` with ``-b`` (verify a password given as an     |
|                                     | argument)                                             |
| ``expect``                          | ``-c`` code that spawns a login program and sends it  |
|                                     | text                                                  |

``sudo -S`` and ``su`` fed on input are escalations (the blocklist's). A database client
given its password (``mysql -proot``, ``PGPASSWORD=… psql``) logs in to the project's own
service, and so does an LDAP client bound to a server on loopback (``ldapsearch -H
ldap://localhost:3890 -w admin``): the egress rules judge where they connect.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment, command_name

__all__ = ["PASSWORD_CHECK_HEADS", "password_check_finding"]

_LDAP = frozenset({"ldapwhoami", "ldapsearch", "ldapcompare", "ldapexop"})
"""The OpenLDAP clients that only bind and read (``ldapadd``, ``ldapmodify`` … change the
directory's accounts: :mod:`.escalation` denies them)."""
_SMB = frozenset({"smbclient", "rpcclient", "smbget", "smbcacls", "smbtree"})

PASSWORD_CHECK_HEADS: frozenset[str] = _LDAP | _SMB | frozenset({
    "dscl", "security", "sshpass", "kinit", "htpasswd", "expect"})
"""Command names :func:`password_check_finding` looks at."""

_LOGIN_SPAWN = re.compile(
    r"\bspawn\s+(?:-\S+\s+)*(?:\S*/)?(?:su|sudo|ssh|scp|sftp|passwd|login|kinit|dscl|security|"
    r"smbclient|ldapwhoami|ftp|telnet)\b")


def _letters(args: Sequence[str]) -> str:
    return "".join(a[1:] for a in args
                   if a.startswith("-") and not a.startswith("--") and a[1:].isalpha())


def _why(segment: Segment, head: str, args: Sequence[str]) -> str | None:
    if head == "dscl" and "-authonly" in args:
        return "dscl -authonly checks an account's password"
    if head == "security" and args[:1] == ["unlock-keychain"] and any(
            a == "-p" or (a.startswith("-p") and len(a) > 2) for a in args):
        return "security unlock-keychain -p tries the keychain's password"
    if head == "sshpass" and any(a.startswith("-p") or a == "-e" for a in args):
        return "sshpass logs in with a password given to it"
    if head in _SMB and (any("%" in b for a, b in itertools.pairwise(args)
                             if a in ("-U", "--user")) or any(
            a.startswith(("--password", "-U")) and "%" in a for a in args)
            or any(a.startswith("--password") for a in args)):
        return f"{head} logs in with a password on its command line"
    if head in _LDAP and any(a == "-w" or (a.startswith("-w") and len(a) > 2) for a in args) and (
            not _own_server(args)):
        return f"{head} -w binds with a password on its command line"
    if head == "kinit" and (segment.stdin != "inherited" or any(
            a.startswith("--password-file") for a in args)):
        return "kinit reads an account's password from its input"
    if head == "htpasswd" and {"v", "b"} <= set(_letters(args)):
        return "htpasswd -vb checks a password given as an argument"
    if head == "expect" and any(_LOGIN_SPAWN.search(a) and "send" in a for a in args):
        return "expect sends text to a login program it spawns"
    return None


_LOOPBACK = re.compile(r"^(?:ldaps?://)?(?:localhost|127\.0\.0\.1|\[::1\]|::1)(?::\d+)?/?$")


def _own_server(args: Sequence[str]) -> bool:
    """Tell whether every LDAP server ``-H URL`` or ``-h HOST`` names is on loopback.

    Such a server is the developer's own: binding to it with its development password is a
    login, judged by the egress rules (``loopback-service``) as a database client's is.
    """
    hosts = [b for a, b in itertools.pairwise(args) if a in ("-H", "-h")]
    return bool(hosts) and all(_LOOPBACK.match(h) for h in hosts)


def password_check_finding(segment: Segment) -> Finding | None:
    """Deny a command that checks or uses an account's password given on the command line.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    positions = segment.command_positions
    for start, end in zip(positions, (*positions[1:], len(segment.words)), strict=True):
        head = command_name(segment.words[start].value)  # sshpass -p x ssh host: the wrapper
        if head not in PASSWORD_CHECK_HEADS:
            continue
        why = _why(segment, head, [w.value for w in segment.words[start + 1:end]])
        if why is not None:
            return Finding(DENY, "credential-store", f"{segment.text!r}: {why}")
    return None
