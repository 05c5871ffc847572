"""Built-in gate plugin ``scopes``: per-task tool scopes over namespaced tool ids (Zeph §7.7).

=================  ============================================================================
module             job
=================  ============================================================================
``settings``       ``[tools.scopes]``, validated
``ids``            namespaced ids (``builtin:read``, ``mcp:github/search``) and namespaces
``compile``        scopes compiled against the registry; dead and whole-registry patterns
``active``         the scope in force, per deck and per caller, kept across reloads
``gate``           out-of-scope calls denied, out-of-scope tools hidden
=================  ============================================================================

:func:`use_scope` is the public way to switch scopes at runtime. With no ``tasks`` and the
default scope ``general`` the plugin changes nothing. docs/scopes.md is the user's page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings
    from tooldeck.runtime import Runtime

__all__ = ["use_scope"]


def use_scope(runtime: Runtime, name: str | None, *, caller_id: str | None = None) -> None:
    """Put task scope ``name`` in force for the deck (or one caller), from the next call on.

    The choice lives in the deck's session state: it survives hot reloads, and a reload whose
    configuration drops a chosen scope is refused.

    :param runtime: the deck's current runtime (``deck.runtime``).
    :param name: a scope of ``[tools.scopes.tasks]``, ``"general"``, or ``None`` to go back to
        ``default_scope``.
    :param caller_id: the caller to scope; ``None`` scopes the deck (and the catalog).
    :raises KeyError: no such scope (nothing changes), or the scopes plugin is not running.
    """
    from tooldeck.plugins.scopes.active import ACTIVE, ActiveScopes

    gate = _gate(runtime)
    if name is not None and name not in gate.scopes:
        raise KeyError(f"unknown scope {name!r}; defined: {', '.join(sorted(gate.scopes))}")
    runtime.session.setdefault(ACTIVE, ActiveScopes).choose(name, caller_id)


def _gate(runtime: Runtime) -> Any:
    from tooldeck.plugins.scopes.gate import ScopeGate

    for plugin in runtime.pm.get_plugins():
        if isinstance(plugin, ScopeGate):
            return plugin
    raise KeyError("the scopes plugin is not running")


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.scopes]``."""
    from tooldeck.plugins.scopes.settings import SECTION, ScopeSettings

    register(SECTION, ScopeSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register the scope gate (bound to the compiled scopes at configure time)."""
    from tooldeck.plugins.scopes.gate import ScopeGate
    from tooldeck.plugins.scopes.settings import ScopeSettings

    register(ScopeGate(settings.get(ScopeSettings).default_scope, settings.document.label))


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Compile the scopes against the registry; refuse unknown or dropped scope names.

    :raises ConfigError: a bad pattern (see :mod:`tooldeck.plugins.scopes.compile`), a
        ``default_scope`` that is not defined, or a scope chosen at runtime that the new
        configuration no longer defines (the reload is refused; the last good policy stays).
    """
    from tooldeck.errors import ConfigError
    from tooldeck.plugins.scopes.active import ACTIVE, ActiveScopes
    from tooldeck.plugins.scopes.compile import compile_scopes
    from tooldeck.plugins.scopes.settings import SECTION, ScopeSettings

    settings = runtime.settings.get(ScopeSettings)
    label = runtime.settings.document.label
    scopes, warnings = compile_scopes(settings.tasks, runtime.tools, settings.mode, label)
    for warning in warnings:
        runtime.warn(warning)
    if settings.default_scope not in scopes:
        raise ConfigError(f"{label}: {SECTION}.default_scope: unknown scope "
                          f"{settings.default_scope!r}; defined: {', '.join(sorted(scopes))}",
                          path=label, key=f"{SECTION}.default_scope")
    dropped = runtime.session.setdefault(ACTIVE, ActiveScopes).chosen() - set(scopes)
    if dropped:
        raise ConfigError(f"{label}: {SECTION}.tasks: scope {', '.join(sorted(dropped))} is in "
                          "use (chosen with use_scope) and no longer defined",
                          path=label, key=f"{SECTION}.tasks")
    _gate(runtime).bind(scopes)
