"""Built-in gate plugin ``egress``: shell commands meet the same egress policy as ``fetch``.

=================  ===========================================================================
module             job
=================  ===========================================================================
``destinations``   the URLs and hosts a command names (curl, git, pip, nc, ssh, /dev/tcp …)
``gate``           judges each with :mod:`tooldeck.egress`, static rules then resolution,
                   and writes the egress log records of shell calls
=================  ===========================================================================

The policy is the core's (:func:`tooldeck.egress.policy_from_settings`: the egress keys of
``[tools.scrape]``), so it applies whether or not the web plugin is enabled. The plugin owns
``[tools.egress]``, the egress log (:mod:`tooldeck.egress.log`; the web plugin writes its
hops there too), and must be listed in the entry-point group ``tooldeck.gates``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.egress]``: the egress log."""
    from tooldeck.egress.log import LOG_SECTION, EgressLogSettings

    register(LOG_SECTION, EgressLogSettings)


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Register this runtime's egress gate, built from the core egress policy."""
    from tooldeck.egress import policy_from_settings
    from tooldeck.egress.log import egress_log_from_settings
    from tooldeck.plugins.egress.gate import EgressGate

    wrappers = settings.table("tools.shell").get("extra_wrappers", ())
    if not isinstance(wrappers, (list, tuple)):
        wrappers = ()
    register(EgressGate(policy_from_settings(settings),
                        [w for w in wrappers if isinstance(w, str)],
                        log=egress_log_from_settings(settings)))
