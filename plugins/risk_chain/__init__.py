"""Built-in gate plugin ``risk_chain``: denies the call that completes an exfiltration chain.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.risk_chain]``, validated
``tags``           what one call is tagged with (network egress, sensitive read, …)
``chain``          the per-caller history of tagged calls and the score of a chain
``gate``           the gate: tag, score with the history, deny at the threshold, remember
``examples``       ``[[tools.risk_chain.examples]]``: the tags calls must get, checked on load
=================  ===========================================================================

One call looks harmless (``cat .env``; ``curl https://example.com``); the sequence is how data
leaves. Each call is tagged, its tags are added to those of the caller's recent tagged calls,
chains such as "a sensitive read, then network egress" add a bonus, and a call that brings the
score to ``threshold`` (0.7) or more is denied with ``risk chain blocked: <chain> (score
x.xx)``. The history belongs to the deck, so a policy reload does not wipe it; calls age out
by turn (:attr:`tooldeck.models.ToolCall.turn`) and by count. The plugin must be listed in the
entry-point group ``tooldeck.gates``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings
    from tooldeck.runtime import Runtime


def _extra_wrappers(settings: Settings) -> list[str]:
    """``[tools.shell] extra_wrappers``, so the gate sees through wrapped commands."""
    wrappers = settings.table("tools.shell").get("extra_wrappers", ())
    if not isinstance(wrappers, (list, tuple)):
        return []
    return [w for w in wrappers if isinstance(w, str)]


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.risk_chain]``."""
    from tooldeck.plugins.risk_chain.settings import SECTION, RiskChainSettings

    register(SECTION, RiskChainSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register this runtime's risk chain gate (the history it reads is the deck's)."""
    from tooldeck.plugins.risk_chain.gate import RiskChainGate
    from tooldeck.plugins.risk_chain.settings import RiskChainSettings

    register(RiskChainGate(settings.get(RiskChainSettings), _extra_wrappers(settings)))


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Check the ``[[tools.risk_chain.examples]]`` tags (refuse the runtime on a failure)."""
    from tooldeck.plugins.risk_chain.examples import check_tag_examples
    from tooldeck.plugins.risk_chain.gate import RiskChainGate
    from tooldeck.plugins.risk_chain.settings import RiskChainSettings

    settings = runtime.settings
    examples = settings.get(RiskChainSettings).examples
    if examples:
        gate = RiskChainGate(settings.get(RiskChainSettings), _extra_wrappers(settings))
        runtime.count_examples("risk chain tag examples",
                               check_tag_examples(runtime, gate, examples))
