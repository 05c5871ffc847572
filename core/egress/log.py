"""The egress log: one JSON line per network hop, for every way out (Zeph §4.4).

``fetch`` and ``web_scrape`` record each request they send, redirect hops included, and
each one the policy refuses before it is sent; the ``egress`` gate records the destinations
of a shell command that ran (or that it refused). A record::

    {"ts": "1732550000.123", "kind": "egress", "correlation_id": "<call id>", "tool": "fetch",
     "url": "https://example.com/a?page=2", "host": "example.com", "method": "GET",
     "status": 200, "duration_ms": 41.7, "response_bytes": 5120, "hop": 1,
     "blocked": true, "block_reason": "ssrf", "rule": "private", "caller_id": "alice"}

``status``, ``response_bytes`` and ``caller_id`` are left out when unknown, ``hop`` when 0,
``blocked``, ``block_reason`` and ``rule`` when nothing was refused. ``block_reason`` is
Zeph's category (``allowlist``, ``blocklist``, ``ssrf``, ``scheme``); ``rule`` names the
rule that fired. URLs are redacted (:func:`redact_url`). The records go to the storage
backend's append log ``egress``: embedded, the file is appended to with one ``write`` per
record (``O_APPEND``, mode 0600), so records of concurrent calls and processes never
interleave; with ``[storage] url``, one committed row per record, shared by the fleet. A
failed write is reported on stderr and never fails a call.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit, urlunsplit

import attrs
import pydantic
from pydantic import Field

from tooldeck.config import Settings, StrictModel
from tooldeck.errors import ConfigError
from tooldeck.safe_json import json_line
from tooldeck.secrets import redact
from tooldeck.storage.jsonl import JsonlLog
from tooldeck.storage_api import Storage, StorageError

__all__ = [
    "LOG_SECTION",
    "EgressLog",
    "EgressLogSettings",
    "Hop",
    "HopRecorder",
    "block_reason",
    "egress_log_from_settings",
    "redact_url",
]

LOG_SECTION = "tools.egress"

_MAX_LINE = 1 << 16

SECRET_PARAM_WORDS = ("token", "key", "secret", "password", "auth", "sig", "api_key", "apikey")
"""A query parameter whose lower-case name contains one of these is dropped from logged URLs."""


class EgressLogSettings(StrictModel):
    """``[tools.egress]``: the egress log (Zeph's defaults)."""

    enabled: bool = Field(True, description="Write one record per network hop.")
    path: str | None = Field(
        None, description="The JSONL file (default: egress.jsonl in the user data directory); "
        "a relative path is taken from the config file's directory.")
    log_blocked: bool = Field(True, description="Also record hops the egress policy refused.")

    def resolved_path(self, config_dir: Path | None) -> Path:
        """Where the log is written, a relative ``path`` taken from ``config_dir``."""
        if self.path is None:
            from tooldeck.dirs import data_dir

            return data_dir() / "egress.jsonl"
        path = Path(self.path).expanduser()
        return path if path.is_absolute() or config_dir is None else config_dir / path


def redact_url(url: str) -> str:
    """A URL fit for a log: no userinfo, no secret-looking query parameter, no fragment.

    What is left also goes through :func:`tooldeck.secrets.redact`, so a token in the path
    (a Slack webhook, a ``/bot123:AA…/`` Telegram URL) is hidden too.

    :param url: the URL as requested.
    :returns: the redacted URL (the text redacted as a whole when it does not parse).
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return redact(url)
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    query = urlencode([(name, value) for name, value in parse_qsl(parts.query,
                                                                  keep_blank_values=True)
                       if not any(word in name.lower() for word in SECRET_PARAM_WORDS)])
    return redact(urlunsplit(SplitResult(parts.scheme, netloc, parts.path, query, "")))


_ALLOWLIST_RULES = frozenset({"allowlist", "bare-ip-with-allowlist"})


def block_reason(rule: str) -> str:
    """Zeph's category of a refusal: ``allowlist``, ``blocklist``, ``scheme`` or ``ssrf``.

    :param rule: the rule that fired (:class:`tooldeck.egress.Rejection`).
    :returns: the category; every rule on addresses and host names is ``ssrf``.
    """
    if rule in _ALLOWLIST_RULES:
        return "allowlist"
    if rule == "denylist":
        return "blocklist"
    if rule == "scheme":
        return "scheme"
    return "ssrf"


@attrs.frozen
class Hop:
    """One network hop, or one refused before it was sent.

    :param tool: the tool that made it (``fetch``, ``bash`` …).
    :param url: the URL as requested (redacted when written).
    :param correlation_id: the call id, shared by every hop of one call.
    :param hop: 0 for the first request, n for the n-th redirect.
    :param status: the HTTP status, when a response came.
    :param duration_ms: time from sending to the response (or the failure).
    :param response_bytes: bytes of body read, when known.
    :param rule: the rule that refused the hop; ``None`` when it was not refused.
    :param caller_id: the call's caller.
    :param method: the HTTP method; for a shell command, the program (``curl``, ``ssh``).
    """

    tool: str
    url: str
    correlation_id: str
    hop: int = 0
    status: int | None = None
    duration_ms: float = 0.0
    response_bytes: int | None = None
    rule: str | None = None
    caller_id: str | None = None
    method: str = "GET"

    def record(self) -> dict[str, Any]:
        """The JSON-ready record, optional fields left out as Zeph leaves them out."""
        try:
            host = urlsplit(self.url).hostname or ""
        except ValueError:
            host = ""
        out: dict[str, Any] = {
            "ts": f"{time.time():.3f}", "kind": "egress", "correlation_id": self.correlation_id,
            "tool": self.tool, "url": redact_url(self.url), "host": redact(host),
            "method": self.method,
        }
        if self.status is not None:
            out["status"] = self.status
        out["duration_ms"] = round(self.duration_ms, 3)
        if self.response_bytes is not None:
            out["response_bytes"] = self.response_bytes
        if self.rule is not None:
            out["blocked"] = True
            out["block_reason"] = block_reason(self.rule)
            out["rule"] = self.rule
        if self.caller_id:
            out["caller_id"] = self.caller_id
        if self.hop:
            out["hop"] = self.hop
        return out


class EgressLog:
    """Appends hop records to the egress log file.

    :param path: the file.
    :param log_blocked: whether refused hops are recorded.
    """

    def __init__(self, path: Path, *, log_blocked: bool = True) -> None:
        self.path = path
        self.log_blocked = log_blocked

    def write(self, hop: Hop, storage: Storage | None = None) -> None:
        """Append one record; a failure is reported on stderr, never raised.

        :param hop: the hop (skipped when refused and ``log_blocked`` is off).
        :param storage: the deck's storage backend (``runtime.storage``), whose append log
            ``egress`` gets the record: the file at :attr:`path` when embedded, the shared
            log of a fleet otherwise; ``None``: the file.
        """
        if hop.rule is not None and not self.log_blocked:
            return
        line = json_line(hop.record(), max_chars=_MAX_LINE)
        try:
            sink = (JsonlLog(self.path) if storage is None
                    else storage.append_log("egress", self.path))
            try:
                sink.append(line)
            finally:
                sink.close()
        except (OSError, StorageError) as exc:
            print(f"tooldeck: egress log {self.path}: {exc}", file=sys.stderr)


def _validated(table: Mapping[str, Any]) -> EgressLogSettings:
    try:
        return EgressLogSettings.model_validate(dict(table))
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"[{LOG_SECTION}] {where}: {first['msg']}",
                          key=f"{LOG_SECTION}.{where}") from None


def egress_log_from_settings(settings: Settings) -> EgressLog | None:
    """The egress log of a configuration, whichever plugins are enabled.

    :param settings: the validated configuration.
    :returns: the log, or ``None`` when ``[tools.egress] enabled = false``.
    :raises ConfigError: when ``[tools.egress]`` does not validate.
    """
    config = _validated(settings.table(LOG_SECTION))
    if not config.enabled:
        return None
    return EgressLog(config.resolved_path(settings.document.directory),
                     log_blocked=config.log_blocked)


class HopRecorder:
    """The hops of one call: fills in the tool, correlation id and caller of each record.

    :param log: the egress log, or ``None`` when it is disabled (then nothing is written).
    :param tool: the tool making the hops.
    :param correlation_id: the call id.
    :param caller_id: the call's caller.
    """

    def __init__(self, log: EgressLog | None, tool: str, correlation_id: str,
                 caller_id: str | None = None, storage: Storage | None = None) -> None:
        self._log = log
        self._tool = tool
        self._id = correlation_id
        self._caller = caller_id
        self._storage = storage

    def sent(self, url: str, hop: int, *, status: int | None, duration_ms: float,
             response_bytes: int | None, method: str = "GET") -> None:
        """Record a request that went out (``status`` is ``None`` when no response came)."""
        if self._log is not None:
            self._log.write(Hop(self._tool, url, self._id, hop, status, duration_ms,
                                response_bytes, caller_id=self._caller, method=method),
                            self._storage)

    def refused(self, url: str, hop: int, rule: str, duration_ms: float = 0.0, *,
                method: str = "GET") -> None:
        """Record a request the egress policy refused before it was sent."""
        if self._log is not None:
            self._log.write(Hop(self._tool, url, self._id, hop, duration_ms=duration_ms,
                                rule=rule, caller_id=self._caller, method=method),
                            self._storage)
