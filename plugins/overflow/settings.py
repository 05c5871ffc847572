"""``[tools.overflow]``: when output is too long for the model, and how long it is kept."""

from __future__ import annotations

from pydantic import Field

from tooldeck.services import OVERFLOW_SECTION, OverflowStoreSettings

__all__ = ["SECTION", "OverflowSettings"]

SECTION = OVERFLOW_SECTION


class OverflowSettings(OverflowStoreSettings):
    """``[tools.overflow]``: the overflow store behind ``read_overflow``.

    The store keys (``retention_days``, ``max_overflow_bytes``, ``path``) are the core's
    (:class:`tooldeck.services.OverflowStoreSettings`): the plugin stores through the core's
    overflow service, like any plugin.
    """

    enabled: bool = Field(True, description="Store long and filtered outputs for read_overflow.")
    threshold: int = Field(
        50_000, ge=1000,
        description="Outputs longer than this (characters) are stored; the model gets the "
        "head, the tail and an overflow:<id> reference.",
    )
    keep_filtered: bool = Field(
        True, description="Also store the unfiltered output whenever a filter shortened it, "
        "so the lines a filter omitted stay retrievable.",
    )
