"""Shells opened in a container or a virtual machine: an interactive escape from the policy.

What a guest runs is judged like any launched command (the runners below are argv
launchers in :mod:`.launchers`: ``lxc exec c1 -- rm -rf /srv`` is judged as ``rm -rf /srv``);
a command that only *opens* a shell there hands the session to whatever comes next on its
input, which nobody sees. Each tool's manual names the entry that does so:

| command                                   | opens a shell when                           |
| ----------------------------------------- | -------------------------------------------- |
| ``multipass shell``, ``lxc shell``,       | always (the subcommand is the shell)         |
| ``incus shell``, ``toolbox enter``,       |                                              |
| ``lxc console``, ``incus console``,       |                                              |
| ``virsh console``, ``kubectl attach``     |                                              |
| ``poetry shell``, ``pipenv shell``,       | always (a project environment's shell on the |
| ``hatch shell``, ``pixi shell``,          | host: the same escape, policy21)             |
| ``devbox shell``                          |                                              |
| ``vagrant ssh``                           | without ``-c``/``--command``                 |
| ``distrobox enter``, ``lxc-attach``,      | without a command after ``--``               |
| ``limactl shell``                         | without a command after the instance name    |

Verdict: deny (rule ``launcher``), as ``docker exec -it web sh`` is.
"""

from __future__ import annotations

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["GUEST_HEADS", "guest_shell_finding"]

_ALWAYS: dict[str, frozenset[str]] = {
    "multipass": frozenset({"shell", "sh", "connect"}), "lxc": frozenset({"shell", "console"}),
    "incus": frozenset({"shell", "console"}), "toolbox": frozenset({"enter"}),
    "virsh": frozenset({"console"}), "kubectl": frozenset({"attach"}),
    "oc": frozenset({"attach", "rsh"}),
    **dict.fromkeys(("poetry", "pipenv", "hatch", "pixi", "devbox"), frozenset({"shell"})),
}
_DASHDASH: dict[str, str] = {"distrobox": "enter", "lxc-attach": "", "vagrant": "ssh"}
_VAGRANT_COMMAND = frozenset({"-c", "--command"})

GUEST_HEADS: frozenset[str] = frozenset(_ALWAYS) | frozenset(_DASHDASH) | {"limactl"}
"""Command names :func:`guest_shell_finding` looks at."""


def _opens_shell(head: str, args: list[str]) -> bool:
    operands = [a for a in args if not a.startswith("-")]
    if head in _ALWAYS and operands[:1] and operands[0] in _ALWAYS[head]:
        return head != "oc" or operands[0] != "rsh" or len(operands) <= 2
    if head == "vagrant":
        return operands[:1] == ["ssh"] and not (
            _VAGRANT_COMMAND.intersection(args) or any(a.startswith("--command=")
                                                       for a in args))
    if head in _DASHDASH:
        verb = _DASHDASH[head]
        if verb and operands[:1] != [verb]:
            return False
        return "--" not in args or args.index("--") == len(args) - 1
    if head == "limactl":  # limactl shell INSTANCE [COMMAND…]
        return operands[:1] == ["shell"] and len(operands) <= 2
    return False


def guest_shell_finding(segment: Segment) -> Finding | None:
    """Deny a command that opens a shell in a container or a virtual machine.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    argv = segment.argv
    if argv[0] not in GUEST_HEADS or not _opens_shell(argv[0], list(argv[1:])):
        return None
    return Finding(DENY, "launcher", f"{segment.text!r} opens a shell in a container or a "
                   "virtual machine (what it runs comes later, unseen)")
