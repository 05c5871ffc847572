"""Connecting: the URL of ``[storage]``, the password from the environment, a checked pool.

With ``[storage] durable = false`` every connection runs with ``synchronous_commit = off``.
The password never sits in the configuration (a URL holding one is refused when the file
is validated): it comes from the variable ``[storage] password_env`` names, and when that
is unset libpq's own ``PGPASSWORD`` and ``~/.pgpass`` apply. The first connection is made
directly, so a failure is reported with PostgreSQL's own reason (refused, authentication
failed, no such database) instead of a pool's time-out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from tooldeck.config import StorageConfig
from tooldeck.storage_api import StorageError

__all__ = ["connect", "connection_kwargs", "open_pool"]

APPLICATION = "tooldeck"


def connection_kwargs(config: StorageConfig, environ: Mapping[str, str]) -> dict[str, Any]:
    """What every connection of the deck is opened with, besides the URL.

    :param config: ``[storage]``.
    :param environ: the environment holding the password variable.
    """
    kwargs: dict[str, Any] = {"autocommit": True, "application_name": APPLICATION,
                              "connect_timeout": max(1, round(config.connect_timeout_secs))}
    if not config.durable:
        kwargs["options"] = "-c synchronous_commit=off"
    password = environ.get(config.password_env)
    if password:
        kwargs["password"] = password
    return kwargs


def connect(config: StorageConfig, environ: Mapping[str, str]) -> psycopg.Connection[Any]:
    """One connection, made now.

    :raises StorageError: the server cannot be reached or refuses us, with its reason.
    """
    assert config.url is not None
    try:
        return psycopg.connect(config.url, **connection_kwargs(config, environ))
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise StorageError(f"cannot connect to {config.url}: {reason}") from None


def open_pool(config: StorageConfig, environ: Mapping[str, str]) -> ConnectionPool[Any]:
    """The deck's pool of up to ``pool_size`` connections, opened and checked.

    :raises StorageError: the pool cannot get its first connection in time.
    """
    assert config.url is not None
    pool: ConnectionPool[Any] = ConnectionPool(
        config.url, kwargs=connection_kwargs(config, environ), min_size=1,
        max_size=config.pool_size, open=False, timeout=config.connect_timeout_secs,
        name=f"tooldeck:{config.namespace}", num_workers=1)
    try:
        pool.open(wait=True, timeout=config.connect_timeout_secs)
    except Exception as exc:
        pool.close()
        raise StorageError(f"cannot open connections to {config.url}: {exc}") from None
    return pool
