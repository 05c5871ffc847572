"""Core services for plugins: path sandbox, secret redaction, egress check, overflow store.

Every runtime carries them as :attr:`tooldeck.runtime.Runtime.services` (``ctx.runtime.services``
in an executor, ``runtime.services`` in a hook). Each is built by the core from the
configuration, so it is there and enforced whether or not the built-in plugin that uses it
(``files``, ``web``, ``overflow``) is enabled; the built-in plugins use these same objects.
At registration time, before a runtime exists, ``Services.from_settings(settings)`` builds the
same thing from the ``settings`` a hook receives.

- ``paths``, :class:`PathService`: resolve a tool's path and check it for ``read``,
  ``write`` or ``delete`` with the file tools' rules (``[tools.file]``);
- ``redact``, :func:`tooldeck.secrets.redact`: replace secrets with ``[REDACTED:<rule>]``;
- ``egress``, :class:`EgressService`: may a URL or a host be contacted (the egress keys of
  ``[tools.scrape]``);
- ``overflow``, :class:`OverflowService`: keep a long text out of the model's context and
  read it back by its ``overflow:<id>`` (``[tools.overflow]``).

docs/services.md is generated from this module's docstrings (``scripts/services_doc.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs
import pydantic
from pydantic import Field

from tooldeck.config import PathSetting, Settings, StrictModel
from tooldeck.egress import (
    EgressPolicy,
    EgressVerdict,
    check_host,
    check_host_async,
    check_url,
    check_url_async,
    deck_resolver,
    policy_from_settings,
)
from tooldeck.errors import ConfigError, ToolError
from tooldeck.paths import Operation, PathSandbox
from tooldeck.sandbox import sandbox_from_settings
from tooldeck.secrets import redact
from tooldeck.state import SessionState, StashKey
from tooldeck.storage import session_storage

if TYPE_CHECKING:
    from tooldeck.storage_api import OverflowBackend, Storage

__all__ = [
    "OVERFLOW_SECTION",
    "EgressService",
    "OverflowService",
    "OverflowStoreSettings",
    "PathCheck",
    "PathService",
    "Services",
]

OVERFLOW_SECTION = "tools.overflow"
"""The section holding the overflow store's keys (the ``overflow`` plugin owns the others)."""


# --------------------------------------------------------------------------- paths


@attrs.frozen
class PathCheck:
    """The sandbox's verdict on one path, as ``tooldeck check path`` prints it.

    :param verdict: ``allow`` or ``deny``.
    :param resolved: the canonical path the operation would touch (``None`` when denied).
    :param reason: why: the root it lies in, or the message naming the rule that fired.
    :param category: for a denial, the error category label (``policy_blocked``,
        ``invalid_parameters`` or ``permanent_failure``).
    """

    verdict: Literal["allow", "deny"]
    resolved: Path | None
    reason: str
    category: str | None = None


class PathService:
    """The path sandbox of ``[tools.file]``, exactly as the file tools apply it.

    A relative path is joined to the working directory when that lies inside a root, else to
    the first root of ``allowed_paths``: ``resolve("app.db")`` is the file ``read app.db``
    opens and ``tooldeck check path app.db`` judges. Symlinks are followed before the roots
    and the ``deny_read`` globs are checked, so only the returned canonical path may be
    opened, never the raw string.

    :param sandbox: the sandbox (build one with :meth:`from_settings`).
    """

    def __init__(self, sandbox: PathSandbox) -> None:
        self._sandbox = sandbox

    @classmethod
    def from_settings(cls, settings: Settings, *,
                      roots: Sequence[str] | None = None) -> PathService:
        """The service for a configuration's ``[tools.file]``.

        :param settings: the validated configuration (a registration hook's ``settings``).
        :param roots: roots to use instead of ``allowed_paths`` (same relative-path rule).
        :returns: the service.
        :raises ConfigError: a sandbox key of ``[tools.file]`` does not validate.
        """
        return cls(sandbox_from_settings(settings, roots=roots))

    @property
    def sandbox(self) -> PathSandbox:
        """The underlying :class:`tooldeck.paths.PathSandbox` (globs, walks, containment)."""
        return self._sandbox

    @property
    def roots(self) -> tuple[Path, ...]:
        """The canonical roots, longest first."""
        return self._sandbox.roots

    @property
    def cwd(self) -> Path:
        """The directory relative paths are joined to."""
        return self._sandbox.cwd

    def resolve(self, path: str, op: Operation = "read") -> Path:
        """The canonical path to open for ``op``, or a refusal naming the rule.

        :param path: the path as the tool call gave it (relative, ``~``, ``..`` allowed).
        :param op: ``read`` (also applies ``deny_read``), ``write`` or ``delete`` (keeps the
            last component unresolved and refuses a root or its ancestors).
        :returns: the canonical path.
        :raises ToolError: ``policy_blocked`` outside the sandbox or read-denied,
            ``invalid_parameters`` for a malformed path, ``permanent_failure`` for a
            symlink loop; return it from your executor as it is.
        """
        return self._sandbox.resolve(path, op=op)

    def check(self, path: str, op: Operation = "read") -> PathCheck:
        """Judge a path without raising; nothing is touched.

        :param path: the path as a tool call would give it.
        :param op: see :meth:`resolve`.
        :returns: the verdict, the canonical path and the reason.
        """
        try:
            resolved = self._sandbox.resolve(path, op=op)
        except ToolError as exc:
            return PathCheck("deny", None, exc.message, exc.category.label)
        return PathCheck("allow", resolved,
                         f"{op} allowed inside {self._sandbox.root_of(resolved)}")


# --------------------------------------------------------------------------- egress


class EgressService:
    """The egress policy (``[tools.scrape]``'s egress keys): may this destination be contacted.

    The static checks open no connection; the ``_async`` ones may also resolve the host and
    judge every address, through the deck's resolver (tests install a stub with
    :func:`tooldeck.egress.use_resolver`).

    :param policy: the parsed policy.
    :param session: the deck's session state, for its resolver.
    """

    def __init__(self, policy: EgressPolicy, session: SessionState) -> None:
        self.policy = policy
        self._session = session

    def check_url(self, url: str) -> EgressVerdict:
        """Judge a URL with the static rules.

        :param url: the URL.
        :returns: the verdict (``allow`` or ``deny``; a host name is not resolved).
        """
        return check_url(url, self.policy)

    def check_host(self, host: str, port: int) -> EgressVerdict:
        """Judge a host and TCP port with the static rules.

        :param host: the host as written (IPv6 bracketed or not).
        :param port: the port.
        :returns: the verdict.
        """
        return check_host(host, port, self.policy)

    async def check_url_async(self, url: str, *, resolve: bool = True,
                              timeout: float | None = 2.0) -> EgressVerdict:
        """Judge a URL and, with ``resolve``, every address its host resolves to.

        :param url: the URL.
        :param resolve: resolve the host and judge its addresses.
        :param timeout: seconds the resolution may take (``unresolved`` past it).
        :returns: the verdict: ``allow``, ``deny`` or ``unresolved`` (treat as not allowed,
            or ask).
        """
        return await check_url_async(url, self.policy, resolve=resolve,
                                     resolver=deck_resolver(self._session), timeout=timeout)

    async def check_host_async(self, host: str, port: int, *, resolve: bool = True,
                               timeout: float | None = 2.0) -> EgressVerdict:
        """Judge a host and port and, with ``resolve``, every address it resolves to.

        :param host: the host as written.
        :param port: the port.
        :param resolve: resolve the host and judge its addresses.
        :param timeout: seconds the resolution may take.
        :returns: the verdict.
        """
        return await check_host_async(host, port, self.policy, resolve=resolve,
                                      resolver=deck_resolver(self._session), timeout=timeout)


# --------------------------------------------------------------------------- overflow


class OverflowStoreSettings(StrictModel):
    """The overflow store's keys of ``[tools.overflow]``."""

    retention_days: int = Field(7, ge=0, description="Entries older than this are deleted; "
                                "0 keeps them until the byte cap needs the room.")
    max_overflow_bytes: int = Field(
        10 * 1024 * 1024, ge=0,
        description="Bytes kept per session; the oldest entries go first (0 = unlimited).",
    )
    path: PathSetting | None = Field(
        None, description="The SQLite database (default: overflow.sqlite3 in the user data "
        "directory); a relative path is taken from the config file's directory.",
    )

    def database(self, config_dir: Path | None) -> Path:
        """Where the database lives, a relative ``path`` taken from ``config_dir``.

        :param config_dir: the configuration file's directory.
        :returns: the database path.
        """
        if self.path is None:
            from tooldeck.dirs import data_dir

            return data_dir() / "overflow.sqlite3"
        path = Path(self.path).expanduser()
        return path if path.is_absolute() or config_dir is None else config_dir / path

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> OverflowStoreSettings:
        """The store keys of a raw ``[tools.overflow]`` table, its other keys ignored.

        :param table: the raw table.
        :returns: the validated keys.
        :raises ConfigError: naming the dotted key of the first problem.
        """
        keys = {key: table[key] for key in cls.model_fields if key in table}
        try:
            return cls.model_validate(keys)
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ConfigError(f"[{OVERFLOW_SECTION}] {where}: {first['msg']}",
                              key=f"{OVERFLOW_SECTION}.{where}") from None


class _DeckStores:
    """The deck's own session scope, and the overflow stores it wrote to (to drop it there)."""

    def __init__(self) -> None:
        self.scope = "deck:" + uuid.uuid4().hex
        self._stores: list[OverflowBackend] = []

    def open(self, storage: Storage, path: Path,
             settings: OverflowStoreSettings) -> OverflowBackend:
        store = storage.overflow(path, retention_days=settings.retention_days,
                                 max_bytes=settings.max_overflow_bytes)
        if not any(known is store for known in self._stores):
            self._stores.append(store)
        return store

    async def aclose(self) -> None:
        """Drop the deck's own scope from every store it used (the backend closes them)."""
        stores, self._stores = self._stores, []
        for store in stores:
            store.drop_scope(self.scope)


_STORES: StashKey[_DeckStores] = StashKey("overflow.stores")


class OverflowService:
    """Long texts kept whole in the deck's overflow store, read back by reference.

    The store is the storage backend's (``runtime.storage``): embedded, one SQLite database
    per user (0600), opened on first use and kept open by the deck across hot reloads; with
    ``[storage] url``, shared by every worker of the namespace, so a reference one worker
    handed out is read by another. Every entry belongs to a scope: the call's ``caller_id``
    when it has one (one deck serving several conversations, or a fleet serving a caller),
    else the deck's own session, whose entries are deleted when the deck closes. A lookup
    from another scope finds nothing.

    :param settings: the store keys.
    :param session: the deck's session state (the open stores live there).
    :param config_dir: the configuration file's directory (a relative ``path``).
    """

    def __init__(self, settings: OverflowStoreSettings, session: SessionState,
                 config_dir: Path | None) -> None:
        self.settings = settings
        self._session = session
        self._config_dir = config_dir

    def _store(self, caller_id: str | None) -> tuple[OverflowBackend, str]:
        stores = self._session.setdefault(_STORES, _DeckStores)
        scope = f"caller:{caller_id}" if caller_id else stores.scope
        path = self.settings.database(self._config_dir)
        return stores.open(session_storage(self._session), path, self.settings), scope

    def put(self, text: str, *, tool: str, caller_id: str | None = None) -> str | None:
        """Store ``text`` with its secrets redacted.

        :param text: the text (redacted with :func:`tooldeck.secrets.redact` before it is
            written: the model may read it back).
        :param tool: the tool it came from (kept with the entry).
        :param caller_id: the call's ``caller_id`` (``call.caller_id``), for its scope.
        :returns: the reference ``overflow:<uuid>``, or ``None`` when the text alone is over
            ``max_overflow_bytes``.
        :raises OSError: the database cannot be written (disk full, unwritable).
        """
        store, scope = self._store(caller_id)
        return store.put(scope, tool, redact(text))

    def get(self, reference: str, *, caller_id: str | None = None) -> str | None:
        """The text stored under ``reference`` in the caller's scope.

        :param reference: ``overflow:<uuid>`` (or the bare UUID).
        :param caller_id: the call's ``caller_id``.
        :returns: the text, or ``None``: unknown, malformed, expired or another scope's
            reference all look the same.
        """
        store, scope = self._store(caller_id)
        return store.get(scope, reference)


# --------------------------------------------------------------------------- all of them


@attrs.frozen
class Services:
    """The core services of one runtime: ``runtime.services``.

    :param paths: the path sandbox.
    :param egress: the egress check.
    :param overflow: the overflow store.
    :param redact: secret redaction, ``redact(text) -> text``.
    """

    paths: PathService
    egress: EgressService
    overflow: OverflowService
    redact: Callable[[str], str] = redact

    @classmethod
    def from_settings(cls, settings: Settings,
                      session: SessionState | None = None) -> Services:
        """The services a configuration describes.

        :param settings: the validated configuration.
        :param session: the deck's session state (a fresh one when ``None``: an overflow
            store or a resolver then lives only as long as these services).
        :returns: the services.
        :raises ConfigError: a key a service reads does not validate.
        """
        state = SessionState() if session is None else session
        directory = settings.document.directory
        return cls(
            paths=PathService.from_settings(settings),
            egress=EgressService(policy_from_settings(settings), state),
            overflow=OverflowService(
                OverflowStoreSettings.from_table(settings.table(OVERFLOW_SECTION)), state,
                directory),
        )
