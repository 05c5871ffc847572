"""``[tools.anomaly]``: the anomaly detector's window and thresholds, validated."""

from __future__ import annotations

from pydantic import Field, model_validator

from tooldeck.config import StrictModel

__all__ = ["SECTION", "AnomalySettings"]

SECTION = "tools.anomaly"


class AnomalySettings(StrictModel):
    """``[tools.anomaly]``: when a caller's failing calls make it untrusted."""

    enabled: bool = Field(
        False, description="Watch each caller's outcomes; at the critical rate the caller is "
        "blocked until an operator resets it (tooldeck trust reset).",
    )
    window_size: int = Field(
        10, ge=3, le=10_000, description="Outcomes remembered per caller (the newest ones).")
    error_threshold: float = Field(
        0.5, gt=0, le=1, description="Failure rate that raises a warning (audited).")
    critical_threshold: float = Field(
        0.8, gt=0, le=1, description="Failure rate that blocks the caller.")
    reasoning_model_warning: bool = Field(
        True, description="Audit an anomaly.reasoning_amplification warning when a reasoning "
        "model's call fails for its own quality (unknown tool, bad or mistyped parameters): "
        "such models amplify tool misuse (Zeph).")

    @model_validator(mode="after")
    def _ordered(self) -> AnomalySettings:
        if self.error_threshold > self.critical_threshold:
            raise ValueError("error_threshold must not exceed critical_threshold")
        return self
