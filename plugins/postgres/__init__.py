"""Built-in plugin ``postgres``: shared state for a fleet of workers, in PostgreSQL.

=================  ===========================================================================
module             job
=================  ===========================================================================
``connect``        the ``[storage]`` URL, the password from the environment, a checked pool
``migrate``        versioned SQL files (``migrations/``), applied once under an advisory lock
``listener``       one ``LISTEN`` connection per deck: notifications to callbacks, reconnects
``logs``           the audit and egress logs (one committed row per record)
``quota``          the call quota, one atomic ``INSERT … ON CONFLICT … RETURNING`` per call
``trust``          run-time trust levels and anomaly blocks, pushed with ``NOTIFY``
``overflow``       long outputs by session scope
``tasks``          scheduled calls, claimed with ``FOR UPDATE SKIP LOCKED``
``memory``         notes, ranked by full-text search
``backend``        :class:`~tooldeck.plugins.postgres.backend.PostgresStorage`, all of them
=================  ===========================================================================

It answers ``tooldeck_open_storage`` for ``postgresql://`` URLs. psycopg is imported only
then: a deck without ``[storage] url`` never loads it. Install with
``pip install 'tooldeck[postgres]'``. See docs/fleet.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tooldeck import hookimpl
from tooldeck.config import StorageConfig
from tooldeck.storage_api import StorageError

if TYPE_CHECKING:
    from tooldeck.storage_api import Storage

_SCHEMES = ("postgresql://", "postgres://")


@hookimpl
def tooldeck_open_storage(config: StorageConfig, environ: Mapping[str, str]) -> Storage | None:
    """Open the PostgreSQL backend for a ``postgresql://`` URL; abstain for others."""
    if config.url is None or not config.url.startswith(_SCHEMES):
        return None
    try:
        from tooldeck.plugins.postgres.backend import PostgresStorage
    except ImportError as exc:
        raise StorageError(f"[storage] url is a PostgreSQL URL, which needs psycopg: "
                           f"pip install 'tooldeck[postgres]' ({exc.name} is missing)") from None
    return PostgresStorage.open(config, environ)
