"""Which configuration is in force: the lookup order, with the project file's trust applied.

It sits above :mod:`tooldeck.config` (parsing, validation) and :mod:`tooldeck.trust` (what
an untrusted ``./tooldeck.toml`` may change), so neither has to import the other's caller.
"""

from __future__ import annotations

import os

from tooldeck.config import ConfigDocument, embedded_default_text, parse_document, read_document
from tooldeck.dirs import config_candidates
from tooldeck.errors import ConfigError
from tooldeck.trust import PROJECT_ORIGIN, project_document

__all__ = ["load_document"]


def load_document(explicit: str | os.PathLike[str] | None = None) -> ConfigDocument:
    """Find and parse the configuration, following the lookup order of :mod:`tooldeck.dirs`.

    :param explicit: a path given with ``--config``; it must exist.
    :returns: the first file found, or the embedded default when there is none.
    :raises ConfigError: a named file is missing or a found file is invalid.
    """
    for path, origin in config_candidates(explicit):
        if path.is_file():
            doc = read_document(path, origin)
            return project_document(doc) if origin == PROJECT_ORIGIN else doc
        if origin in ("--config", "$TOOLDECK_CONFIG"):
            raise ConfigError(f"{path}: config file not found (given by {origin})", path=str(path))
    return parse_document(embedded_default_text(), None, "embedded default")
