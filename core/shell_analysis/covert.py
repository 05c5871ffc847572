r"""Covert moves: hiding the session's traces, listening to traffic, side channels.

MITRE ATT&CK techniques as Atomic Red Team exercises them on Linux
(redcanaryco/atomic-red-team, ``atomics/*/*.yaml``): T1070.003/T1562.003 (history),
T1056.001 (``PROMPT_COMMAND`` keyloggers), T1040 (network sniffing), T1048 (exfiltration
in DNS names), T1036/T1204 (programs run from a temporary directory).

| rule          | fires when                                                       | verdict   |
| ------------- | ---------------------------------------------------------------- | --------- |
| history       | a history variable set (``HISTFILE``, ``HISTSIZE=0``,            | ask       |
|               | ``HISTCONTROL``…), ``set +o history``, ``unset HISTFILE``        |           |
| environment   | a variable statement that loads a library or names code to run  | as judged |
|               | (``PROMPT_COMMAND='…'``, ``export LD_PRELOAD=/tmp/x.so``):        |           |
|               | the same rule as a command's ``NAME=value`` prefix               |           |
| sniffing      | a packet capture (``tcpdump``, ``tshark``, ``dumpcap``, ``ngrep``…)| ask      |
| exfiltration  | a DNS lookup of a name built at run time (``dig $(… | base64).x``)| ask       |
| temp-program  | a program run from ``/tmp``, ``/var/tmp`` or ``/dev/shm``, or     | ask       |
|               | hidden under ``/dev`` (``/dev/.lib/x``: ossec's rootkit files)     |           |
| hijack        | a shell function or alias named after a command (``git() {…}``,  | ask; deny |
|               | ``alias sudo=…``); one whose body reaches the network is denied | if it     |
|               | (Elastic's shell-function hijack rules)                          | sends     |
| obfuscated    | a substitution that decodes (``$(xxd -r -p <<< …)``, ``$(echo -e   | ask       |
|               | "\\x2f…")``, ``base64 -d``), a variable set in ANSI-C escapes   |           |
|               | (PayloadsAllTheThings, Command Injection filter bypasses)        |           |
| obfuscated    | decoded output written to a file the same command then runs     | ask       |
|               | (``echo … | base64 -d > run.sh && bash run.sh``; T1027, T1140)   |           |
| masquerade    | an installed program copied or linked under another name that   | ask       |
|               | the same command then runs (``cp /bin/sh ./crond && ./crond``;   |           |
|               | T1036.003), or run with another ``argv[0]`` (``exec -a``)         |           |
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.launchers import assignment_finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment

__all__ = [
    "COVERT_HEADS",
    "DECODERS",
    "TEMP_DIRS",
    "assignments_finding",
    "covert_finding",
    "decoded_script_finding",
    "decoded_word_finding",
    "hijack_finding",
    "masquerade_finding",
]

_HISTORY = frozenset({"HISTFILE", "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "HISTIGNORE"})
_SNIFFERS = frozenset({"tcpdump", "tshark", "dumpcap", "ngrep", "tcpflow", "ettercap",
                       "bettercap", "sniff", "termshark"})
_RESOLVERS = frozenset({"dig", "nslookup", "host", "drill", "resolvectl", "kdig"})
TEMP_DIRS = ("/tmp/", "/var/tmp/", "/dev/shm/", "/run/shm/")
"""Directories any user may write: a program run from one may have been dropped there
(``/run/shm`` is ``/dev/shm``'s other mount point: tracee's fileless-execution detector
watches both)."""

_DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "openssl", "uudecode", "rev",
                       "echo", "printf", "gzip", "zcat", "gunzip"})
_ESCAPES = re.compile(r"\\(?:x[0-9a-fA-F]|[0-7]{2,3}|u[0-9a-fA-F])")
_ANSI_C = re.compile(r"\$'[^']*\\(?:x[0-9a-fA-F]|[0-7]|u[0-9a-fA-F])")

COVERT_HEADS: frozenset[str] = _SNIFFERS | _RESOLVERS | {"set", "unset"}
"""Command names :func:`covert_finding` looks at (besides programs run from temp dirs)."""


def assignments_finding(analysis: CommandAnalysis,
                        shell_judge: Callable[[str], Finding | None]) -> Finding | None:
    """Judge the variable statements of a command (no command follows them).

    :param analysis: the analysed command.
    :param shell_judge: judges one string as shell text.
    :returns: the strictest finding, or ``None``.
    """
    found: Finding | None = None
    for name, word in analysis.assignments:
        if _ANSI_C.search(word.source):
            found = found or Finding(ASK, "obfuscated", f"{name}={word.source} is spelled in "
                                     "escapes to hide its value")
        if name in _HISTORY:
            found = found or Finding(ASK, "history", f"{name}= changes what the shell history "
                                     "records")
            continue
        judged = assignment_finding(name, word.value, shell_judge)
        if judged is not None and (found is None or judged.verdict == "deny"):
            found = judged
        if found is not None and found.verdict == "deny":
            return found
    return found


def _decodes(segment: Segment) -> bool:
    name = segment.command
    args = [w.value for w in segment.words[segment.command_positions[-1] + 1 :]]
    flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    if name in ("base64", "base32", "basenc"):
        return "d" in flags or "--decode" in args
    if name == "xxd":
        return "r" in flags
    if name == "openssl":
        return "-d" in args or ("-base64" in args and "-d" in args)
    if name in ("echo", "printf"):
        return any(_ESCAPES.search(a) for a in args) and (name == "printf" or "e" in flags)
    return name in ("uudecode", "rev", "zcat", "gunzip") or (name == "gzip" and "d" in flags)


_SHADOWED = frozenset({
    "git", "ssh", "scp", "sudo", "su", "ls", "cd", "cat", "curl", "wget", "npm", "npx", "pip",
    "pip3", "python", "python3", "node", "docker", "kubectl", "make", "rm", "cp", "mv", "echo",
    "grep", "find", "gh", "aws", "gcloud", "az", "terraform", "go", "cargo", "yarn", "pnpm",
    "bash", "sh", "gpg", "passwd", "ps", "kill", "exit", "command", "builtin", "source", "pwd",
    "test", "true", "false", "pytest", "uv", "poetry", "java", "mvn", "gradle",
})


def hijack_finding(analysis: CommandAnalysis, senders: frozenset[str]) -> Finding | None:
    """Judge shell functions and aliases named after a command: they hijack it.

    ``git() { command git "$@"; curl -d "$*" …; }`` runs whenever the session types ``git``.
    One that sends anything over the network is denied, any other asks.

    :param analysis: the analysed command.
    :param senders: the command names that reach the network.
    :returns: the finding, or ``None``.
    """
    names = [n for n in analysis.functions if n in _SHADOWED]
    for segment in analysis.segments:
        if segment.command == "alias" and segment.command_positions:
            names += [w.value.partition("=")[0] for w in segment.words[1:]
                      if w.value.partition("=")[0] in _SHADOWED and "=" in w.value]
    if not names:
        return None
    if any(s.command in senders for s in analysis.segments if s.origin in ("function", "alias")):
        return Finding(DENY, "hijack", f"a shell function or alias named {names[0]!r} sends "
                       "data out whenever it is used")
    return Finding(ASK, "hijack", f"a shell function or alias takes the name {names[0]!r}")


def decoded_word_finding(analysis: CommandAnalysis) -> Finding | None:
    r"""Ask when a substitution decodes a word of the command: it is hidden until run time.

    ``cat $(xxd -r -p <<< 2f65…)``, ``cat `echo -e "\x2f…"```, ``$(base64 -d <<< …)``. A
    process substitution's output is a file's content, never a word (``diff <(zcat a.gz)
    <(zcat b.gz)``); a shell that runs it is :func:`decoded_script_finding`'s.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    for segment in analysis.segments:
        if segment.origin == "substitution" and (
                segment.command_positions and segment.command in _DECODERS and _decodes(segment)):
            return Finding(ASK, "obfuscated", f"{segment.text!r} decodes a word of the command "
                           "at run time")
    return None


DECODERS: frozenset[str] = _DECODERS
"""Command names that may decode (what :func:`decoded_script_finding` needs to see)."""

_SCRIPT_RUNNERS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "source", ".", "python",
                             "python3", "perl", "ruby", "node", "php"})


def decoded_script_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask when decoded output is written to a file that the same command runs.

    ``echo … | base64 -d > run.sh && bash run.sh``: the script is hidden until run time, as
    with ``base64 -d | sh``.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    if not any(s.command_positions and s.command in _DECODERS and _decodes(s)
               for s in analysis.segments):
        return None
    targets = {t.removeprefix("./") for t in analysis.redirect_targets}
    for segment in analysis.segments:
        if not segment.command_positions:
            continue
        word = segment.words[segment.command_positions[-1]].value
        program = word.removeprefix("./") if word.startswith("./") else None
        operands = [a.removeprefix("./") for a in segment.argv[1:] if not a.startswith("-")]
        if program in targets or (segment.command in _SCRIPT_RUNNERS
                                  and operands[:1] and operands[0] in targets):
            return Finding(ASK, "obfuscated", f"{segment.text!r} runs a script the command "
                           "decoded into a file")
    return None


def covert_finding(segment: Segment) -> Finding | None:
    """Ask about a segment that hides the session, listens to traffic or runs from /tmp.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    name = segment.command
    words = segment.words[segment.command_positions[-1] + 1 :]
    values = [w.value for w in words]
    if name == "set" and any(v == "+o" for v in values) and "history" in values:
        return Finding(ASK, "history", f"{segment.text!r} stops the shell history")
    if name == "unset" and _HISTORY.intersection(values):
        return Finding(ASK, "history", f"{segment.text!r} stops the shell history")
    if name in _SNIFFERS:
        return Finding(ASK, "sniffing", f"{segment.text!r} captures network traffic")
    if name in _RESOLVERS and any(w.dynamic and not w.value.startswith("@") for w in words):
        return Finding(ASK, "exfiltration", f"{segment.text!r} looks up a name built at run "
                       "time (data can leave in DNS queries)")
    program = segment.words[segment.command_positions[-1]]
    if program.stable and program.value.startswith(TEMP_DIRS):
        return Finding(ASK, "temp-program", f"{segment.text!r} runs a program from a "
                       "temporary directory")
    if program.stable and program.value.startswith("/dev/"):  # ossec-rootkit's /dev/.lib/…
        return Finding(ASK, "temp-program", f"{segment.text!r} runs a program hidden among "
                       "the devices")
    return None


_COPY_HEADS = frozenset({"cp", "ln", "install", "rsync"})
_SYSTEM_BIN = re.compile(r"^/(?:usr/)?(?:local/)?s?bin/[^/]+$")


def masquerade_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask when an installed program runs under a name of the command's choosing.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    copies: dict[str, str] = {}
    for segment in analysis.segments:
        argv = segment.argv
        if segment.command in _COPY_HEADS:
            operands = [a for a in argv[1:] if not a.startswith("-")]
            if len(operands) == 2 and _SYSTEM_BIN.match(operands[0]):
                copies[operands[1].removeprefix("./")] = operands[0]
        elif any(segment.words[p].value == "exec" and segment.words[p + 1 : p + 2]
                 and segment.words[p + 1].value == "-a" for p in segment.command_positions):
            return Finding(ASK, "masquerade", f"{segment.text!r} runs a program under "
                           "another name")
        elif argv and segment.command_positions:
            ran = segment.words[segment.command_positions[-1]].value.removeprefix("./")
            source = copies.get(ran)
            if source is not None and ran.rsplit("/", 1)[-1] != source.rsplit("/", 1)[-1]:
                return Finding(ASK, "masquerade", f"{segment.text!r} runs {source} under "
                               f"the name {ran!r}")
    return None
