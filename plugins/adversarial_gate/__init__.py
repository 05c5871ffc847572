"""Built-in gate plugin ``adversarial_gate``: an LLM judge that may veto tool calls (Zeph §7.5).

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.adversarial_policy]``, validated
``prompt``         the judge's messages, parameter sanitisation and reply parsing (pure)
``client``         one chat-completions request under a strict total timeout
``gate``           the vote: deny or abstain, never allow
=================  ===========================================================================

Off by default. When on, every non-exempt call costs one request to the configured
OpenAI-compatible endpoint; the judge can only add a deny to what the deterministic gates
decide. The plugin must be listed in the entry-point group ``tooldeck.gates``. See
docs/adversarial_gate.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings
    from tooldeck.runtime import Runtime


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.adversarial_policy]``."""
    from tooldeck.plugins.adversarial_gate.settings import SECTION, AdversarialPolicySettings

    register(SECTION, AdversarialPolicySettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register the judge when enabled: its policy file read, its API key from the environment."""
    from tooldeck.plugins.adversarial_gate.gate import AdversarialGate, api_key_from
    from tooldeck.plugins.adversarial_gate.policy_file import load_policies
    from tooldeck.plugins.adversarial_gate.settings import SECTION, AdversarialPolicySettings

    section = settings.get(AdversarialPolicySettings)
    if not section.enabled:
        return
    try:
        api_key = api_key_from(section)
    except KeyError as exc:
        from tooldeck.errors import ConfigError

        label = settings.document.label
        raise ConfigError(f"{label}: {SECTION}.api_key_env: the environment variable "
                          f"{exc.args[0]} is not set", path=label,
                          key=f"{SECTION}.api_key_env") from None
    policies, path = load_policies(section.policy_file, settings)
    source = str(path) if path is not None else settings.origin(f"{SECTION}.enabled")
    register(AdversarialGate(section, policies, api_key, source, path))


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Record the policy file, so that deleting it refuses a reload rather than loosening."""
    from tooldeck.plugins.adversarial_gate.gate import AdversarialGate

    for plugin in runtime.pm.get_plugins():
        if isinstance(plugin, AdversarialGate) and plugin.policy_file is not None:
            runtime.add_policy_file(plugin.policy_file)
