"""The thin client of ``tooldeck hook``: where the server's socket is, and one round trip.

Kept light on purpose (``os``, ``socket``, ``json``, ``hashlib`` and nothing of tooldeck's
machinery): it runs once per tool call of the user's agent. Any failure is reported as
:class:`ServerUnavailable`, never as an answer; the caller then computes the answer cold.

One server serves one (configuration, working directory, ``TOOLDECK_*`` environment,
installation) combination, so its answers are the ones a cold deck built by this process
would give: the socket's name is a digest of all four.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import sys
from typing import Any

__all__ = [
    "ServerAbsent", "ServerUnavailable", "UnsafeSocket", "ask_server", "check_private_dir",
    "check_socket", "server_key", "socket_dir", "socket_path", "start_server",
]

TIMEOUT_S = 5.0
"""How long one round trip may take before the answer is computed cold instead; longer than
the egress gate's 2 s DNS budget, so a command naming a host is not judged twice."""

MAX_ANSWER = 16 * 1024 * 1024


class ServerUnavailable(Exception):
    """No usable answer came from a server: compute it cold."""


class ServerAbsent(ServerUnavailable):
    """No server listens on the socket (none started yet, or it died)."""


class UnsafeSocket(ServerUnavailable):
    """The socket or its directory is not private to this user: it is never used."""


def socket_dir() -> str:
    """The directory holding the servers' sockets.

    ``$XDG_RUNTIME_DIR/tooldeck`` when the variable names an absolute path, else ``run`` in
    tooldeck's data directory.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime):
        return os.path.join(runtime, "tooldeck")
    from tooldeck.dirs import data_dir

    return os.path.join(str(data_dir()), "run")


def server_key(config: str | None) -> str:
    """The digest naming the server that answers for this process.

    :param config: ``--config`` (made absolute), or ``None`` for the lookup order.
    """
    parts: dict[str, Any] = {
        "config": os.path.abspath(config) if config is not None else None,
        "cwd": os.getcwd(),
        "env": sorted((k, v) for k, v in os.environ.items() if k.startswith("TOOLDECK_")),
        "python": sys.prefix,
        "tooldeck": os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]


def socket_path(config: str | None) -> str:
    """The socket of the server that answers for this process (see :func:`server_key`)."""
    return os.path.join(socket_dir(), f"hook-{server_key(config)}.sock")


def check_private_dir(path: str) -> None:
    """Refuse a socket directory that is not ours alone.

    :raises ServerAbsent: it does not exist.
    :raises UnsafeSocket: it is a symlink or not a directory, is owned by another user, or
        lets group or others in.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise ServerAbsent(f"{path} does not exist") from None
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeSocket(f"{path} is not a directory")
    if st.st_uid != os.getuid():
        raise UnsafeSocket(f"{path} is owned by uid {st.st_uid}, not {os.getuid()}")
    if st.st_mode & 0o077:
        raise UnsafeSocket(f"{path} has mode {stat.S_IMODE(st.st_mode):o}, not 700")


def check_socket(path: str) -> None:
    """Refuse a socket that is not ours alone (same rules as :func:`check_private_dir`).

    :raises ServerAbsent: it does not exist.
    :raises UnsafeSocket: it is not a socket, is someone else's, or is open to others.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise ServerAbsent(f"{path} does not exist") from None
    if not stat.S_ISSOCK(st.st_mode):
        raise UnsafeSocket(f"{path} is not a socket")
    if st.st_uid != os.getuid():
        raise UnsafeSocket(f"{path} is owned by uid {st.st_uid}, not {os.getuid()}")
    if st.st_mode & 0o077:
        raise UnsafeSocket(f"{path} has mode {stat.S_IMODE(st.st_mode):o}, not 600")


def _answer(data: bytes) -> tuple[str, int, str]:
    try:
        reply = json.loads(data)
    except ValueError:
        raise ServerUnavailable("the server's answer is not JSON") from None
    if not isinstance(reply, dict):
        raise ServerUnavailable("the server's answer is not a JSON object")
    out, code, err = reply.get("stdout"), reply.get("exit_code"), reply.get("stderr")
    if not (isinstance(out, str) and isinstance(err, str) and code in (0, 2)
            and not isinstance(code, bool)):
        raise ServerUnavailable("the server's answer lacks stdout, stderr or exit_code")
    return out, code, err


def ask_server(agent: str, text: str, config: str | None, *,
               timeout: float = TIMEOUT_S) -> tuple[str, int, str]:
    """One round trip to the warm server.

    :param agent: the agent whose hook input ``text`` is.
    :param text: the hook input, as read from stdin.
    :param config: ``--config``, or ``None``.
    :param timeout: the longest the whole round trip may take, in seconds.
    :returns: ``(stdout, exit_code, stderr)`` as the server computed them.
    :raises ServerAbsent: no server listens (the caller may start one).
    :raises ServerUnavailable: anything else went wrong: no answer is taken from it.
    """
    path = socket_path(config)
    check_private_dir(os.path.dirname(path))
    check_socket(path)
    request = json.dumps({"agent": agent, "input": text}).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            try:
                conn.connect(path)
            except (FileNotFoundError, ConnectionRefusedError) as exc:
                raise ServerAbsent(f"nobody listens on {path}: {exc}") from None
            conn.sendall(request)
            conn.shutdown(socket.SHUT_WR)
            chunks: list[bytes] = []
            size = 0
            while chunk := conn.recv(65536):
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_ANSWER:
                    raise ServerUnavailable("the server's answer is too long")
    except OSError as exc:
        raise ServerUnavailable(f"talking to {path} failed: {exc}") from None
    return _answer(b"".join(chunks))


def start_server(config: str | None) -> None:
    """Start ``tooldeck serve`` for this process's key in the background, detached.

    It outlives this process (its own session, no inherited streams) and exits by itself
    after a spell of idleness. A server that loses the race to another one exits at once.

    :param config: ``--config``, or ``None``.
    """
    import subprocess

    argv = ["serve"]
    if config is not None:
        argv += ["--config", os.path.abspath(config)]
    code = f"from tooldeck.cli import main; raise SystemExit(main({argv!r}))"
    subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
    )
