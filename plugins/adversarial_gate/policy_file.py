"""Read ``policy_file``: plain-text policy lines for the judge."""

from __future__ import annotations

import os
from pathlib import Path

from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.plugins.adversarial_gate.prompt import policy_lines
from tooldeck.plugins.adversarial_gate.settings import SECTION

__all__ = ["MAX_FILE_BYTES", "load_policies"]

MAX_FILE_BYTES = 64 * 1024
"""The largest policy file accepted (it goes into every request)."""


def _error(settings: Settings, message: str) -> ConfigError:
    label = settings.document.label
    return ConfigError(f"{label}: {SECTION}.policy_file: {message}", path=label,
                       key=f"{SECTION}.policy_file")


def load_policies(raw: str | None, settings: Settings) -> tuple[tuple[str, ...], Path | None]:
    """The policy lines of ``policy_file``, read through the build's policy reads.

    :param raw: the setting as written (``~`` expanded; relative to the config's directory),
        or ``None`` for no file.
    :param settings: the runtime's settings.
    :returns: the lines and the file's canonical path (``((), None)`` without a file).
    :raises ConfigError: the file is missing, unreadable, too large or not UTF-8.
    """
    if raw is None:
        return (), None
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = (settings.document.directory or Path.cwd()) / path
    try:
        real = Path(os.path.realpath(path, strict=True))
        data = settings.files.read(real, "opaque").data
    except OSError as exc:
        raise _error(settings, f"cannot be read: {path}: {exc.strerror}") from None
    if data is None:
        raise _error(settings, f"cannot be read: {path}: it does not exist")
    if len(data) > MAX_FILE_BYTES:
        raise _error(settings, f"too large: {path} is {len(data)} bytes; the maximum is "
                     f"{MAX_FILE_BYTES}")
    try:
        return policy_lines(data.decode("utf-8")), real
    except UnicodeDecodeError:
        raise _error(settings, f"not UTF-8 text: {path}") from None
