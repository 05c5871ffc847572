"""Built-in gate plugin ``utility``: skip the calls of a user turn not worth making (Zeph §7.6).

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.utility]``, validated (weights finite and ≥ 0)
``score``          the gain table, the score and the decision order (pure)
``explicit``       does the user's message ask for a tool? (RE2 phrases)
``gate``           the probe: score, remember, audit, skip, end the turn
=================  ===========================================================================

Off by default. It is a loop heuristic, not a security gate: it reads the user turn the host
hands the deck (:mod:`tooldeck.turns`; the tool loop does it for every run) and only ever
skips calls the policy would have run. The plugin must be listed in the entry-point group
``tooldeck.gates``. See docs/utility_gate.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings
    from tooldeck.runtime import Runtime


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.utility]``."""
    from tooldeck.plugins.utility.settings import SECTION, UtilitySettings

    register(SECTION, UtilitySettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register the gate when enabled (rule 2: a disabled gate lets every call run)."""
    from tooldeck.plugins.utility.gate import UtilityGate
    from tooldeck.plugins.utility.settings import SECTION, UtilitySettings

    section = settings.get(UtilitySettings)
    if section.enabled:
        register(UtilityGate(section, settings.origin(f"{SECTION}.enabled")))


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Say that calls made outside a user turn are not scored, when the gate is on."""
    from tooldeck.plugins.utility.settings import UtilitySettings

    if runtime.settings.get(UtilitySettings).enabled:
        runtime.warn("[tools.utility] is enabled: it scores the calls made inside a user turn "
                     "(tooldeck.loop.ToolLoop, Deck.turn); calls made outside one run "
                     "unscored, each audited as a utility.verdict with rule no-turn")
