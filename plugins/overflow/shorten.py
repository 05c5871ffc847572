"""Cut an output to a head and a tail at line boundaries, saying what was left out."""

from __future__ import annotations

__all__ = ["head_and_tail"]


def head_and_tail(text: str, budget: int, reference: str) -> str:
    """``text`` cut to about ``budget`` characters: whole first and last lines, a notice between.

    :param text: the output the model would have been given.
    :param budget: characters kept in all (half for the head, half for the tail).
    :param reference: the ``overflow:<id>`` under which the whole output is stored.
    """
    lines = text.splitlines(keepends=True)
    half = budget // 2
    head: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) > half and head:
            break
        head.append(line)
        size += len(line)
    tail: list[str] = []
    size = 0
    for line in reversed(lines[len(head):]):
        if size + len(line) > half and tail:
            break
        tail.append(line)
        size += len(line)
    tail.reverse()
    hidden = len(lines) - len(head) - len(tail)
    notice = (f"[… {hidden} of {len(lines)} lines omitted; the whole output is {reference}: "
              f"read it with read_overflow(id=\"{reference}\", offset={len(head) + 1})]\n")
    return "".join(head).rstrip("\n")[:half] + "\n" + notice + "".join(tail)[-half:]
