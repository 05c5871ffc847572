"""Load ``policy_file``: a TOML file with a ``rules`` array that replaces the inline rules.

=====================  ====================================================================
check                  error
=====================  ====================================================================
exists, resolvable     ``policy file cannot be loaded: …`` (missing, unreadable, a loop)
below the root         ``policy file escapes project root``: its canonical path (symlinks
                       resolved) must lie below the canonical directory of the
                       configuration file that names it
size                   ``policy file too large``: more than 256 KiB
TOML with ``rules``    ``policy file cannot be parsed: …``: not UTF-8, not TOML, a key
                       other than ``rules``, or a rule that does not validate
=====================  ====================================================================

The file is read through the build's policy reads (:class:`tooldeck.generation.PolicyReads`)
as kind ``policy``: the runtime holds the version it parsed, a reload re-reads it, and a
change to it is judged by the tighten table of :mod:`tooldeck.policy_change`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pydantic

from tooldeck.config import Settings, StrictModel
from tooldeck.errors import ConfigError
from tooldeck.plugins.policy_enforcer.settings import PolicyRule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["MAX_FILE_BYTES", "PolicyFile", "load_policy_file", "resolve_policy_file"]

MAX_FILE_BYTES = 256 * 1024
"""The largest policy file accepted."""

KIND = "policy"
"""The generation kind of a policy file (see :mod:`tooldeck.policy_change`)."""


class PolicyFile(StrictModel):
    """The content of a policy file."""

    rules: tuple[PolicyRule, ...]


def resolve_policy_file(raw: str, settings: Settings) -> Path:
    """The canonical path of ``policy_file``, checked to lie below the configuration's root.

    :param raw: the setting as written (``~`` expanded; relative to the config's directory).
    :param settings: the runtime's settings (for the configuration's directory and label).
    :returns: the canonical path (every symlink resolved).
    :raises ConfigError: it cannot be resolved, or it lies outside the root.
    """
    label = settings.document.label
    root_dir = settings.document.directory or Path.cwd()
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = root_dir / path
    try:
        real = Path(os.path.realpath(path, strict=True))
        root = Path(os.path.realpath(root_dir, strict=True))
    except OSError as exc:
        raise _error(label, f"policy file cannot be loaded: {path}: {exc.strerror}") from None
    if not real.is_relative_to(root):
        raise _error(label, f"policy file escapes project root: {path} resolves to {real}, "
                     f"outside {root}")
    return real


def load_policy_file(path: Path, settings: Settings) -> tuple[PolicyRule, ...]:
    """Read and validate the policy file at canonical ``path`` (see the table above).

    :param path: from :func:`resolve_policy_file`.
    :param settings: the runtime's settings; the file is read through ``settings.files``.
    :returns: the file's rules.
    :raises ConfigError: too large, or unparsable.
    """
    label = settings.document.label
    try:
        data = settings.files.read(path, KIND).data
    except OSError as exc:
        raise _error(label, f"policy file cannot be loaded: {path}: {exc.strerror}") from None
    if data is None:
        raise _error(label, f"policy file cannot be loaded: {path}: it does not exist")
    if os.path.realpath(path) != str(path):  # swapped for a symlink since it was resolved
        raise _error(label, f"policy file escapes project root: {path} changed while read")
    if len(data) > MAX_FILE_BYTES:
        raise _error(label, f"policy file too large: {path} is {len(data)} bytes; the maximum "
                     f"is {MAX_FILE_BYTES}")
    try:
        table: Any = tomllib.loads(data.decode("utf-8"))
        return PolicyFile.model_validate(table).rules
    except UnicodeDecodeError:
        problem = "not UTF-8 text"
    except tomllib.TOMLDecodeError as exc:
        problem = f"invalid TOML: {exc}"
    except pydantic.ValidationError as exc:
        problem = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(file)'}: {err['msg']}"
            for err in exc.errors()[:5])
    raise _error(label, f"policy file cannot be parsed: {path}: {problem}")


def _error(label: str, message: str) -> ConfigError:
    return ConfigError(f"{label}: tools.policy.policy_file: {message}", path=label,
                       key="tools.policy.policy_file")
