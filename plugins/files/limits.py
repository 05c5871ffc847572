"""Shared limits and parameter checks of the file tools."""

from __future__ import annotations

from tooldeck.errors import ErrorCategory, ToolError

__all__ = ["DEFAULT_MAX_READ_BYTES", "require_non_negative", "require_positive"]

DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024
"""The default cap on how many bytes one file read may load (10 MiB)."""


def require_non_negative(name: str, value: int | None) -> None:
    """Reject a negative optional integer parameter.

    :param name: the parameter's name, for the message.
    :param value: its value (``None`` passes).
    :raises ToolError: ``invalid_parameters``.
    """
    if value is not None and value < 0:
        raise ToolError(ErrorCategory.INVALID_PARAMETERS, f"{name} must be >= 0, got {value}")


def require_positive(name: str, value: int) -> None:
    """Reject an integer parameter below 1.

    :param name: the parameter's name, for the message.
    :param value: its value.
    :raises ToolError: ``invalid_parameters``.
    """
    if value < 1:
        raise ToolError(ErrorCategory.INVALID_PARAMETERS, f"{name} must be >= 1, got {value}")
