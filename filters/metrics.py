"""Counters over many filtered outputs (commands seen, filtered, characters saved, confidence)."""

from __future__ import annotations

import logging

import attrs

from tooldeck.filters.confidence import FilterConfidence

__all__ = ["FilterMetrics"]

logger = logging.getLogger("tooldeck.filters")

_LOG_EVERY = 50


@attrs.define
class FilterMetrics:
    """Running totals of the filter engine; a debug line is logged every 50 commands.

    :param total_commands: outputs seen.
    :param filtered_commands: outputs made shorter.
    :param skipped_commands: outputs no rule matched.
    :param raw_chars_total: characters received.
    :param filtered_chars_total: characters returned.
    :param confidence_counts: how many pipelines ended at each confidence.
    """

    total_commands: int = 0
    filtered_commands: int = 0
    skipped_commands: int = 0
    raw_chars_total: int = 0
    filtered_chars_total: int = 0
    confidence_counts: dict[FilterConfidence, int] = attrs.field(
        factory=lambda: dict.fromkeys(FilterConfidence, 0)
    )

    def record(
        self, raw_chars: int, filtered_chars: int, confidence: FilterConfidence | None
    ) -> None:
        """Count one output.

        :param raw_chars: characters received.
        :param filtered_chars: characters returned.
        :param confidence: the pipeline's confidence, ``None`` when no rule matched.
        """
        self.total_commands += 1
        self.raw_chars_total += raw_chars
        self.filtered_chars_total += filtered_chars
        if confidence is None:
            self.skipped_commands += 1
        else:
            self.confidence_counts[confidence] += 1
        if filtered_chars < raw_chars:
            self.filtered_commands += 1
        if self.total_commands % _LOG_EVERY == 0:
            logger.debug(
                "filter metrics: %d commands, %d filtered, %.1f%% saved",
                self.total_commands,
                self.filtered_commands,
                self.savings_percent,
            )

    @property
    def savings_percent(self) -> float:
        """Characters saved overall, in percent (0 when nothing was seen).

        :returns: the percentage.
        """
        if self.raw_chars_total == 0:
            return 0.0
        return (1 - self.filtered_chars_total / self.raw_chars_total) * 100
