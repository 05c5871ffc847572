"""A developer's own service on this machine: a loopback destination that asks, not denies.

The egress policy refuses loopback for every client (``fetch`` and ``curl`` alike): a
request to ``127.0.0.1`` may reach a control plane that is root on the host or holds the
cluster's secrets. A developer's own server (``curl http://localhost:8000/health``,
``psql -h localhost``) is everyday work, though, and a deny leaves the agent nothing to do.
The shell's egress gate asks about such a destination instead, when all of these hold:

========================  ===================================================================
condition                 why
========================  ===================================================================
an HTTP, database or      :data:`LOCAL_CLIENTS`; raw sockets (``nc``, ``socat``), ``ssh`` and
directory client          transfer clients stay denied, and so does a proxy or a pinned
                          address (``curl -x``, ``--resolve``, ``https_proxy=``)
the host is spelled       ``localhost``, ``*.localhost``, ``127.0.0.1`` or ``::1``: another
plainly                   spelling of loopback (``127.1``, ``0x7f.1``) is an evasion, denied
an unprivileged port,     a developer's server listens on a port of its own (3000, 5432,
not a control plane       8000); ports below 1024 and :data:`CONTROL_PORTS` stay denied
the only refusal is       the same destination over https is refused only as loopback or a
loopback                  local host name, so a denied domain or an allowlist still denies
========================  ===================================================================

A database client (:data:`LOCAL_DATABASES`) at such a destination is not asked about: it
reaches the same local database as the same client without ``-h`` (through the server's
socket, which was never an egress), and what it sends is judged by the shell's rules
like any other code (destructive SQL asks, a shell escape or ``COPY … PROGRAM`` is judged as
the command it runs, ``pg_read_file`` of a secret is a secret read, ``CONFIG SET dir`` a path).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from tooldeck.egress import EgressPolicy, check_host, check_url
from tooldeck.plugins.egress.destinations import HostPort, Url

__all__ = ["CONTROL_PORTS", "LOCAL_CLIENTS", "LOCAL_DATABASES", "is_local_service",
           "is_own_database"]

LOCAL_CLIENTS = frozenset({
    "curl", "wget", "http", "https", "xh", "psql", "mysql", "mariadb", "redis-cli",
    "mongosh", "mongo",
    # a directory client at a developer's own LDAP server (an OpenLDAP or lldap container on
    # 3890/1389): judged as psql at its database is
    "ldapsearch",
    # cloud and service CLIs pointed at a local emulator (aws --endpoint-url
    # http://localhost:4566, LocalStack; kubectl --server https://127.0.0.1:6443, kind)
    "aws", "s3cmd", "rclone", "gsutil", "az", "gcloud", "doctl", "terraform", "vault",
    "consul", "nomad", "mc", "kubectl",
})
"""Clients whose loopback destinations may be the developer's own service."""

LOCAL_DATABASES = frozenset({"psql", "mysql", "mariadb", "redis-cli", "mongosh", "mongo"})
"""Database clients: at a developer's own loopback database, allowed (module docstring)."""

CONTROL_PORTS = frozenset({
    2375, 2376, 2377, 4243,  # Docker API, swarm
    2379, 2380,  # etcd
    6443, 16443, 8001,  # Kubernetes API server, microk8s, kubectl proxy
    10248, 10249, 10250, 10255, 10256, 10257, 10259,  # kubelet, kube-proxy, controllers
    8500, 8501, 8502, 8600,  # Consul
    8200, 8201,  # Vault
    4646, 4647,  # Nomad
    9901, 15000, 19000,  # Envoy admin (plain, Istio, Consul Connect)
    2019,  # Caddy admin
    9001,  # AWS Lambda runtime API, supervisord
    5985, 5986,  # WinRM
})
"""Loopback ports of control planes and admin APIs (HackTricks, the third corpus' README)."""

_LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
_SCHEMES = frozenset({"http", "https", "ldap", "ldaps"})
"""URL schemes of :data:`LOCAL_CLIENTS` (``ldapsearch -H ldap://localhost:3890``)."""
_LOOPBACK_RULES = frozenset({"loopback", "private-hostname"})


def _plain_loopback(host: str) -> bool:
    host = host.lower().strip("[]")
    return host in _LOCAL_NAMES or host.endswith(".localhost")


def _own_port(port: int | None) -> bool:
    return port is not None and 1024 <= port <= 65535 and port not in CONTROL_PORTS


def is_local_service(found: Url | HostPort, policy: EgressPolicy) -> bool:
    """Whether a refused destination is a developer's own service on this machine.

    :param found: a destination the static rules refused.
    :param policy: the egress policy.
    :returns: true when every condition of the module's table holds (ask, not deny).
    """
    if found.command not in LOCAL_CLIENTS or found.relay:
        return False
    if isinstance(found, HostPort):
        if not (_plain_loopback(found.host) and _own_port(found.port)):
            return False
        return check_host(found.host, found.port, policy).rule in _LOOPBACK_RULES
    try:
        parts = urlsplit(found.url)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme.lower() not in _SCHEMES or not parts.hostname:
        return False
    if not (_plain_loopback(parts.hostname) and _own_port(port)):
        return False
    as_https = "https://" + found.url.split("://", 1)[1]
    return check_url(as_https, policy).rule in _LOOPBACK_RULES


def is_own_database(found: Url | HostPort, policy: EgressPolicy) -> bool:
    """Whether a refused destination is a database client at the developer's own database.

    :param found: a destination the static rules refused.
    :param policy: the egress policy.
    :returns: true for a :data:`LOCAL_DATABASES` client at a destination
        :func:`is_local_service` accepts (allowed, not asked).
    """
    return found.command in LOCAL_DATABASES and is_local_service(found, policy)
