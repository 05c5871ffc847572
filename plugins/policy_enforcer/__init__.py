"""Built-in gate plugin ``policy_enforcer``: declarative deny-wins rules from ``[tools.policy]``.

=================  ============================================================================
module             job
=================  ============================================================================
``settings``       ``[tools.policy]`` and one rule, validated; the limits
``paths``          the paths and URLs a call names, lexically normalised
``rules``          rules compiled (globs, RE2) and judged: deny wins, first allow, default
``policy_file``    ``policy_file`` loaded under its limits (root, size, format)
``gate``           the gate: generic message to the model, the trace in the audit record
=================  ============================================================================

Disabled unless ``[tools.policy] enabled = true``; then every call is judged, confirmed or
not, and a deny is never confirmable. docs/policy_enforcer.md is the user's page. The plugin
is listed in the entry-point group ``tooldeck.gates``: it failing to import refuses to start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings
    from tooldeck.runtime import Runtime


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.policy]``."""
    from tooldeck.plugins.policy_enforcer.settings import SECTION, PolicySettings

    register(SECTION, PolicySettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Compile the policy (inline rules or its file) into this runtime's gate, when enabled."""
    from tooldeck.plugins.policy_enforcer.gate import PolicyGate
    from tooldeck.plugins.policy_enforcer.policy_file import (
        load_policy_file,
        resolve_policy_file,
    )
    from tooldeck.plugins.policy_enforcer.rules import compile_policy
    from tooldeck.plugins.policy_enforcer.settings import SECTION, PolicySettings

    policy = settings.get(PolicySettings)
    if not policy.enabled:
        return
    label = settings.sources.get(f"{SECTION}.rules", settings.document.label)
    rules, key, path = policy.rules, f"{SECTION}.rules", None
    if policy.policy_file is not None:
        path = resolve_policy_file(policy.policy_file, settings)
        rules, label, key = load_policy_file(path, settings), str(path), "rules"
    register(PolicyGate(compile_policy(rules, label, key), policy.default_effect, label, path))


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Record the policy file so a reload re-reads it and its deletion never loosens."""
    from tooldeck.plugins.policy_enforcer.gate import PolicyGate

    for plugin in runtime.pm.get_plugins():
        if isinstance(plugin, PolicyGate) and plugin.policy_file is not None:
            runtime.add_policy_file(plugin.policy_file)
