"""Container commands: which path words name the container's filesystem, which escape it.

``docker run -v "$(pwd)":/wrk -w /wrk img`` names ``/wrk`` inside the container: it is not a
host path and the sandbox-path rule must not judge it. The host side of a bind mount (``-v
HOST:CONTAINER``, ``--mount src=HOST``) stays a host path, and so does an option's file
(``--env-file``).

A command run in a container is a remote command: ``docker exec web ls /app``, ``docker run
--rm alpine cat /etc/os-release``, ``docker compose exec web ls /srv`` and ``kubectl exec pod
-- cat /app/x`` name the container's files, not the host's; so do ``lxc|incus|multipass exec
NAME -- ls /srv``. The words after the container
(or image, or service; for ``kubectl``/``oc exec``, after ``--``) are container-side.

A container started with the host's privileges is an escalation (denied): ``--privileged``,
``--pid=host``, ``--cap-add=SYS_ADMIN|ALL``, ``--security-opt … unconfined``, ``--userns=host``,
a bind mount of ``/`` or of the Docker socket (``-v``, or ``--mount src=…``; ``ctr run`` too),
after the engine's global options as well (``nerdctl --namespace k8s.io run --privileged``,
``docker --context prod run …``: Elastic's "Suspicious Container Runtime CLI Arguments"). So
is a working directory under ``/proc`` (``docker run -w /proc/self/fd/8``, ``docker exec -w
…``): runc leaked a host directory's descriptor there, and a process starting in it walks
out to the host's root with ``../..`` (CVE-2024-21626, Snyk's "Leaky Vessels").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment

__all__ = ["ENGINES", "NODE_HEADS", "container_paths", "node_escape", "privileged_container",
           "runtime_socket"]

ENGINES: frozenset[str] = frozenset({"docker", "podman", "nerdctl", "ctr"})
"""Container engines whose ``run``/``create``/``exec`` options are understood here."""

_STARTERS = frozenset({"run", "create", "exec"})
_CONTAINER_SIDE = frozenset({"-w", "--workdir"})
_MOUNTS = frozenset({"-v", "--volume"})
_PRIVILEGED = ("--privileged", "--pid=host", "--userns=host", "--ipc=host", "--uts=host")
_DANGEROUS_CAPS = ("sys_admin", "all", "sys_ptrace", "sys_module", "dac_read_search")
_HOST_ROOT_MOUNTS = ("/:", "/var/run/docker.sock", "/run/docker.sock", "/proc:", "/sys:",
                     "/etc:", "/root:", "/home:")


_GLOBAL_FLAGS = frozenset({"-D", "--debug", "--tls", "--tlsverify", "--remote", "-r",
                           "--debug-full", "--experimental", "--insecure-registry"})
"""The engines' global options that take no value (``docker -D``, ``podman --remote``,
``nerdctl --debug-full``); every other global option takes the next word (``docker --context
prod``, ``nerdctl --namespace k8s.io``, ``podman --connection vm``: their reference pages)."""


def _subcommand(args: Sequence[str]) -> Sequence[str]:
    """The words from an engine's subcommand on, its global options skipped.

    ``nerdctl --namespace k8s.io run --privileged …`` and ``docker --context prod container
    run …`` both start a container: ``run`` is the subcommand, whatever comes before it.
    """
    index = 0
    while index < len(args) and args[index].startswith("-"):
        arg = args[index]
        index += 1 if "=" in arg or arg in _GLOBAL_FLAGS else 2
    rest = args[index:]
    return rest[1:] if rest and rest[0] == "container" else rest


def _starter(segment: Segment) -> Sequence[str] | None:
    if not segment.command_positions or segment.command not in ENGINES:
        return None
    args = segment.argv[1:]
    verb = _subcommand(args)[:1]
    return args if verb and verb[0] in _STARTERS else None


def _values(args: Sequence[str], options: frozenset[str]) -> list[str]:
    found = []
    for index, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if arg in options and index + 1 < len(args):
            found.append(args[index + 1])
        elif eq and name in options:
            found.append(value)
    return found


def _mount_sources(args: Sequence[str]) -> list[str]:
    """The host side of ``--mount type=bind,src=/,dst=/x`` (``source=`` too)."""
    found = []
    for mount in _values(args, frozenset({"--mount"})):
        for field in mount.split(","):
            key, eq, value = field.partition("=")
            if eq and key in ("src", "source"):
                found.append(value.rstrip("/") or "/")
    return found


_FLAGS = frozenset({
    "-d", "--detach", "-i", "--interactive", "-t", "--tty", "-T", "-P", "--publish-all",
    "--rm", "--init", "--privileged", "--read-only", "--no-healthcheck", "--oom-kill-disable",
    "-q", "--quiet", "--no-deps", "--service-ports", "--use-aliases", "--build",
    "--remove-orphans", "--no-TTY",
})
"""Options of ``run``/``exec`` (docker, podman, nerdctl, compose) that take no value; every
other option without ``=`` takes the next word (the engines' reference pages)."""
_SHORT_FLAGS = frozenset("dtiTPq")
_COMPOSE = frozenset({"docker-compose", "podman-compose"})
_KUBE_CLIS = frozenset({"kubectl", "oc"})


def _takes_no_value(arg: str) -> bool:
    if arg in _FLAGS or "=" in arg:
        return True
    return not arg.startswith("--") and len(arg) > 2 and set(arg[1:]) <= _SHORT_FLAGS


def _after_target(args: Sequence[str]) -> list[str]:
    """The words after the first operand (container, image or service): its command."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            return list(args[index + 2 :])
        if not arg.startswith("-") or arg == "-":
            return list(args[index + 1 :])
        index += 1 if _takes_no_value(arg) else 2
    return []


_GUEST_CLIS = frozenset({"lxc", "incus", "multipass"})
"""LXD, Incus and Multipass: ``exec NAME -- CMD`` runs CMD in the guest (their manuals)."""


def _remote_command(segment: Segment) -> list[str]:
    """The words of the command a segment runs in a container (none when it runs none)."""
    if not segment.command_positions:
        return []
    head, *args = segment.argv
    if head in _KUBE_CLIS or head in _GUEST_CLIS:
        return args[args.index("--") + 1 :] if args[:1] == ["exec"] and "--" in args else []
    rest = args
    if head in _COMPOSE or (head in ENGINES and args[:1] == ["compose"]):
        rest = args[1:] if head in ENGINES else args
        while rest and rest[0].startswith("-"):  # compose's own options (-f file, -p name)
            rest = rest[1:] if _takes_no_value(rest[0]) else rest[2:]
    elif head in ENGINES:
        rest = list(_subcommand(args))
    else:
        return []
    if rest[:1] not in (["exec"], ["run"], ["create"]):
        return []
    return _after_target(rest[1:])


def container_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """Path words that name a container's filesystem (a working dir, a mount's target, a command).

    :param analysis: the analysed command.
    :returns: words the sandbox-path rule does not judge.
    """
    found: set[str] = set()
    for segment in analysis.segments:
        found.update(_remote_command(segment))
        args = _starter(segment)
        if args is None:
            continue
        found.update(_values(args, _CONTAINER_SIDE))
        for mount in _values(args, _MOUNTS):
            parts = mount.split(":")
            if len(parts) >= 2:
                found.add(parts[1])
                found.add(":" + ":".join(parts[1:]))
    return frozenset(found)


_NODE_EXEC = frozenset({"exec", "run", "attach", "runp"})
_POD_ESCAPES = ('"privileged":true', '"hostpid":true', '"hostnetwork":true', '"hostipc":true',
                '"hostpath"', "privileged: true", "hostpid: true")
_KUBE_STARTERS = frozenset({"run", "create", "apply", "patch", "replace", "set"})


def node_escape(segment: Segment) -> Finding | None:
    """Deny a command that runs on a cluster node with the node's privileges.

    ``crictl exec|run|attach`` (the node's own container runtime), ``kubectl debug node/…``,
    a pod started or patched with ``privileged``, ``hostPID``, ``hostNetwork``, ``hostIPC``
    or a ``hostPath`` (``kubectl run --overrides='{…}'``), an LXD container made privileged.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    operands = [a for a in args if not a.startswith("-")]
    if head == "crictl" and _NODE_EXEC.intersection(operands[:1]):
        return Finding(DENY, "escalation", f"{segment.text!r} runs in a node's container")
    if head in ("kubectl", "oc"):
        if operands[:1] == ["debug"] and any(o.startswith("node/") for o in operands):
            return Finding(DENY, "escalation", f"{segment.text!r} opens a shell on a node")
        joined = " ".join(args).lower().replace(" ", "")
        if _KUBE_STARTERS.intersection(operands[:1]) and any(
                marker.replace(" ", "") in joined for marker in _POD_ESCAPES):
            return Finding(DENY, "escalation", f"{segment.text!r} starts a pod with the "
                           "node's privileges")
    if head == "lxc" and any("security.privileged" in a for a in args) and any(
            a.endswith("true") for a in args):
        return Finding(DENY, "escalation", f"{segment.text!r} makes a container privileged")
    return None


_RUNTIME_SOCKETS = re.compile(r"(?:docker|containerd|crio|podman|dockershim|kubelet)\.sock\b")
"""A runtime socket's file name (not systemd's ``docker.socket`` unit that listens on it)."""
_RUNTIME_CLIENTS = frozenset({"docker", "podman", "nerdctl", "docker-compose", "podman-compose"})
_LOOKS = frozenset({"ls", "stat", "file", "test", "[", "readlink", "realpath", "namei",
                    "getfacl", "lsattr", "find", "du", "echo", "printf", "grep"})


def runtime_socket(segment: Segment) -> Finding | None:
    """Deny a program other than the runtime's own CLI talking to a container runtime socket.

    ``curl --unix-socket /var/run/docker.sock …``, ``socat - UNIX-CONNECT:/var/run/docker.sock``,
    ``crictl --runtime-endpoint unix:///run/containerd/containerd.sock``: the socket is root on
    the host (GTFOBins' docker, HackTricks' abusing-docker-socket).

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions or segment.command in _RUNTIME_CLIENTS or (
            segment.command in _LOOKS):
        return None  # the runtime's own CLI, or a look at the socket file (ls -la, stat)
    for word in segment.words[segment.command_positions[-1] + 1 :]:
        if _RUNTIME_SOCKETS.search(word.value):
            return Finding(DENY, "escalation", f"{segment.text!r} talks to a container "
                           "runtime's socket (root on the host)")
    return None


NODE_HEADS: frozenset[str] = frozenset({"crictl", "kubectl", "oc", "lxc"})
"""Command names :func:`node_escape` looks at."""


def privileged_container(segment: Segment) -> Finding | None:
    """Deny a container started with the host's privileges or filesystem root.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    args = _starter(segment)
    if args is None:
        return None
    lowered = [a.lower() for a in args]
    caps = _values(lowered, frozenset({"--cap-add"}))
    mounts = _values(args, _MOUNTS) + [f"{source}:" for source in _mount_sources(args)]
    if (any(a.startswith(_PRIVILEGED) for a in lowered)
            or any(c.removeprefix("cap_") in _DANGEROUS_CAPS for c in caps)
            or any("unconfined" in a for a in lowered)
            or any(m.startswith(_HOST_ROOT_MOUNTS) for m in mounts)):
        return Finding(DENY, "escalation", f"{segment.text!r} starts a privileged container")
    if any(w.startswith("/proc/") for w in _values(args, _CONTAINER_SIDE)):
        return Finding(DENY, "escalation", f"{segment.text!r} starts in a /proc directory of "
                       "the runtime (a host escape: CVE-2024-21626)")
    return None
