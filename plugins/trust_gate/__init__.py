"""Built-in gate plugin ``trust_gate``: trust levels per tool source and caller, enforced.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.trust]``, validated
``levels``         the level of a call: its tool's source and its caller, from configuration
                   and the run-time rows
``gate``           what each level denies (Zeph's TrustGate), and the ``tooldeck_trust_level``
                   answer
``api``            changing levels at run time from Python (:func:`set_trust`,
                   :func:`reset_trust`), audited
``cli``            ``tooldeck trust list | set | reset``
=================  ===========================================================================

Tools of tooldeck's own plugins are ``trusted``; tools of MCP servers and skills are
``quarantined`` (read-only tools only) until ``[tools.trust] sources`` says otherwise. Run-time
changes live in :mod:`tooldeck.trust_state`, shared by every process of the user, so a
``tooldeck trust reset`` in a terminal applies to a running deck at its next call. The plugin
must be listed in the entry-point group ``tooldeck.gates``. See docs/trust.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.trust]``."""
    from tooldeck.plugins.trust_gate.settings import SECTION, TrustSettings

    register(SECTION, TrustSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register this runtime's trust gate (the run-time rows it reads are the user's)."""
    from tooldeck.plugins.trust_gate.gate import TrustGate
    from tooldeck.plugins.trust_gate.settings import TrustSettings

    register(TrustGate(settings.get(TrustSettings)))
