"""``[tools.result_cache]``: whether results are reused, and for how long."""

from __future__ import annotations

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["SECTION", "ResultCacheSettings"]

SECTION = "tools.result_cache"


class ResultCacheSettings(StrictModel):
    """``[tools.result_cache]``: the result cache (Zeph's semantics plus file freshness)."""

    enabled: bool = Field(True, description="Reuse results of read-only tools.")
    ttl_secs: int = Field(
        300, ge=0, le=86_400,
        description="An entry older than this many seconds is dropped; 0 expires every "
        "entry at once (nothing is served), as Zeph's cache does.",
    )
