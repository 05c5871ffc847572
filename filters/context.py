"""The lines kept with a protected line so that it keeps its meaning, and the output's ends.

The generic reduction (:mod:`tooldeck.filters.fallback`) keeps every protected line; a
protected line alone can lose what it is about. Kept with it:

- the **parent** of an error or a warning: the nearest less indented line above it
  (``Collecting mysqlclient`` above the build error pip prints indented under it); for a
  warning in Python's format, the whole run of lines at the parent's level directly above
  it: pytest's warnings summary heads each warning with every test that raised it (up to
  nine test ids) or with one ``tests/a.py: 12 warnings`` line per file;
- the **source line of a Python warning**: the indented line under ``file.py:15:
  DeprecationWarning: …``, the code that warned (Python's warning format);
- what a kept line ending in ``:`` **introduces**: the lines indented under it (``The
  conflict is caused by:``), or the next line (the message after ``panicked at
  src/lib.rs:11:6:``);
- the **output a failing test printed**, under pytest's ``--- Captured stdout call ---``
  (stderr, log; setup, call, teardown) when that title is kept: its first and last lines
  (a log's last record is often the error the test ran into), when they read like lines
  of a log or a print (a value dumped on one line of kilobytes is not kept for this);
- the **failing example of a doctest** as pytest reports it: the numbered source line
  (``013     >>> add(2, 2)``, with its ``...`` continuations) above ``Expected:`` or
  ``UNEXPECTED EXCEPTION:`` — which call the expected and actual values belong to;
- the **rest of an exception message** that ends a traceback (pydantic's field and reason
  lines after ``ValidationError: 2 validation errors for Entry``), and the rest of a failure
  message pytest opens with one ``E`` line and indents under it (``--tb=line``: a
  hypothesis example's arguments, a diff a plugin drew);
- the **final outcome of a test run again** (pytest-rerunfailures' ``-rR`` summary: its
  ``RERUN tests/a.py::test_x`` lines, then ``PASSED tests/a.py::test_x``): a flaky test
  that passed in the end;
- the lines that open the **sections of an outline** (the roots of a ``tree`` listing),
  when a rule asks for them and there are few;
- the **first and last lines** of the output, as many as fit in a character budget;
- the lines holding a number in the output's **closing block** (the few lines after its
  last blank line or ruler): where a report sums up (a table's totals, a durations list,
  pip's notice of its own version).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["closing_lines", "context_lines", "edge_lines", "indent", "outline_lines"]

_MESSAGE = re.compile(
    r"\b(?:[A-Z]\w*)?(?:Error|Exception|Warning)\b|(?i:\berror\b|\bwarning\b)"
)
"""An error, exception or warning line: its parent and the rest of its message are its
context (a warning without the test or step it belongs to says less than it did)."""

_WARNING_RECORD = re.compile(r"\S:\d+: (?:[A-Z]\w*)?Warning: ")
"""A warning in Python's format, ``path:line: Category: message``: the indented line after
it is the source line that warned."""

_FRAME = re.compile(r'^\s*(?:File "|at |\u276f )')
"""A stack frame line (Python, JavaScript, vitest's arrow)."""

_NEW_BLOCK = re.compile(
    r'^\s*(?:File "|at |\u276f |Traceback |During handling|The above exception)'
    r"|^\S*[=_\-*#~]{3}"
)
"""A line that starts something else than the message above it: a frame, another
traceback, a ruler or a titled ruler."""

_ONE_E_LINE = re.compile(r"^E\s")
"""pytest's first line of a failure message; with ``--tb=line`` its other lines follow it
indented, without the ``E`` (with the other modes, each line has it)."""

_RERUN = re.compile(r"^RERUN (\S+)$")
"""A test pytest-rerunfailures ran again, in its rerun summary; its outcome comes next."""

_CAPTURED = re.compile(r"^-{3,} Captured (?:stdout|stderr|log) (?:setup|call|teardown) -{3,}$")
"""pytest's title over what a failing test printed (its ruler already compacted)."""

_DOCTEST_VERDICT = re.compile(r"^(?:Expected:$|UNEXPECTED EXCEPTION: )")
"""pytest's verdict on a failing doctest example, under the docstring lines it quotes."""

_DOCTEST_SOURCE = re.compile(r"^\d{3,} ")
"""A docstring line as pytest quotes it, numbered (``013     >>> add(2, 2)``)."""

_DOCTEST_PROMPT = re.compile(r"^\d{3,} +>>> ")
"""The numbered line that opens a doctest example."""

_DOCTEST_EXAMPLE = 6
"""Most numbered lines looked at above a verdict for the example's opening line."""

_CAPTURED_EDGE = (3, 2)
"""Lines kept from the start and from the end of a captured section; the middle is counted."""

_CAPTURED_CHARS = 240
"""Longest captured line kept for being captured: a longer one is a dumped value."""

_CONTINUATION = 8
"""Most lines of an exception message kept after its first line."""

_CONTINUATION_E = 16
"""Most indented lines of a pytest failure message kept after its ``E`` line (a drawn diff
and a hypothesis example take a dozen)."""

_INTRODUCED = 5
"""Most lines a kept line ending in ``:`` introduces that are kept with it."""

_PARENT_REACH = 200
"""How far above an error its parent line is looked for."""

_WARNED_BY = 40
"""Most lines of the run heading a Python warning kept with it (pytest lists at most nine
tests, then one line per file)."""

_CLOSING = 8
"""Most lines of text in a closing block; a longer last block is not a summary."""

_RULER = re.compile(r"^\W*[=_\-*#~\u2500\u2501\u2550\u2015]{3}")
_DIGIT = re.compile(r"\d")

_MAX_HEADINGS = 24
_HEADING_CHARS = 100


def indent(line: str) -> int:
    """The width of a line's leading whitespace.

    :param line: a line.
    :returns: its number of leading whitespace characters.
    """
    return len(line) - len(line.lstrip())


def context_lines(lines: Sequence[str], kept: Iterable[int]) -> set[int]:
    """The lines that give the ``kept`` lines their meaning (see the module notes).

    :param lines: the output's lines.
    :param kept: numbers of the lines kept so far (protected and family facts), ascending.
    :returns: numbers of the context lines (some may already be kept).
    """
    context: set[int] = set()
    for index in kept:
        line = lines[index]
        level = indent(line)
        if line.rstrip().endswith(":"):
            context.update(_introduced(lines, index, level))
        if _CAPTURED.match(line):
            context.update(_captured(lines, index))
        if _DOCTEST_VERDICT.match(line):
            context.update(_doctest_example(lines, index))
        rerun = _RERUN.match(line)
        if rerun and index + 1 < len(lines) and lines[index + 1].endswith(f" {rerun[1]}"):
            context.add(index + 1)
        if _ONE_E_LINE.match(line):
            context.update(_indented_rest(lines, index))
        if not _MESSAGE.search(line):
            continue
        warning_record = _WARNING_RECORD.search(line) is not None
        if warning_record:
            context.update(_source_line(lines, index, level))
        parent = _parent(lines, index, level)
        if parent is not None:
            context.add(parent)
            if warning_record:
                context.update(_heading_run(lines, parent))
        if any(_FRAME.match(lines[above]) for above in range(max(0, index - 3), index)):
            context.update(_continuation(lines, index, level))
    return context


def _parent(lines: Sequence[str], index: int, level: int) -> int | None:
    """The nearest line above ``index`` that is less indented, if any is near."""
    probe = index - 1
    while level > 0 and probe >= 0 and index - probe <= _PARENT_REACH:
        above = lines[probe]
        if above.strip() and indent(above) < level:
            return probe
        probe -= 1
    return None


def _heading_run(lines: Sequence[str], parent: int) -> range:
    """The lines directly above ``parent`` at its level, with no blank line or ruler between.

    In pytest's warnings summary they are the other tests (or files, with their counts)
    that raised the warning under them.
    """
    level = indent(lines[parent])
    first = parent
    while first > 0 and parent - first < _WARNED_BY:
        above = lines[first - 1]
        if not above.strip() or indent(above) != level or _RULER.match(above):
            break
        first -= 1
    return range(first, parent)


def _source_line(lines: Sequence[str], index: int, level: int) -> list[int]:
    """The source line Python prints under a warning at ``index``, if there is one."""
    after = index + 1
    if after < len(lines) and lines[after].strip() and indent(lines[after]) > level:
        return [after]
    return []


def _introduced(lines: Sequence[str], index: int, level: int) -> list[int]:
    """What a kept line ending in ``:`` introduces.

    The lines indented under it, or the next line when it is not indented.
    """
    found: list[int] = []
    for after in range(index + 1, min(index + 1 + _INTRODUCED, len(lines))):
        below = lines[after]
        if not below.strip() or (found and indent(below) <= level):
            break
        if not found and indent(below) <= level:
            return [after]
        found.append(after)
    return found


def _captured(lines: Sequence[str], index: int) -> list[int]:
    """The first and last lines of the captured section titled at ``index``.

    The section runs to the next ruler (another section, the short summary) or the end.
    """
    end = index + 1
    while end < len(lines) and not _RULER.match(lines[end]):
        end += 1
    body = [after for after in range(index + 1, end)
            if lines[after].strip() and len(lines[after]) <= _CAPTURED_CHARS]
    first, last = _CAPTURED_EDGE
    return body if len(body) <= first + last else body[:first] + body[-last:]


def _doctest_example(lines: Sequence[str], index: int) -> list[int]:
    """The failing example's numbered source lines above the doctest verdict at ``index``.

    From the nearest ``>>>`` line down to the verdict; none when the lines above are not
    numbered source lines.
    """
    found: list[int] = []
    for above in range(index - 1, max(-1, index - 1 - _DOCTEST_EXAMPLE), -1):
        if not _DOCTEST_SOURCE.match(lines[above]):
            return []
        found.append(above)
        if _DOCTEST_PROMPT.match(lines[above]):
            return found
    return []


def _continuation(lines: Sequence[str], index: int, level: int) -> list[int]:
    """The lines that continue the exception message ending a traceback at ``index``."""
    found: list[int] = []
    for after in range(index + 1, min(index + 1 + _CONTINUATION, len(lines))):
        below = lines[after]
        if not below.strip() or indent(below) < level or _NEW_BLOCK.match(below):
            break
        found.append(after)
    return found


def _indented_rest(lines: Sequence[str], index: int) -> list[int]:
    """The indented lines that continue the pytest failure message opened at ``index``."""
    found: list[int] = []
    for after in range(index + 1, min(index + 1 + _CONTINUATION_E, len(lines))):
        below = lines[after]
        if not below.strip() or indent(below) == 0 or _NEW_BLOCK.match(below):
            break
        found.append(after)
    return found


def outline_lines(lines: Sequence[str]) -> set[int]:
    """Lines that open a section: flush left, after an indented or tree-drawn line.

    ``/usr/include/linux`` between two ``tree`` listings, a module header between indented
    log lines. When there are more than 24 such lines the output has no outline, and none
    is kept.

    :param lines: the output's lines.
    :returns: the numbers of the section lines.
    """
    found: set[int] = set()
    for index in range(1, len(lines)):
        line, previous = lines[index], lines[index - 1]
        flush_left = bool(line[:1]) and (line[:1].isalnum() or line[:1] in "/.~")
        lead = previous[:1]
        after_indent = bool(lead) and (lead in " \t" or not lead.isascii())
        if flush_left and after_indent and len(line) <= _HEADING_CHARS:
            found.add(index)
            if len(found) > _MAX_HEADINGS:
                return set()
    return found


def edge_lines(indexes: Sequence[int], lines: Sequence[str], most: int, chars: int) -> list[int]:
    """The first of ``indexes`` that fit in ``chars`` characters.

    :param indexes: candidate line numbers, in the order they are taken (reverse the
        non-blank line numbers for the last lines).
    :param lines: the output's lines.
    :param most: the most lines taken.
    :param chars: the characters they may take; the first line is taken whatever its length.
    :returns: the line numbers taken.
    """
    kept: list[int] = []
    used = 0
    for index in indexes[:most]:
        used += len(lines[index]) + 1
        if kept and used > chars:
            break
        kept.append(index)
    return kept


def closing_lines(lines: Sequence[str]) -> set[int]:
    """The lines holding a number in the output's closing block.

    The closing block is what follows the last blank line or ruler, when it holds at most
    eight lines of text: where a report sums up. Its lines without a number are left to
    the edges (:func:`edge_lines`).

    :param lines: the output's lines.
    :returns: their numbers.
    """
    block: list[int] = []
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if not line.strip() or _RULER.match(line):
            if block:
                break
            continue
        block.append(index)
        if len(block) > _CLOSING:
            return set()
    return {index for index in block if _DIGIT.search(lines[index])}
