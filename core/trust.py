"""Untrusted project configuration: a ``./tooldeck.toml`` may only tighten until trusted.

A repository can ship a ``tooldeck.toml``; an agent started in it would find that file first
in the lookup order. Unless the user has trusted the file *by its content* (``tooldeck config
trust [FILE]``, stored in the user data directory; a changed file is untrusted again, like
direnv's ``allow`` or mise's ``trust``), it is applied only as far as it tightens the policy
the user would otherwise run (their user configuration, or the embedded default):

- the project file is laid over that base (tables merged, other values replaced);
- if every difference is provably stricter (:func:`tooldeck.policy_change.loosened_keys`),
  the merged configuration runs;
- otherwise the base runs, and a warning names the file, what it would loosen and the
  command that trusts it.

``--config`` and ``$TOOLDECK_CONFIG`` are chosen by the user and stay fully trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooldeck.config import ConfigDocument, embedded_default_text, parse_document, read_document
from tooldeck.dirs import data_dir, user_config_file
from tooldeck.policy_change import loosened_keys

__all__ = ["PROJECT_ORIGIN", "is_trusted", "project_document", "trust", "trust_file"]

PROJECT_ORIGIN = "./tooldeck.toml"
"""The lookup origin of a configuration found in the working directory."""


def trust_file() -> Path:
    """Where trusted files are recorded: ``trusted_configs.json`` in the user data dir."""
    return data_dir() / "trusted_configs.json"


def _content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _records() -> dict[str, str]:
    try:
        data = json.loads(trust_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def is_trusted(path: Path, text: str) -> bool:
    """True when ``path`` was trusted with exactly this content."""
    return _records().get(str(path.resolve())) == _content_hash(text)


def trust(path: Path) -> str:
    """Trust ``path`` with its current content; returns the content hash recorded.

    :raises ConfigError: the file cannot be read or is not valid TOML (nothing is recorded).
    """
    doc = read_document(path, "trust")
    records = _records()
    digest = _content_hash(doc.text)
    records[str(path.resolve())] = digest
    target = trust_file()
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    staged = target.with_suffix(".tmp")
    fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(records, out, indent=1, sort_keys=True)
    os.replace(staged, target)
    return digest


def _merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _base_document() -> ConfigDocument:
    user = user_config_file()
    if user.is_file():
        return read_document(user, "user config")
    return parse_document(embedded_default_text(), None, "embedded default")


def project_document(doc: ConfigDocument) -> ConfigDocument:
    """The configuration to run for a ``./tooldeck.toml``.

    Itself when trusted; otherwise only as far as it tightens the user's policy.

    :param doc: the project file as found.
    :raises tooldeck.errors.ConfigError: the user configuration (the base) is invalid.
    """
    if doc.path is None or is_trusted(doc.path, doc.text):
        return doc
    base = _base_document()
    merged = _merged(base.data, doc.data)
    loosened = loosened_keys(base.data, merged)
    if not loosened:
        return ConfigDocument(doc.path, f"{PROJECT_ORIGIN} (untrusted: tightening only)",
                              base.text + "\n" + doc.text, merged,
                              base_directory=base.directory)
    shown = ", ".join(loosened[:8]) + (" …" if len(loosened) > 8 else "")
    note = (f"untrusted {doc.path} is not applied: it would loosen {shown}; the "
            f"{base.origin} runs instead (trust the file with: tooldeck config trust "
            f"{doc.path})")
    # the path stays the project file's, so that editing it is still watched and re-judged
    # relative settings of the user's file still mean what they meant there (an audit log
    # path must not move into an untrusted repository)
    return ConfigDocument(doc.path, f"{PROJECT_ORIGIN} (untrusted: not applied)", base.text,
                          base.data, notes=(note,), base_directory=base.directory)
