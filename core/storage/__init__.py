"""Where a deck keeps its state: the backend chosen by ``[storage]``, opened once per deck.

=======================  ==================================================================
rule                     behaviour
=======================  ==================================================================
embedded by default      without ``[storage] url`` every kind of state stays in local files
                         and SQLite (:class:`~tooldeck.storage.embedded.EmbeddedStorage`)
a shared backend         with a URL, the first ``tooldeck_open_storage`` implementation that
                         answers provides the backend (the built-in ``postgres`` plugin for
                         ``postgresql://``); nobody answering is a configuration error,
                         never a silent fallback to embedded (that would split the quota
                         and the trust blocks across workers)
unreachable              a backend that cannot be opened refuses the configuration, naming
                         ``storage.url`` and the reason (the CLI exits 2)
one per deck             the backend is opened by the deck's first runtime and kept across
                         reloads; a reload that changes ``[storage]`` is refused (restart)
public API               plugins reach it as ``runtime.storage``
                         (:class:`~tooldeck.storage_api.Storage`)
=======================  ==================================================================
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

from tooldeck.config import Settings, StorageConfig
from tooldeck.errors import ConfigError
from tooldeck.state import SessionState, StashKey
from tooldeck.storage.embedded import EmbeddedStorage
from tooldeck.storage_api import Storage, StorageError

if TYPE_CHECKING:
    OpenHook = Callable[[StorageConfig, Mapping[str, str]], "Storage | None"]

__all__ = ["EmbeddedStorage", "discard_storage", "has_storage", "open_storage",
           "session_storage"]


@attrs.frozen
class _Opened:
    """The deck's backend and the ``[storage]`` it was opened with.

    ``None``: an embedded backend made on first use, with no configuration asking for one.
    """

    storage: Storage
    config: StorageConfig | None


_STORAGE = StashKey[_Opened]("storage")
_DEFAULT = StorageConfig.model_validate({})


def session_storage(session: SessionState) -> Storage:
    """The deck's backend: the one :func:`open_storage` opened, else an embedded one.

    :param session: the deck's session state.
    """
    return session.setdefault(_STORAGE, lambda: _Opened(EmbeddedStorage(), None)).storage


def open_storage(settings: Settings, open_hook: OpenHook, session: SessionState,
                 environ: Mapping[str, str] | None = None) -> Storage:
    """Open the backend ``[storage]`` names for the deck, or check it is the one it has.

    :param settings: the validated configuration.
    :param open_hook: asks the ``tooldeck_open_storage`` implementations, first answer wins.
    :param session: the deck's session state (the backend lives there).
    :param environ: the environment (the password variable; default ``os.environ``).
    :raises ConfigError: no backend for the URL, the backend cannot be opened, or a reload
        changes ``[storage]``.
    """
    config = settings.core.storage
    label = settings.document.label
    opened = session.get(_STORAGE)
    if opened is not None:
        if (opened.config or _DEFAULT) != config:  # None: an embedded one by default
            raise ConfigError(f"{label}: storage: [storage] cannot change while the deck runs "
                              "(its workers would split their state); restart to change it",
                              path=label, key="storage")
        return opened.storage
    if config.url is None:
        storage: Storage = EmbeddedStorage()
    else:
        env = os.environ if environ is None else environ
        try:
            found = open_hook(config, env)
        except (StorageError, OSError) as exc:
            raise ConfigError(f"{label}: storage.url: cannot open the shared state: {exc}",
                              path=label, key="storage.url") from None
        if found is None:
            raise ConfigError(f"{label}: storage.url: no enabled plugin provides this storage "
                              "(for postgresql:// enable the built-in 'postgres' plugin and "
                              "pip install 'tooldeck[postgres]')", path=label, key="storage.url")
        storage = found
    session.setdefault(_STORAGE, lambda: _Opened(storage, config))
    return storage


def has_storage(session: SessionState) -> bool:
    """Whether the deck has its backend already (a reload's build finds it there).

    :param session: the deck's session state.
    """
    return session.get(_STORAGE) is not None


def discard_storage(session: SessionState) -> None:
    """Close the backend the deck's first build opened, when that build fails.

    :param session: the (new) deck's session state; it is not used again.
    """
    opened = session.get(_STORAGE)
    if opened is not None:
        opened.storage.close()
