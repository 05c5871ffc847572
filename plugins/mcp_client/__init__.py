"""Built-in plugin ``mcp_client``: the tools of MCP servers, in the deck, behind its gates.

Servers are listed in ``[[mcp.servers]]`` (:mod:`.settings`); each server's tool ``t``
becomes the deck tool ``mcp_<server>__<t>`` with the server's input schema, and every call
goes through the same pipeline as any tool: parameter validation, the gates (permission
rules, this plugin's trust gate, …), confirmation, output filters, the audit (with
``mcp_server_id``). docs/mcp.md ("MCP client") has the whole story.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
no servers, no cost    without ``[[mcp.servers]]`` the plugin registers nothing and never
                       imports the MCP SDK
blocked: not started   a server with ``trust = "blocked"`` is never started: none of its
                       code runs and none of its tools is offered
start at build         the other servers are started, all at once, when the runtime is built,
                       because their tools must be listed to be registered; the build waits
                       at most ``[mcp] startup_timeout_secs`` (default 10 s); a server not
                       up by then contributes no tools to this runtime (a warning says so,
                       and a reload tries again)
one pool per runtime   a reload starts the new runtime's servers; the old ones stop when the
                       old runtime retires (its calls done); ``deck.aclose()`` stops all
trust                  :mod:`.gate`: quarantined (the default) and blocked servers' tools are
                       denied and hidden; verified and trusted ones go to the other gates
screening              :mod:`tooldeck.screening` / :mod:`.tools`: a tool whose description
                       or schema carries instructions for the model is withheld unless
                       ``allow_flagged_tools`` names it; reported once per deck on stderr
                       and audited as ``mcp.tool_flagged``
crashes                :mod:`.connection`: calls to a server that went down fail with
                       ``server_error`` while it restarts with exponential backoff
=====================  ===================================================================
"""

from __future__ import annotations

import asyncio
import os
import sys
import weakref
from collections.abc import Callable, Mapping

import attrs

from tooldeck import hookimpl
from tooldeck.audit import runtime_event
from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.plugins.mcp_client.connection import Wait
from tooldeck.plugins.mcp_client.executor import McpExecutor
from tooldeck.plugins.mcp_client.gate import TrustGate
from tooldeck.plugins.mcp_client.pool import ServerPool
from tooldeck.plugins.mcp_client.settings import SECTION, McpSettings
from tooldeck.plugins.mcp_client.tools import Built, Flagged, build_tools, declared_tool, tool_id
from tooldeck.runtime import Runtime, StashKey

__all__ = ["POOL", "McpClientPlugin", "plugin"]

POOL = StashKey[ServerPool]("mcp_client.pool")
"""The runtime's server pool (set when the runtime is configured)."""

_REPORTED = StashKey[set[tuple[str, str, tuple[str, ...]]]]("mcp_client.reported")


@attrs.define
class _Build:
    """What one runtime build of this plugin holds until the runtime is configured."""

    pool: ServerPool
    executor: McpExecutor
    built: list[Built] = attrs.field(factory=list)
    warnings: list[str] = attrs.field(factory=list)


def _require_sdk(settings: Settings) -> None:
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise ConfigError(f"{settings.document.label}: mcp.servers: the MCP client needs the "
                          "official SDK: pip install 'tooldeck[mcp]'",
                          path=settings.document.label, key="mcp.servers") from None


class McpClientPlugin:
    """The plugin; the entry point is its default instance, :data:`plugin`.

    :param wait: how restart backoff delays are waited out (``asyncio.sleep``; tests pass
        a wait they release themselves).
    :param environ: where ``headers_from_env`` values are read (default ``os.environ``).
    """

    def __init__(self, *, wait: Wait = asyncio.sleep,
                 environ: Mapping[str, str] | None = None) -> None:
        self._wait = wait
        self._environ = environ
        self._pending: dict[int, _Build] = {}

    def _build_for(self, settings: Settings) -> _Build | None:
        """The state of the build of ``settings``, made by the first hook that needs it.

        ``None`` when no server is configured.
        """
        config = settings.get(McpSettings)
        if not config.servers:
            return None
        key = id(settings)
        build = self._pending.get(key)
        if build is None:
            _require_sdk(settings)
            started = [server for server in config.servers if server.trust != "blocked"]
            pool = ServerPool(started, startup_timeout=config.startup_timeout_secs,
                              wait=self._wait,
                              environ=os.environ if self._environ is None else self._environ)
            build = self._pending[key] = _Build(pool, McpExecutor(pool))
            # A runtime nobody closes (a build a later plugin refused, a runtime dropped
            # without aclose, one still open at exit) stops its servers when its settings go.
            weakref.finalize(settings, self._settings_gone, key, pool)
        return build

    def _settings_gone(self, key: int, pool: ServerPool) -> None:
        self._pending.pop(key, None)
        pool.close_sync()

    @hookimpl
    def tooldeck_register_settings(self, register: Callable[..., None]) -> None:
        """Own ``[mcp]``."""
        register(SECTION, McpSettings)

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None],
                                    settings: Settings) -> None:
        """Register the executor of this runtime's servers."""
        build = self._build_for(settings)
        if build is not None:
            register(build.executor)

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None],
                                settings: Settings) -> None:
        """Start the servers, list their tools and register them (see the module rules)."""
        build = self._build_for(settings)
        if build is None:
            return
        servers = settings.get(McpSettings).servers
        for server in servers:
            if server.trust == "blocked":
                build.warnings.append(f"mcp server {server.name!r} is blocked: it is not "
                                      "started and none of its tools is offered")
                for tid in _named_in_rules(settings, server.name):
                    register(declared_tool(tid, server, "server is blocked"), available=False)
        config = {s.name: s for s in servers}
        for listing in build.pool.start():
            server = config[listing.server]
            if listing.error is not None:
                build.warnings.append(
                    f"mcp server {server.name!r} did not start, its tools are unavailable "
                    f"until a reload: {listing.error}")
                for tid in _named_in_rules(settings, server.name):
                    register(declared_tool(tid, server, "server did not start"),
                             available=False)
                continue
            built = build_tools(server, listing.tools, network=server.url is not None)
            build.built.append(built)
            build.warnings.extend(built.warnings)
            for tool in built.offered:
                register(tool)
            for tool in built.withheld:
                register(tool, available=False)

    @hookimpl
    def tooldeck_register_gates(self, register: Callable[..., None], settings: Settings) -> None:
        """The trust gate, when servers are configured."""
        if settings.get(McpSettings).servers:
            register(TrustGate())

    @hookimpl(trylast=True)
    def tooldeck_configure(self, runtime: Runtime) -> None:
        """Hand the pool to the runtime; report flagged tools and servers held back by trust.

        Runs after the other plugins' configure, so that audit sinks are open.
        """
        build = self._pending.pop(id(runtime.settings), None)
        if build is None:
            return
        runtime.stash_set(POOL, build.pool)
        for line in build.warnings:
            runtime.warn(line)
        reported = runtime.session.setdefault(_REPORTED, set)
        for built in build.built:
            for flag in built.flagged:
                _report_flag(runtime, flag, reported)
        for server in runtime.settings.get(McpSettings).servers:
            if server.trust == "quarantined":
                count = sum(1 for t in runtime.tools.values()
                            if t.source == f"mcp:{server.name}")
                runtime.warn(f"mcp server {server.name!r} is quarantined: its {count} tools "
                             "are hidden and denied (set trust = \"verified\" to use them)")


def _report_flag(runtime: Runtime, flag: Flagged,
                 reported: set[tuple[str, str, tuple[str, ...]]]) -> None:
    """Warn about a flagged tool once per deck, on stderr and in the audit."""
    key = (flag.server, flag.tool, flag.rules)
    what = "offered anyway (allow_flagged_tools)" if flag.allowed else "withheld"
    line = (f"mcp server {flag.server!r}: tool {flag.tool!r} is {what}: its description "
            f"trips screening rules {', '.join(flag.rules)}")
    runtime.warn(line)
    if key in reported:
        return
    reported.add(key)
    print(f"tooldeck: warning: {line}", file=sys.stderr)
    runtime.hooks.audit(runtime_event("mcp.tool_flagged", {
        "mcp_server_id": flag.server, "tool": tool_id(flag.server, flag.tool),
        "rules": list(flag.rules), "action": "allowed" if flag.allowed else "withheld",
    }), runtime)


def _named_in_rules(settings: Settings, server: str) -> list[str]:
    """Tool ids of ``server`` that ``[tools.permissions]`` names (kept valid while it is down)."""
    prefix = tool_id(server, "")
    return sorted(k for k in settings.table("tools.permissions") if k.startswith(prefix))


plugin = McpClientPlugin()
"""The instance the ``mcp_client`` entry point loads."""
