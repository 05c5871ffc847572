"""The value every file operation returns."""

from __future__ import annotations

import attrs

__all__ = ["FileOpResult", "named_paths"]


@attrs.frozen
class FileOpResult:
    """The outcome of one file operation.

    :param summary: the text shown to the model (exact formats follow Zeph's file executor).
    :param diff: a unified diff of the change, for ``write`` and ``edit``; ``None`` otherwise
        (or when the previous content may not be shown).
    :param locations: the canonical paths the operation read, wrote or found.
    :param read_paths: for the read-only tools, every file and directory the summary was
        computed from (see :attr:`tooldeck.models.ToolOutput.read_paths`); ``None`` when
        the operation changes files or cannot say.
    """

    summary: str
    diff: str | None = None
    locations: tuple[str, ...] = ()
    read_paths: tuple[str, ...] | None = None


def named_paths(absolute: str, canonical: str) -> tuple[str, ...]:
    """The read paths of a path a call named: as written (made absolute) and as resolved.

    Stat'ing the first follows the symlinks on the way, so a re-pointed link shows; the
    second is what a write through the file tools reports in its ``locations``.

    :param absolute: :meth:`~tooldeck.paths.PathSandbox.absolute` of the raw path.
    :param canonical: the resolved path that was read.
    :returns: one or two paths.
    """
    return (absolute,) if absolute == canonical else (absolute, canonical)
