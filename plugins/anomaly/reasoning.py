"""Reasoning models, whose malformed tool calls the detector calls out (Zeph's rule).

A call's model is known when an agent loop's message adapter read it from the provider's
response (:attr:`tooldeck.models.ToolCall.model`, audited as ``model``). A reasoning model's
call that fails for its own quality — an unknown tool, bad or mistyped parameters — counts as
an error like any other, and is audited as an ``anomaly.reasoning_amplification`` warning.
"""

from __future__ import annotations

__all__ = ["QUALITY_FAILURES", "is_reasoning_model"]

QUALITY_FAILURES = frozenset({"tool_not_found", "invalid_parameters", "type_mismatch"})
"""The error categories that are the model's own mistake."""


def is_reasoning_model(name: str) -> bool:
    """Whether a model name is a reasoning model's, by Zeph's rule (lowercased).

    Names starting ``o1``, ``o3`` or ``o4``; containing ``qwq``, ``deepseek-r1`` or
    ``deepseek_r1``; or starting ``claude`` and containing ``think``. ``gpt-4o`` and
    ``qwen2.5:14b`` are not.

    :param name: the model name as the provider reports it.
    :returns: ``True`` for a reasoning model.
    """
    lower = name.lower()
    return (lower.startswith(("o1", "o3", "o4"))
            or any(mark in lower for mark in ("qwq", "deepseek-r1", "deepseek_r1"))
            or (lower.startswith("claude") and "think" in lower))
