"""macOS's own system tools: the machine's defences, settings and accounts changed.

Written from LOOBins (infosecB/LOOBins, macOS living-off-the-land binaries) and each tool's
manual page. Every change here is machine-wide and denied; the read-only forms the manuals
document (a status, a listing, one value read) stay allowed.

| tool                     | denied when                                        | rule        |
| ------------------------ | -------------------------------------------------- | ----------- |
| csrutil                  | ``disable``, ``enable``, ``clear``, ``netboot add`` | power       |
|                          | (System Integrity Protection; ``status`` reads)    |             |
| spctl                    | ``--master-disable``, ``--global-disable``,        | power       |
|                          | ``--add``, ``--remove``… (Gatekeeper; ``--status``, |             |
|                          | ``--assess`` read)                                 |             |
| tccutil                  | ``reset`` (the privacy permissions database)       | power       |
| nvram                    | a ``name=value``, ``-d``, ``-c``, ``-f`` (firmware) | power       |
| log                      | ``erase``, ``config`` (the unified log deleted or  | power       |
|                          | silenced; ``show``, ``stream`` read)               |             |
| networksetup, systemsetup| an option that sets, creates, removes or switches  | power       |
|                          | (``-setwebproxy``, ``-setremotelogin``; ``-get*``,  |             |
|                          | ``-list*`` read)                                   |             |
| profiles                 | ``install``, ``remove``, ``renew``, ``-I``, ``-R``  | power       |
| sfltool                  | any verb but ``dumpbtm`` (background items reset)  | power       |
| tmutil                   | ``disable``, ``delete``, ``deletelocalsnapshots``… | power       |
| softwareupdate           | ``--schedule``, ``--ignore``, ``--install``        | power       |
| dsconfigad               | anything but ``-show`` (the directory binding)     | power       |
| safaridriver             | ``--enable`` (remote automation of the browser)    | power       |
| socketfilterfw           | ``--set*``, ``--add``, ``--remove``, ``--block``…   | power       |
|                          | (the application firewall; ``--get*`` reads)       |             |
| kextload, kextunload,    | always; ``kmutil load|unload`` (kernel extensions) | power       |
| diskutil                 | any verb but ``list``, ``info``, ``activity``,      | power       |
|                          | ``verify*``, ``apfs list…`` (disks erased,         |             |
|                          | partitioned, resized, mounted)                     |             |
| scutil                   | ``--set`` (the machine's names; ``--get``, ``--dns``| power       |
|                          | read)                                              |             |
| pluginkit                | ``-e``, ``-a``, ``-r`` (an app extension enabled,  | persistence |
|                          | added or removed: Elastic's Finder Sync plugin     |             |
|                          | rule; ``-m`` lists)                                |             |
| security                 | ``add-trusted-cert`` (a root certificate),         | power       |
|                          | ``authorizationdb write``                          |             |
| sysadminctl              | anything but a ``status`` query (accounts, the     | escalation  |
|                          | guest account, secure tokens)                      |             |
| dsenableroot             | always (the root account enabled or disabled:      | escalation  |
|                          | Elastic's persistence_enable_root_account)         |             |
| dscl, dseditgroup        | a write verb (``-create``, ``-append``,            | escalation  |
|                          | ``-passwd``, ``-delete``; ``dseditgroup -o edit``)  |             |
| dscl                     | a read of ``ShadowHashData`` (password hashes)     | credential- |
|                          |                                                    | store       |
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment, command_name

__all__ = ["MACOS_HEADS", "macos_state_finding"]


def _verbs(args: Sequence[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _first_verb(verbs: frozenset[str]) -> Callable[[Sequence[str]], bool]:
    return lambda args: bool(_verbs(args)[:1]) and _verbs(args)[0].lower() in verbs


def _any_option(prefixes: tuple[str, ...]) -> Callable[[Sequence[str]], bool]:
    return lambda args: any(a.lower().startswith(prefixes) for a in args)


_SPCTL_CHANGES = ("--master-disable", "--master-enable", "--global-disable",
                  "--global-enable", "--add", "--remove", "--enable", "--disable",
                  "--reset-default")
_NETWORK_SETS = ("-set", "-create", "-delete", "-remove", "-add", "-switchto", "-order",
                 "-import", "-detectnewhardware")
_TMUTIL_CHANGES = frozenset({"disable", "disablelocal", "delete", "deletelocalsnapshots",
                             "thinlocalsnapshots", "removedestination", "setdestination",
                             "addexclusion", "deleteinprogress", "setquota"})

_DISKUTIL_READS = frozenset({"list", "info", "information", "activity", "listFilesystems",
                             "verifyVolume", "verifyDisk", "verifyPermissions", "help", "image"})
"""diskutil(8) verbs that read; the rest erase, partition, resize, mount or repair disks."""
_POWER: dict[str, Callable[[Sequence[str]], bool]] = {
    "csrutil": lambda args: bool({"disable", "enable", "clear", "add", "remove"}
                                 & {a.lower() for a in args}),
    "spctl": lambda args: _any_option(_SPCTL_CHANGES)(args) or (
        "kext-consent" in args and bool({"add", "remove", "enable", "disable"} & set(args))),
    "tccutil": _first_verb(frozenset({"reset"})),
    "nvram": lambda args: any("=" in a for a in _verbs(args)) or bool(
        {"-d", "-c", "-f"} & set(args)),
    "log": _first_verb(frozenset({"erase", "config"})),
    "networksetup": _any_option(_NETWORK_SETS),
    "systemsetup": _any_option(("-set",)),
    "profiles": lambda args: _first_verb(frozenset({"install", "remove", "renew"}))(args) or (
        bool({"-I", "-R", "-D"} & set(args))),
    "sfltool": lambda args: bool(_verbs(args)) and not _verbs(args)[0].startswith("dump"),
    "tmutil": _first_verb(_TMUTIL_CHANGES),
    "softwareupdate": _any_option(("--schedule", "--ignore", "--install", "-i",
                                   "--reset-ignored", "--background")),
    "dsconfigad": lambda args: any(a.startswith("-") and a != "-show" for a in args),
    "safaridriver": _any_option(("--enable",)),
    "socketfilterfw": _any_option(("--set", "--add", "--remove", "--block", "--unblock")),
    "kextload": lambda args: True, "kextunload": lambda args: True,
    "diskutil": lambda args: bool(_verbs(args)) and _verbs(args)[0] not in _DISKUTIL_READS and (
        _verbs(args)[:2] not in (["apfs", "list"], ["cs", "list"], ["apfs", "listCryptoUsers"],
                                 ["apfs", "listSnapshots"], ["apfs", "listVolumeGroups"])),
    "scutil": _any_option(("--set",)),
    "kmutil": _first_verb(frozenset({"load", "unload"})),
    "security": lambda args: _verbs(args)[:1] == ["add-trusted-cert"] or (
        _verbs(args)[:2] == ["authorizationdb", "write"]),
}
"""Per tool, whether its arguments change the machine (rule ``power``)."""

_PERSISTENCE: dict[str, Callable[[Sequence[str]], bool]] = {
    "pluginkit": lambda args: bool({"-e", "-a", "-r"} & set(args)),
}
"""Per tool, whether its arguments install something that runs by itself later (rule
``persistence``)."""

_DSCL_WRITES = frozenset({"create", "append", "merge", "delete", "passwd", "change",
                          "changei", "createpl", "appendpl", "mergepl", "deletepl"})

_ACCOUNTS: dict[str, Callable[[Sequence[str]], bool]] = {
    "sysadminctl": lambda args: not any(a in ("status", "-secureTokenStatus") for a in args),
    "dsenableroot": lambda args: True,
    "dscl": lambda args: any(a.lower().lstrip("-") in _DSCL_WRITES for a in args),
    "dseditgroup": lambda args: any(b in ("edit", "create", "delete")
                                    for a, b in itertools.pairwise(args) if a == "-o"),
}
"""Per tool, whether its arguments change an account or a group (rule ``escalation``)."""

MACOS_HEADS: frozenset[str] = frozenset(_POWER) | frozenset(_ACCOUNTS) | frozenset(_PERSISTENCE)
"""Command names :func:`macos_state_finding` looks at."""


def macos_state_finding(segment: Segment) -> Finding | None:
    """Deny a macOS system tool changing the machine, an account, or reading password hashes.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for position in segment.command_positions:
        head = command_name(segment.words[position].value)
        if head not in MACOS_HEADS:
            continue
        args = [w.value for w in segment.words[position + 1 :]]
        if head in _POWER and _POWER[head](args):
            return Finding(DENY, "power", f"{segment.text!r} changes machine-wide state "
                           f"({head})")
        if head in _PERSISTENCE and _PERSISTENCE[head](args):
            return Finding(DENY, "persistence", f"{segment.text!r} enables code that runs by "
                           f"itself later ({head})")
        if head in _ACCOUNTS and _ACCOUNTS[head](args):
            return Finding(DENY, "escalation", f"{segment.text!r} changes an account or a "
                           f"group ({head})")
        if head == "dscl" and any("shadowhashdata" in a.lower() for a in args):
            return Finding(DENY, "credential-store", f"{segment.text!r} reads password "
                           "hashes")
    return None
