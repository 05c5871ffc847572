"""The value every file operation returns."""

from __future__ import annotations

import attrs

__all__ = ["FileOpResult"]


@attrs.frozen
class FileOpResult:
    """The outcome of one file operation.

    :param summary: the text shown to the model (exact formats follow Zeph's file executor).
    :param diff: a unified diff of the change, for ``write`` and ``edit``; ``None`` otherwise
        (or when the previous content may not be shown).
    :param locations: the canonical paths the operation read, wrote or found.
    """

    summary: str
    diff: str | None = None
    locations: tuple[str, ...] = ()
