"""Built-in gate plugin ``anomaly``: a caller whose calls keep failing loses its trust.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.anomaly]``, validated
``window``         a caller's recent outcomes and the alert their failure rate raises
``watch``          the deck's memory: windows, calls awaiting their outcome, blocks
``detector``       the gate, the audit observer and the ``tooldeck_trust_level`` answer
=================  ===========================================================================

Off by default (``[tools.anomaly] enabled = true`` turns it on): unlike Zeph's per-session
detector, a block here is kept in the user's trust state (:mod:`tooldeck.trust_state`) until
an operator resets it, so turning it on is the operator's decision. The plugin must be listed
in the entry-point group ``tooldeck.gates``. See docs/trust.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.anomaly]``."""
    from tooldeck.plugins.anomaly.settings import SECTION, AnomalySettings

    register(SECTION, AnomalySettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register this runtime's detector (its memory is the deck's)."""
    from tooldeck.plugins.anomaly.detector import AnomalyDetector
    from tooldeck.plugins.anomaly.settings import AnomalySettings

    register(AnomalyDetector(settings.get(AnomalySettings)))
