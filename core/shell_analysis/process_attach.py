"""Attaching to a running process: it reads the process' memory, so a person says yes.

A debugger or tracer attached to a process sees everything it holds (tokens, keys,
decrypted data) and can change what it does; the agent's own programs are started under
the tool (``gdb --args ./app``, ``strace ./app``), not attached to. Asks (rule
``process-attach``; ``gcore``, a core dump of a process, is denied elsewhere):

=============================  ===========================================================
command                        attaches with (each tool's manual)
=============================  ===========================================================
``gdb``                        ``-p``/``--pid``, ``PROGRAM PID``, ``-ex 'attach N'``
``lldb``                       ``-p``/``--attach-pid``, ``-n``/``--attach-name``
``strace``, ``ltrace``         ``-p``/``--attach``
``perf``                       ``-p``/``--pid`` (``record``, ``trace``, ``top``, ``stat``)
``py-spy``, ``rbspy``          ``-p``/``--pid``
``bpftrace``                   ``-p``
``dotnet-dump``/``-trace``     ``-p``/``--process-id``
``memray``                     ``attach``
``jstack``, ``jmap``,          a process id operand (the JVM attach API)
``jcmd``, ``jinfo``, ``eu-stack``, ``pstack``, ``reptyr``
=============================  ===========================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["ATTACH_HEADS", "attach_finding"]

_PID_OPTIONS: dict[str, frozenset[str]] = {
    "gdb": frozenset({"-p", "--pid"}),
    "lldb": frozenset({"-p", "--attach-pid", "-n", "--attach-name"}),
    "strace": frozenset({"-p", "--attach"}), "ltrace": frozenset({"-p"}),
    "perf": frozenset({"-p", "--pid"}),
    "py-spy": frozenset({"-p", "--pid"}), "rbspy": frozenset({"-p", "--pid"}),
    "bpftrace": frozenset({"-p"}),
    "dotnet-dump": frozenset({"-p", "--process-id"}),
    "dotnet-trace": frozenset({"-p", "--process-id"}),
    "eu-stack": frozenset({"-p", "--pid"}),
}
_PID_OPERAND = frozenset({"jstack", "jmap", "jcmd", "jinfo", "pstack", "reptyr", "gstack"})

ATTACH_HEADS: frozenset[str] = frozenset(_PID_OPTIONS) | _PID_OPERAND | {"memray"}
"""Command names :func:`attach_finding` looks at."""


def _by_option(args: Sequence[str], options: frozenset[str]) -> bool:
    for arg in args:
        name = arg.partition("=")[0]
        if name in options:
            return True
        short = [o for o in options if len(o) == 2]
        if any(arg.startswith(o) and arg[2:].isdigit() for o in short):
            return True  # -p1234
    return False


def _gdb_attaches(args: Sequence[str]) -> bool:
    operands = [a for a, before in zip(args, ("", *args), strict=False)
                if not a.startswith("-") and before not in ("-ex", "--eval-command", "-x")]
    if len(operands) >= 2 and operands[1].isdigit():
        return True  # gdb PROGRAM PID
    return any(before in ("-ex", "--eval-command") and a.strip().startswith("attach")
               for a, before in zip(args, ("", *args), strict=False))


def attach_finding(segment: Segment) -> Finding | None:
    """Ask for a command that attaches to a running process.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if head in _PID_OPTIONS and _by_option(args, _PID_OPTIONS[head]):
        attached = True
    elif head == "gdb":
        attached = _gdb_attaches(args)
    elif head == "memray":
        attached = args[:1] == ["attach"]
    else:
        attached = head in _PID_OPERAND and any(a.isdigit() for a in args)
    if not attached:
        return None
    return Finding(ASK, "process-attach", f"{segment.text!r} attaches to a running process "
                   "(it reads the process' memory)")
