r"""What one call is tagged with: the risky kinds of action the risk chain adds up.

=================  ======  ===================================================================
tag                weight  when
=================  ======  ===================================================================
network_egress     0.4     an egress tool (``fetch``, ``web_scrape``), or a shell command with
                           curl, wget, nc, ncat, netcat, socat, telnet, ftp, ssh, scp, sftp or
                           rsync at a command position (wrappers peeled, quotes undone), or a
                           redirection to ``/dev/tcp`` / ``/dev/udp``
sensitive_read     0.3     ``/etc/passwd``, ``/etc/shadow``, ``/.ssh/`` or ``.env`` in the input
credential_access  0.3     only without sensitive_read: api_key, secret_key, access_key,
                           private_key, auth_token, access_token, bearer_token, api_token,
                           ``_secret``, password, passwd, credential, ``.pem``, ``.key``,
                           id_rsa, id_ecdsa, id_ed25519 in the input
system_write       0.4     a shell command writing under ``/etc``, ``/usr``, ``/sys`` or ``/boot``
                           (redirections, ``tee``, ``cp``/``mv`` targets, ``sed -i``…)
process_control    0.2     kill, pkill or killall at a command position
=================  ======  ===================================================================

The input is the call's main text (the command, the path), matched lowercase; for shell
commands also after Zeph's de-obfuscation (``c'a't /etc/pass""wd``) and with every quote and
backslash removed. Command positions come from the shared shell analyzer, which runs only when
one of those texts mentions a command name or system directory above: a command that names none
of them, however quoted or escaped, cannot run one. What the analyzer cannot resolve (``$cmd``,
globbed command words) is not tagged; the shell gate asks about such commands anyway.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

from tooldeck.shell_analysis import analyze, deobfuscate

__all__ = ["Tag", "shell_tags", "text_tags"]


class Tag(enum.Enum):
    """A kind of risky action, with its weight in hundredths of a point."""

    NETWORK_EGRESS = ("network_egress", 40)
    SENSITIVE_READ = ("sensitive_read", 30)
    CREDENTIAL_ACCESS = ("credential_access", 30)
    SYSTEM_WRITE = ("system_write", 40)
    PROCESS_CONTROL = ("process_control", 20)

    @property
    def label(self) -> str:
        """The tag's name as messages show it, e.g. ``network_egress``."""
        return self.value[0]

    @property
    def weight(self) -> int:
        """The tag's weight, in hundredths (``40`` is 0.4)."""
        return self.value[1]


EGRESS_COMMANDS = frozenset({
    "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "ssh", "scp", "sftp",
    "rsync",
})
"""Command names that send data over the network."""

PROCESS_COMMANDS = frozenset({"kill", "pkill", "killall"})
"""Command names that signal other processes."""

SENSITIVE_MARKERS = ("/etc/passwd", "/etc/shadow", "/.ssh/", ".env")
"""Substrings of inputs that read sensitive files."""

CREDENTIAL_MARKERS = (
    "api_key", "secret_key", "access_key", "private_key", "auth_token", "access_token",
    "bearer_token", "api_token", "_secret", "password", "passwd", "credential", ".pem", ".key",
    "id_rsa", "id_ecdsa", "id_ed25519",
)
"""Substrings of inputs that touch credentials."""

SYSTEM_DIRS = ("/etc/", "/usr/", "/sys/", "/boot/")
"""Directories a write into is a system write."""


def _any_of(markers: Iterable[str]) -> re.Pattern[str]:
    """One search for several literal markers (fixed, escaped: linear in the input)."""
    return re.compile("|".join(re.escape(marker) for marker in markers))


_SENSITIVE = _any_of(SENSITIVE_MARKERS)
_CREDENTIAL = _any_of(CREDENTIAL_MARKERS)
_SYSTEM_REDIRECT = re.compile(r">>?[ \t]*/(?:etc|usr|sys|boot)/")
_ANALYSIS_TRIGGER = _any_of(
    (*EGRESS_COMMANDS, *PROCESS_COMMANDS, "/dev/tcp", "/dev/udp", *SYSTEM_DIRS)
)
_UNQUOTE = str.maketrans("", "", "\\'\"")


def text_tags(text: str) -> frozenset[Tag]:
    """The content tags of a non-shell input (a path, a pattern): sensitive read or credential.

    :param text: the call's main input.
    :returns: the tags, possibly none.
    """
    lowered = text.lower()
    if _SENSITIVE.search(lowered):
        return frozenset({Tag.SENSITIVE_READ})
    if _CREDENTIAL.search(lowered):
        return frozenset({Tag.CREDENTIAL_ACCESS})
    return frozenset()


def _under_system_dir(path: str) -> bool:
    return any(path.startswith(d) or path == d.rstrip("/") for d in SYSTEM_DIRS)


def shell_tags(command: str, *, extra_wrappers: Iterable[str] = ()) -> frozenset[Tag]:
    """The tags of a shell command.

    :param command: the command as the agent sent it.
    :param extra_wrappers: operator-declared wrappers (``[tools.shell] extra_wrappers``).
    :returns: the tags, possibly none.
    """
    normalised = deobfuscate(command).lower()
    # the three spellings in one string; no marker contains the NUL that separates them
    text = "\0".join((command.lower(), normalised, normalised.translate(_UNQUOTE)))
    tags: set[Tag] = set(text_tags(text))
    if _SYSTEM_REDIRECT.search(text):
        tags.add(Tag.SYSTEM_WRITE)
    if not _ANALYSIS_TRIGGER.search(text):
        return frozenset(tags)
    analysis = analyze(command, extra_wrappers=extra_wrappers)
    if analysis.network_redirects:
        tags.add(Tag.NETWORK_EGRESS)
    if any(_under_system_dir(target) for target in analysis.write_targets):
        tags.add(Tag.SYSTEM_WRITE)
    for segment in analysis.segments:
        names = {*segment.wrappers, segment.command}
        if names & EGRESS_COMMANDS:
            tags.add(Tag.NETWORK_EGRESS)
        if names & PROCESS_COMMANDS:
            tags.add(Tag.PROCESS_CONTROL)
    return frozenset(tags)
