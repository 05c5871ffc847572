"""``[tools.risk_chain]``: the risk chain gate's configuration, validated."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["SECTION", "RiskChainSettings", "TagExample"]

SECTION = "tools.risk_chain"


TagName = Literal["network_egress", "sensitive_read", "credential_access", "system_write",
                  "process_control"]


class TagExample(StrictModel):
    """One ``[[tools.risk_chain.examples]]`` table: a call and the tags it must get."""

    tool: str = Field(min_length=1, description="The tool called.")
    input: str = Field(description="Its input (command, path or URL), as in an audit record.")
    tags: tuple[TagName, ...] = Field(description="Exactly the tags the call must get.")


class RiskChainSettings(StrictModel):
    """``[tools.risk_chain]``: when a run of calls adds up to an exfiltration pattern."""

    threshold: float = Field(
        0.7, gt=0, description="A tagged call whose chain scores this much or more is denied."
    )
    max_calls: int = Field(
        20, ge=1, description="Tagged calls remembered per caller; the oldest is forgotten."
    )
    window_turns: int = Field(
        3, ge=0, description="Calls more than this many turns older than the current call "
        "are forgotten (only for calls that carry a turn)."
    )
    shell_tools: tuple[str, ...] = Field(
        ("bash",), description="Tools whose input is a shell command, analysed as such."
    )
    egress_tools: tuple[str, ...] = Field(
        ("fetch", "web_scrape"), description="Tools that send requests out (network egress)."
    )
    examples: tuple[TagExample, ...] = Field(
        (), description="Calls and the exact tags they must get; checked on every load and "
        "reload ([[tools.risk_chain.examples]]).")
