"""Schema migrations: versioned SQL files applied in order, once, whoever starts first.

==========================  ==============================================================
rule                        behaviour
==========================  ==============================================================
versioned files             ``migrations/NNNN_name.sql`` shipped as package data; the
                            number is the version, applied in ascending order
one transaction             every pending file and its ``tooldeck.schema_version`` row
                            commit together, or nothing does
one migrator                the transaction first takes a transaction-scoped advisory lock:
                            workers starting at once wait, then find nothing left to do
newer schema                a database migrated by a newer tooldeck (a version this one
                            does not ship) is refused: guessing its meaning could loosen
                            policy
==========================  ==============================================================
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import psycopg

from tooldeck.storage_api import StorageError

__all__ = ["LOCK_KEY", "migrate", "migrations"]

LOCK_KEY = 0x746F6F6C6465636B  # "tooldeck"
"""The advisory lock every migrating worker takes."""

_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """Every shipped migration as ``(version, file name, SQL)``, in order."""
    found = []
    for entry in resources.files("tooldeck.plugins.postgres").joinpath("migrations").iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found)


def migrate(conn: psycopg.Connection[Any]) -> list[int]:
    """Bring the database's ``tooldeck`` schema up to date.

    :param conn: an open connection (its own transactions are used).
    :returns: the versions this call applied (empty when another worker did, or none were due).
    :raises StorageError: the schema is newer than this tooldeck, or a migration failed.
    """
    shipped = migrations()
    applied: list[int] = []
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            conn.execute("CREATE SCHEMA IF NOT EXISTS tooldeck")
            conn.execute("CREATE TABLE IF NOT EXISTS tooldeck.schema_version ("
                         "version integer PRIMARY KEY, name text NOT NULL, "
                         "applied_at timestamptz NOT NULL DEFAULT now())")
            done = {row[0] for row in conn.execute("SELECT version FROM tooldeck.schema_version")}
            newest = max((version for version, _, _ in shipped), default=0)
            unknown = sorted(v for v in done if v > newest)
            if unknown:
                raise StorageError(f"the database's tooldeck schema is at version {unknown[-1]}, "
                                   f"newer than this tooldeck knows ({newest}); upgrade tooldeck")
            for version, name, sql in shipped:
                if version in done:
                    continue
                conn.execute(sql.encode("utf-8"))
                conn.execute("INSERT INTO tooldeck.schema_version (version, name) VALUES (%s, %s)",
                             (version, name))
                applied.append(version)
    except psycopg.Error as exc:
        raise StorageError(f"migrating the tooldeck schema failed: {exc}") from None
    return applied
