"""Built-in gate plugin ``verifiers``: Zeph's pre-execution verifiers, each switched on its own.

=================  ============================================================================
module             job
=================  ============================================================================
``settings``       ``[tools.verifiers]`` and its four tables, validated
``outcome``        allow / warn / block, and the verifier protocol
``destructive``    disk- and system-wrecking shell commands (on by default)
``injection``      SQL, chaining and traversal payloads in arguments (on by default)
``url_grounding``  fetch only URLs the user wrote (off by default: needs the agent's help)
``firewall``       sensitive paths, traversal, secret env references (on by default)
``gate``           runs the enabled ones: a block denies, a warning is audited
=================  ============================================================================

docs/verifiers.md is the user's page. The plugin is listed in the entry-point group
``tooldeck.gates``: it failing to import refuses to start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.verifiers]``."""
    from tooldeck.plugins.verifiers.settings import SECTION, VerifierSettings

    register(SECTION, VerifierSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Build the enabled verifiers into this runtime's gate (none: no gate)."""
    from tooldeck.errors import ConfigError
    from tooldeck.paths import lexical_normalize
    from tooldeck.plugins.verifiers.destructive import DestructiveCommandVerifier
    from tooldeck.plugins.verifiers.firewall import FirewallVerifier
    from tooldeck.plugins.verifiers.gate import VerifierGate
    from tooldeck.plugins.verifiers.injection import InjectionPatternVerifier
    from tooldeck.plugins.verifiers.outcome import Verifier
    from tooldeck.plugins.verifiers.settings import VerifierSettings
    from tooldeck.plugins.verifiers.url_grounding import UrlGroundingVerifier

    config = settings.get(VerifierSettings)
    if not config.enabled:
        return
    verifiers: list[Verifier] = []
    try:
        if config.destructive.enabled:
            d = config.destructive
            verifiers.append(DestructiveCommandVerifier(
                d.shell_tools, d.extra_patterns,
                [str(lexical_normalize(p)) for p in d.allowed_paths]))
        if config.injection.enabled:
            i = config.injection
            verifiers.append(InjectionPatternVerifier(
                i.exempt_fields, i.shell_tools, i.extra_patterns, i.allowlisted_urls))
        if config.url_grounding.enabled:
            verifiers.append(UrlGroundingVerifier(config.url_grounding.tools))
        if config.firewall.enabled:
            f = config.firewall
            verifiers.append(FirewallVerifier(f.exempt_tools, f.blocked_paths,
                                              f.blocked_env_vars))
    except ConfigError as exc:
        label = settings.document.label
        raise ConfigError(f"{label}: {exc}", path=label, key=exc.key) from None
    exempt = frozenset(config.exempt_tools)
    skips = {name: exempt for name in ("destructive", "injection", "firewall")}
    if verifiers:
        register(VerifierGate(verifiers, skips, skip_own_tools=not config.check_own_tools))
