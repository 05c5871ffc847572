"""Commands that hand the machine to something nobody reviews: denied.

| class                  | commands (from each tool's own documentation)                     |
| ---------------------- | ----------------------------------------------------------------- |
| agent, approvals off   | ``claude --dangerously-skip-permissions`` / ``--permission-mode    |
|                        | bypassPermissions|auto``, ``codex --dangerously-bypass-approvals-and-   |
|                        | sandbox`` / ``--yolo`` / ``--sandbox danger-full-access``,         |
|                        | ``gemini``/``qwen`` ``--yolo`` / ``-y`` / ``--approval-mode yolo``, |
|                        | ``aider --yes-always``, ``amp --dangerously-allow-all``,           |
|                        | ``cursor-agent --force``, ``copilot --allow-all-tools``,           |
|                        | ``q``/``kiro-cli chat --trust-all-tools``,                         |
|                        | ``GOOSE_MODE=auto goose`` (the setting given to that one command)  |
| tunnel to a local port | ``cloudflared tunnel``, ``ngrok http|tcp|tls|start``, ``lt``,      |
|                        | ``localtunnel``, ``bore local``, ``frpc``, ``chisel client``,      |
|                        | ``tailscale funnel|serve``, ``code tunnel``, ``fzf --listen``,     |
|                        | ``stunnel`` (not ``-version``), ``ligolo-ng``, ``pivotnacci``,     |
|                        | DNS/ICMP/WebSocket channels (``iodine``, ``dnscat``, ``dns2tcpc``, |
|                        | ``hans``, ``ptunnel-ng``, ``wstunnel``, ``ssf``, ``3proxy``)       |
|                        | (GTFOBins ``upload``/``command``: a port that serves files or runs |
|                        | actions)                                                           |
| remote control         | ``rustdesk --password|--config``, ``anydesk --set-password``,     |
|                        | ``teamviewer passwd|setup|assign``, ``zerotier-cli join``,        |
|                        | ``tailscale up|set --ssh``, ``nezha-agent``, ``meshagent``        |
| port forwarding        | ``ssh``/``autossh`` ``-R``/``-L``/``-D``/``-w`` or ``-o             |
|                        | RemoteForward|LocalForward|DynamicForward|Tunnel=…`` (a listener or |
|                        | a proxy into networks nobody reviews)                             |
| the shell's own socket | ``zmodload zsh/net/tcp`` or ``zsh/net/socket``, ``ztcp``,          |
|                        | ``zsocket`` (zsh's counterpart of ``/dev/tcp``)                    |
| a CI runner registered | ``gitlab-runner register|install|start|run``, GitHub's runner      |
|                        | ``config.sh --url … --token …`` and ``svc.sh install`` (the       |
|                        | machine takes a remote CI's jobs: Shai-Hulud 2.0's self-hosted    |
|                        | runner), also run through a shell (``bash config.sh …``)          |
| tooldeck's own policy  | ``tooldeck config trust`` (a project file trusted by its content),|
|                        | ``tooldeck trust set|reset``, ``tooldeck approvals approve|deny``: |
|                        | the agent vouching for itself                                      |
| system packages        | ``pip install --break-system-packages`` (the system's own         |
|                        | packages, PEP 668), ``gem install --system``                      |

A nested agent that keeps its approval prompts, a package installed into the project, and
``ngrok version`` stay allowed. A package installed for the user (``npm install -g``,
``pip install --user``) asks: :mod:`.program_installs`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.cloud_clis import operands as cloud_operands
from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment, command_name

__all__ = ["UNREVIEWED_HEADS", "unreviewed_finding"]

_AGENT_FLAGS: dict[str, tuple[str, ...]] = {
    "claude": ("--dangerously-skip-permissions", "--allow-dangerously-skip-permissions",
               "--permission-mode=bypasspermissions", "--permission-mode=auto"),
    "codex": ("--dangerously-bypass-approvals-and-sandbox", "--yolo",
              "--sandbox=danger-full-access", "-s=danger-full-access"),
    "gemini": ("--yolo", "-y", "--approval-mode=yolo"),
    "qwen": ("--yolo", "-y", "--approval-mode=yolo"),
    "aider": ("--yes-always",),
    "amp": ("--dangerously-allow-all",),
    "cursor-agent": ("--force", "-f"),
    "copilot": ("--allow-all-tools",),
    # Amazon Q Developer's CLI (now Kiro's): every tool trusted, as the Nx "s1ngularity"
    # postinstall ran it (GHSA-cxm3-wv7p-598c) next to claude and gemini with theirs off
    "q": ("--trust-all-tools",), "kiro-cli": ("--trust-all-tools",),
}
_AGENT_SETTINGS: dict[str, re.Pattern[str]] = {
    "goose": re.compile(r"(?:^|\s)GOOSE_MODE=[\"']?auto\b"),
}
"""Agents whose approvals an environment setting turns off, set for that one command
(goose's ``GOOSE_MODE=auto``: every tool call runs without asking)."""
_TUNNELS: dict[str, frozenset[str] | None] = {
    "cloudflared": frozenset({"tunnel"}),
    "ngrok": frozenset({"http", "tcp", "tls", "start"}),
    "lt": None, "localtunnel": None, "frpc": None,
    "bore": frozenset({"local"}),
    "chisel": frozenset({"client"}),
    "tailscale": frozenset({"funnel", "serve"}),
    "code": frozenset({"tunnel"}),
    "devtunnel": frozenset({"host"}),
    "gost": None, "tmate": None, "sshuttle": None, "rathole": None, "pinggy": None,
    # stunnel(8) listens or connects as its configuration says (auditd's susp_activity key)
    "stunnel": None, "stunnel4": None,
    # Datadog's default runtime policy (runtime/default.policy, tunnel_traffic): reverse
    # tunnels and pivots
    "ligolo-ng": None, "ligolo-proxy": None, "ligolo-agent": None, "pivotnacci": None,
    # covert channels over DNS, ICMP and WebSocket, and SOCKS pivots (Elastic's "Linux
    # Tunneling and/or Port Forwarding", rules/linux/command_and_control_linux_tunneling_and_
    # port_forwarding.toml @ 14cf530f0d21, and its ProxyChains rule; each tool's README)
    # more tunnel services (each one's documentation: LocalXpose's loclx, zrok, NetBird's
    # netbird up with a setup key, PiTunnel)
    "loclx": frozenset({"tunnel"}), "zrok": frozenset({"share", "reserve"}),
    "netbird": frozenset({"up", "login"}), "pitunnel": None,
    "iodine": None, "iodined": None, "dnscat": None, "dnscat2": None, "dns2tcpc": None,
    "dns2tcpd": None, "hans": None, "hans-ubuntu": None, "ptunnel": None, "ptunnel-ng": None,
    "ssf": None, "ssfd": None, "3proxy": None, "wstunnel": None, "icmptunnel": None,
}
_REMOTE_CONTROL: dict[str, frozenset[str]] = {
    # remote-desktop and fleet agents set up to take this machine from elsewhere (each tool's
    # documentation: RustDesk's --password/--config, AnyDesk's --set-password, TeamViewer's
    # passwd/setup/assign, ZeroTier's join); nezha-agent reports to a panel that runs commands
    "rustdesk": frozenset({"--password", "--config", "--option", "--assign",
                           "--install-service", "--server"}),
    "anydesk": frozenset({"--set-password", "--install", "--silent"}),
    "teamviewer": frozenset({"passwd", "setup", "assign", "--passwd", "--setup"}),
    "zerotier-cli": frozenset({"join"}),
    "tailscale": frozenset({"--ssh", "--ssh=true"}),
}
_REMOTE_AGENTS = frozenset({"nezha-agent", "meshagent", "rport", "rportd"})
_TUNNEL_INFO = frozenset({"--version", "-version", "version", "--help", "-help", "-h", "help",
                          "-V", "-sockets", "-options"})
"""Options with which a tunnel program prints and exits (``stunnel -version``)."""
_ZSH_NET = frozenset({"zsh/net/tcp", "zsh/net/socket"})
_SSHES = frozenset({"ssh", "autossh"})
_FORWARD_LETTERS = frozenset("RLDw")
_FORWARD_SETTINGS = ("remoteforward", "localforward", "dynamicforward", "tunnel")
_SSH_VALUE_LETTERS = frozenset("bcDEeFIiJLlmOopQRSWw")

_SELF_APPROVALS: tuple[tuple[str, ...], ...] = (
    ("config", "trust"), ("trust", "set"), ("trust", "reset"), ("approvals", "approve"),
    ("approvals", "deny"))
"""tooldeck's own commands that loosen its policy or answer its prompts: an operator's, not
the agent's (docs/configuration.md ``config trust``, docs/trust.md, ``approvals``)."""
_SCRIPT_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})
"""Shells that run a script named as their first operand (``bash config.sh …``): the script
is judged as if run by its own name."""
_SCRIPTS = frozenset({"config.sh", "config.cmd", "svc.sh"})

UNREVIEWED_HEADS: frozenset[str] = (frozenset(_AGENT_FLAGS) | frozenset(_TUNNELS)
                                    | frozenset(_REMOTE_CONTROL) | _REMOTE_AGENTS
                                    | frozenset(_AGENT_SETTINGS) | _SSHES | {"fzf"}
                                    | frozenset({"zmodload", "ztcp", "zsocket", "pip", "pip3",
                                                 "gem", "gitlab-runner", "tooldeck"})
                                    | _SCRIPTS | _SCRIPT_SHELLS)
"""Command names :func:`unreviewed_finding` looks at."""


def _joined(args: Sequence[str]) -> list[str]:
    """Option words with their value glued on (``--sandbox x`` → ``--sandbox=x``), lowercase."""
    out: list[str] = []
    for index, arg in enumerate(args):
        lowered = arg.lower()
        out.append(lowered)
        if lowered.startswith("-") and "=" not in lowered and index + 1 < len(args):
            out.append(f"{lowered}={args[index + 1].lower()}")
    return out


def _forwarding(args: Sequence[str]) -> str | None:
    """The ssh option that forwards a port or a tunnel (``-R``, ``-NfL``, ``-o``), if any.

    Options may stand before and right after the destination (OpenSSH reads both); the
    next plain word starts the remote command.
    """
    index = 0
    destination = False
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--" or (not arg.startswith("-") and destination):
            return None
        if not arg.startswith("-"):
            destination = True
            continue
        if arg.startswith("--"):
            continue
        for position, letter in enumerate(arg[1:], start=1):
            if letter in _FORWARD_LETTERS:
                return arg
            if letter in _SSH_VALUE_LETTERS:
                value = arg[position + 1 :]
                if not value and index < len(args):
                    value = args[index]
                    index += 1
                if letter == "o" and value.lower().replace(" ", "=").startswith(
                        _FORWARD_SETTINGS):
                    return f"-o {value}"
                break  # the rest of the word was that option's value
    return None


_RUNNER_VERBS = frozenset({"register", "install", "start", "run"})
"""gitlab-runner(1)'s commands that register this machine or serve a remote CI's jobs."""


def _ci_runner(head: str, args: Sequence[str], words: Sequence[str]) -> bool:
    """A CI runner registered or installed as a service (each runner's documentation)."""
    if head == "gitlab-runner":
        return bool(_RUNNER_VERBS.intersection(words[:1]))
    if head in ("config.sh", "config.cmd"):  # actions/runner: ./config.sh --url R --token T
        return any(a.startswith("--url") for a in args) and any(
            a.startswith("--token") for a in args)
    return head == "svc.sh" and words[:1] == ["install"]


def _reason(head: str, args: Sequence[str]) -> str | None:
    words = [a for a in args if not a.startswith("-")]
    if head == "tooldeck":
        words = cloud_operands(head, args)
        if any(tuple(words[:2]) == verbs for verbs in _SELF_APPROVALS):
            return f"loosens tooldeck's own policy ({' '.join(words[:2])}): an operator's command"
        return None
    if _ci_runner(head, args, words):
        return "registers this machine as a CI runner (a remote CI's jobs run here)"
    if head in _SSHES:
        forward = _forwarding(args)
        return None if forward is None else f"forwards a port or a tunnel ({forward})"
    if head == "fzf":
        listens = any(a.startswith("--listen") for a in args)
        return "takes actions to run from a network port (--listen)" if listens else None
    if head in _AGENT_FLAGS:
        flags = _AGENT_FLAGS[head]
        own = list(itertools.takewhile(lambda a: a != "--", args))
        if next((a for a in own if not a.startswith("-")), None) == "mcp":
            return None  # an MCP server registered, not a session (program_installs asks)
        if any(a in flags for a in _joined(own)):
            return f"runs the {head} agent with its approvals turned off"
        return None
    if head in _REMOTE_AGENTS and not (args and all(a in _TUNNEL_INFO for a in args)):
        return f"starts {head}, an agent a remote panel commands"
    if _REMOTE_CONTROL.get(head, frozenset()).intersection(a.partition("=")[0] if head != (
            "tailscale") else a for a in args):
        return f"sets {head} up so that this machine can be taken over from elsewhere"
    if head in _TUNNELS:
        verbs = _TUNNELS[head]
        if verbs is None and args and all(a in _TUNNEL_INFO for a in args):
            return None
        if verbs is None or verbs.intersection(words[:1]):
            return f"exposes a local port to the internet ({head})"
        return None
    if head in ("ztcp", "zsocket") or (head == "zmodload" and _ZSH_NET.intersection(args)):
        return "opens a network socket from the shell itself"
    if head in ("pip", "pip3") and words[:1] == ["install"] and (
            "--break-system-packages" in args):
        return "pip install --break-system-packages changes the system's own packages"
    if head == "gem" and words[:1] == ["install"] and "--system" in args:
        return "gem install --system changes the system's own gems"
    return None


def unreviewed_finding(segment: Segment) -> Finding | None:
    """Deny a segment that hands the machine to something nobody reviews, at any position.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for position in segment.command_positions:
        head = command_name(segment.words[position].value)
        if head not in UNREVIEWED_HEADS:
            continue
        args = [w.value for w in segment.words[position + 1 :]]
        if head in _SCRIPT_SHELLS and args and command_name(args[0]) in _SCRIPTS:
            head, args = command_name(args[0]), args[1:]  # bash config.sh --url … --token …
        reason = _reason(head, args)
        setting = _AGENT_SETTINGS.get(head)
        if reason is None and setting is not None and setting.search(segment.text):
            reason = f"runs the {head} agent with its approvals turned off"
        if reason is not None:
            return Finding(DENY, "unreviewed-access", f"{segment.text!r} {reason}")
    return None
