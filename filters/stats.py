"""The one-line inline summary shown after a filtered output."""

from __future__ import annotations

__all__ = ["command_label", "savings_percent", "stats_line"]

_MAX_LABEL = 60
_CUT_LABEL = 57


def command_label(command: str | None) -> str:
    """The command part of the stats line: empty, or a space and the backticked command.

    :param command: the command, ``None`` when unknown.
    :returns: e.g. `` `cargo test` ``; commands over 60 characters keep 57 and end with ``…``.
    """
    if command is None or not command.strip():
        return ""
    trimmed = command.strip()
    if len(trimmed) > _MAX_LABEL:
        trimmed = trimmed[:_CUT_LABEL] + "…"
    return f" `{trimmed}`"


def savings_percent(raw_chars: int, filtered_chars: int) -> float:
    """Characters saved, in percent: 0 for an empty input, never negative.

    :param raw_chars: characters received.
    :param filtered_chars: characters returned.
    :returns: the percentage.
    """
    if raw_chars == 0:
        return 0.0
    return max(0.0, (1 - filtered_chars / raw_chars) * 100)


def stats_line(
    tool: str,
    command: str | None,
    lines_in: int,
    lines_out: int,
    chars_in: int,
    chars_out: int,
) -> str:
    """Format ``[shell] `cmd` 342 lines -> 28 lines, 91.8% filtered``.

    :param tool: the tool name shown in brackets.
    :param command: the command, ``None`` when unknown.
    :param lines_in: lines received.
    :param lines_out: lines returned.
    :param chars_in: characters received.
    :param chars_out: characters returned.
    :returns: the line.
    """
    percent = savings_percent(chars_in, chars_out)
    return (
        f"[{tool}]{command_label(command)} {lines_in} lines -> {lines_out} lines,"
        f" {percent:.1f}% filtered"
    )
