"""``tooldeck config check|show`` and ``tooldeck audit tail``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import RootModel

from tooldeck.build import build_runtime
from tooldeck.cli_api import EXIT_CONFIG, EXIT_OK, emit, open_deck
from tooldeck.config import Settings, read_document
from tooldeck.errors import ConfigError
from tooldeck.runtime import CORE_PLUGIN, Runtime

__all__ = ["audit_tail", "run"]


def run(args: argparse.Namespace, config: str | None, as_json: bool) -> int:
    """Dispatch ``config check`` / ``config show``."""
    if args.config_command == "check":
        return _check(args.file or config, as_json)
    if args.config_command == "trust":
        return _trust(Path(args.file), as_json)
    return _show(open_deck(config).runtime, as_json)


def _trust(path: Path, as_json: bool) -> int:
    from tooldeck.trust import trust

    if not path.is_file():
        raise ConfigError(f"{path}: config file not found", path=str(path))
    digest = trust(path)
    emit({"trusted": str(path.resolve()), "sha256": digest} if as_json else None,
         f"trusted {path.resolve()} (sha256 {digest[:16]}…); a change to it is untrusted "
         "again")
    return EXIT_OK


def _check(file: str | None, as_json: bool) -> int:
    if file is not None:
        path = Path(file)
        if not path.is_file():
            raise ConfigError(f"{path}: config file not found", path=str(path))
    try:
        runtime = (build_runtime(read_document(Path(file), "argument")) if file is not None
                   else open_deck(None).runtime)
    except ConfigError:
        from tooldeck.diagnose import broken_lines, diagnose_config

        for line in broken_lines(diagnose_config(file)):
            print(f"tooldeck: {line}", file=sys.stderr)
        raise
    settings = runtime.settings
    enabled = [p.name for p in runtime.plugins if p.state == "enabled"]
    data = {"ok": True, "file": settings.document.label, "plugins": enabled,
            "tools": sorted(runtime.tools), "warnings": list(runtime.warnings)}
    text = (f"{settings.document.label}: ok — {len(enabled)} plugins, "
            f"{len(runtime.tools)} tools")
    if runtime.warnings:
        text += "\n" + "\n".join(f"warning: {w}" for w in runtime.warnings)
    emit(data if as_json else None, text)
    return EXIT_OK


def _values(settings: Settings) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(settings.sections) | set(settings.raw)):
        model = settings.sections.get(name)
        if model is None:
            values: dict[str, Any] = dict(settings.raw.get(name, {}))
            if not values:
                continue
        elif isinstance(model, RootModel):
            values = model.model_dump(mode="json")
        else:
            values = model.model_dump(mode="json")
        out[name] = {
            key: {"value": value, "source": settings.sources.get(f"{name}.{key}", "default")}
            for key, value in values.items()
        }
    return out


def _owners(runtime: Runtime, names: Iterable[str]) -> dict[str, dict[str, str]]:
    """Who validates each section: the core, a built-in plugin, a third-party one, or none."""
    dists = {info.name: info.dist for info in runtime.plugins}
    out: dict[str, dict[str, str]] = {}
    for name in names:
        plugin = runtime.section_owners.get(name)
        if plugin is None:
            out[name] = {"plugin": "", "kind": "unowned"}
        elif plugin == CORE_PLUGIN:
            out[name] = {"plugin": plugin, "kind": "core"}
        else:
            dist = dists.get(plugin, "")
            out[name] = {"plugin": plugin,
                         "kind": "built-in" if dist == "tooldeck" else "third-party"}
    return out


def _show(runtime: Runtime, as_json: bool) -> int:
    settings = runtime.settings
    values = _values(settings)
    owners = _owners(runtime, values)
    doc = settings.document
    lines = [f"# configuration: {doc.label} (found via {doc.origin})",
             "# each key's source: the file that set it, $VARIABLE, or default (the model's)"]
    for name, entries in values.items():
        owner = owners[name]
        whose = (f"plugin {owner['plugin']} ({owner['kind']})" if owner["kind"] != "unowned"
                 else "not validated: no enabled plugin owns it")
        lines.append(f"\n[{name}]  # {whose}")
        for key, entry in entries.items():
            lines.append(f"{key} = {json.dumps(entry['value'])}  # {entry['source']}")
    emit({"file": doc.label, "origin": doc.origin, "sections": values, "owners": owners}
         if as_json else None, "\n".join(lines))
    return EXIT_OK


def audit_tail(config: str | None, n: int, as_json: bool) -> int:
    """Print the last ``n`` audit records."""
    if n < 1:
        print("tooldeck: -n must be at least 1")
        return EXIT_CONFIG
    runtime = open_deck(config).runtime
    settings = runtime.settings
    path = settings.core.audit.resolved_path(settings.document.directory)
    if not runtime.storage.shared and not path.exists():
        emit([] if as_json else None, f"no audit records yet ({path})")
        return EXIT_OK
    log = runtime.storage.append_log("audit", path)
    try:
        lines = log.tail(n)
    finally:
        log.close()
    records: deque[dict[str, Any]] = deque()
    for line in lines:
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            records.append({"kind": "unreadable", "line": line})
    if as_json:
        emit(list(records), "")
        return EXIT_OK
    for rec in records:
        result = rec.get("result", {})
        outcome = result.get("type", rec.get("kind", "?")) if isinstance(result, dict) else "?"
        detail = rec.get("command") or rec.get("reason") or rec.get("file") or ""
        print(f"{rec.get('ts', '?')}  {rec.get('tool', rec.get('kind', '?')):<16} "
              f"{outcome:<8} {detail}")
    return EXIT_OK
