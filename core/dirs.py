"""Where tooldeck looks for its configuration and keeps its data, per platform conventions."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["CONFIG_ENV", "CONFIG_NAME", "config_candidates", "data_dir", "user_config_file"]

APP = "tooldeck"
CONFIG_NAME = "tooldeck.toml"
CONFIG_ENV = "TOOLDECK_CONFIG"


def user_config_file() -> Path:
    """The per-user config file (e.g. ``~/.config/tooldeck/tooldeck.toml`` on Linux)."""
    return Path(platformdirs.user_config_dir(APP)) / CONFIG_NAME


def data_dir() -> Path:
    """The per-user data directory (audit log and other state); not created here."""
    return Path(platformdirs.user_data_dir(APP))


def config_candidates(explicit: str | os.PathLike[str] | None = None) -> list[tuple[Path, str]]:
    """The config files to try, in lookup order, each with how it was found.

    ``--config`` (``explicit``) first, then ``$TOOLDECK_CONFIG``, then ``./tooldeck.toml``,
    then the user config file. An explicit or environment path must exist; the others are
    optional.

    :param explicit: the ``--config`` argument, if any.
    :returns: ``(path, origin)`` pairs where origin is ``--config``, ``$TOOLDECK_CONFIG``,
        ``./tooldeck.toml`` or ``user config``.
    """
    found: list[tuple[Path, str]] = []
    if explicit is not None:
        found.append((Path(explicit), "--config"))
    env = os.environ.get(CONFIG_ENV)
    if env:
        found.append((Path(env), f"${CONFIG_ENV}"))
    found.append((Path.cwd() / CONFIG_NAME, f"./{CONFIG_NAME}"))
    found.append((user_config_file(), "user config"))
    return found
