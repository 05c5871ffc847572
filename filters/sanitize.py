"""Output clean-up applied before every filter: ANSI escapes, ``CR`` overwrites, blank runs."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator

__all__ = [
    "SanitizeStream",
    "collapse_blank_lines",
    "count_lines",
    "replace_lone_surrogates",
    "sanitize_output",
    "sanitized_line_data",
    "sanitized_pieces",
    "strip_terminal",
]

# Fixed, linear patterns (no nested quantifiers): safe with the standard library engine,
# which substitutes over a whole text in C and is the fastest option here.
_ANSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)
"""CSI sequences (colours, cursor moves, private modes such as ``ESC[?25l``), OSC strings
(window titles, hyperlinks), charset selection, keypad and cursor save/restore."""
_CARRIAGE_RETURN_LINE = re.compile(r"^[^\n]*\r(?=[^\n]*$)", re.MULTILINE)
# A run of blank (whitespace-only) lines is found from the newline before it: a literal first
# character lets the engine skip ahead instead of trying every position. Only runs that change
# are matched (two or more blank lines, or one that holds whitespace): a lone empty line is
# already in its final form, and skipping it halves the time on logs full of them.
# The newline both branches start with is written once: ``re`` then scans for that literal
# character in a tight loop instead of testing a character set at every position. The branches
# are split on the first blank line (empty, or holding whitespace), so that after most newlines
# both fail at the first character (-15 % on a 20 MB log).
_BLANK_LINES_AFTER_CONTENT = re.compile(r"\n(?:\n(?:[ \t\f\v]*\n)+|[ \t\f\v]+\n(?:[ \t\f\v]*\n)*)")
_LEADING_BLANK_LINES = re.compile(r"(?:[ \t\f\v]*\n)+")
_BLANK = " \t\f\v"
_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(text: str) -> str:
    """Replace lone surrogates, which cannot be encoded to UTF-8, with U+FFFD.

    :param text: any text (e.g. decoded with ``surrogateescape``).
    :returns: text that encodes to UTF-8.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def strip_terminal(text: str) -> str:
    """Remove what only a terminal interprets: ANSI escapes and carriage-return overwrites.

    A line rewritten with carriage returns keeps what was written last; ``CRLF`` line ends
    become ``LF``; the trailing newline of the text is dropped; lone surrogates (bytes a decoder
    could not read, kept by ``surrogateescape``) become U+FFFD. Blank lines and leading
    whitespace are content and stay as they are.

    :param text: raw command output.
    :returns: the text as a terminal would have left it on screen.
    """
    text = replace_lone_surrogates(text)
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    # (the rest but for the text's end is line by line: SanitizeStream repeats it on its lines)
    if text.endswith("\n"):
        text = text[:-1]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if text.endswith("\r"):
            text = text[:-1]
        if "\r" in text:
            text = _CARRIAGE_RETURN_LINE.sub("", text)
    return text


def sanitize_output(text: str) -> str:
    """:func:`strip_terminal`, then every run of whitespace-only lines made one empty line.

    This is what strategies work on; outputs shown whole (short ones, file views) get only
    :func:`strip_terminal`.

    :param text: raw command output.
    :returns: the cleaned text, lines joined with newlines.
    """
    return collapse_blank_lines(strip_terminal(text))


def collapse_blank_lines(text: str) -> str:
    """Make every run of whitespace-only lines one empty line.

    :param text: text without a final newline (as :func:`strip_terminal` returns).
    :returns: the text with each blank run collapsed.
    """
    return _trim_end(_collapse_runs(text, leading=True))


def _collapse_runs(text: str, *, leading: bool) -> str:
    """Each blank run of ``text`` made one empty line (its leading run too when ``leading``)."""
    if leading:
        found = _LEADING_BLANK_LINES.match(text)
        if found is not None:
            text = "\n" + text[found.end() :]
    return _BLANK_LINES_AFTER_CONTENT.sub("\n\n", text)


def _trim_end(text: str) -> str:
    """The end of a collapsed text: no whitespace-only last line, no empty line after the last."""
    # Where the text ends is worked out first and the text sliced once: each slice copies the
    # whole text, and two in a row held three copies at once.
    end = len(text)
    last_line = text.rfind("\n") + 1
    if last_line < end and not text[last_line:].strip(_BLANK):
        end = last_line
    if (end == 1 and text[0] == "\n") or (end >= 2 and text.startswith("\n\n", end - 2, end)):
        end -= 1
    return text if end == len(text) else text[:end]


def count_lines(text: str) -> int:
    """Count lines: 0 for the empty string, and a trailing newline does not add one.

    :param text: any text.
    :returns: the number of lines.
    """
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _terminal_lines(text: str) -> str:
    """:func:`strip_terminal` of complete lines in the middle of a text (its end is left alone)."""
    text = replace_lone_surrogates(text)
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            text = _CARRIAGE_RETURN_LINE.sub("", text)
    return text


class SanitizeStream:
    """:func:`sanitize_output` of a text arriving in pieces, given back as it becomes final.

    The pieces (bytes, decoded as UTF-8 with ``surrogateescape``, as ``tooldeck filter``
    reads stdin) are cleaned a run of lines at a time, cut where nothing crosses:

    - terminal clean-up before a line start outside an OSC string (the only escape that may
      hold a newline); the last newline waits, as the text's end drops it;
    - blank runs collapsed before a line that holds text (a run never crosses it).

    The concatenation of what :meth:`feed` and :meth:`finish` return is
    ``sanitize_output(text)``.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._raw = ""  # decoded text not yet cleaned of terminal codes
        self._held = ""  # the newline that ends the terminal-clean text so far, if any
        self._clean = ""  # terminal-clean text whose blank runs are not collapsed yet
        self._first = True  # the text's leading blank run not collapsed yet

    def feed(self, piece: bytes) -> str:
        """Take the next bytes of the text.

        :param piece: the next bytes (any length).
        :returns: sanitized text now final (possibly empty).
        """
        return self.feed_text(self._decoder.decode(piece))

    def feed_text(self, piece: str) -> str:
        """Take the next characters of the text (already decoded).

        :param piece: the next characters (any length).
        :returns: sanitized text now final (possibly empty).
        """
        self._raw += piece
        cut = _terminal_cut(self._raw)
        if not cut:
            return ""
        lines = _terminal_lines(self._held + self._raw[:cut])
        self._raw = self._raw[cut:]
        self._clean += lines[:-1]  # (the lines end with a newline: it waits)
        self._held = lines[-1:]
        return self._collapsed()

    def finish(self) -> str:
        """End the text.

        :returns: the rest of the sanitized text.
        """
        self._raw += self._decoder.decode(b"", final=True)
        self._clean += strip_terminal(self._held + self._raw)
        self._raw = self._held = ""
        text = _trim_end(_collapse_runs(self._clean, leading=self._first))
        self._clean = ""
        return text

    def _collapsed(self) -> str:
        """The clean lines before the last line holding text, their blank runs collapsed."""
        cut = _blank_run_cut(self._clean)
        if not cut:
            return ""
        text = _collapse_runs(self._clean[:cut], leading=self._first)
        self._first = False
        self._clean = self._clean[cut:]
        return text



def sanitized_pieces(read: Callable[[], bytes]) -> Iterator[bytes]:
    """Raw bytes as ``read`` gives them, sanitized piece by piece (:class:`SanitizeStream`).

    :param read: returns the next piece of raw output, ``b""`` at its end (``lambda:
        source.read1(1 << 20)``).
    :returns: the sanitized text, UTF-8 encoded, as soon as each piece of it is final.
    """
    stream = SanitizeStream()
    while piece := read():
        clean = stream.feed(piece)
        if clean:
            yield clean.encode("utf-8", "surrogatepass")
    rest = stream.finish()
    if rest:
        yield rest.encode("utf-8", "surrogatepass")

_SANITIZE_CHUNK = 1 << 18
"""Characters of a raw text sanitized at a time by :func:`sanitized_line_data`."""


def sanitized_line_data(raw: str) -> Iterator[bytes]:
    """The line data of ``sanitize_output(raw)``, 256 KB at a time.

    The sanitized text is never held whole: each piece is final when it is given.

    :param raw: the command output as captured.
    :returns: the UTF-8 pieces, a newline after the last line (nothing when the sanitized
        text is empty).
    """
    stream = SanitizeStream()
    fed = False
    for start in range(0, len(raw), _SANITIZE_CHUNK):
        clean = stream.feed_text(raw[start : start + _SANITIZE_CHUNK])
        if clean:
            fed = True
            yield clean.encode("utf-8", "surrogatepass")
    clean = stream.finish()
    if clean or fed:
        yield clean.encode("utf-8", "surrogatepass") + b"\n"


def _terminal_cut(raw: str) -> int:
    """Where the terminal clean-up of ``raw`` may stop: a line start outside an OSC string."""
    cut = raw.rfind("\n") + 1
    while cut:
        # only the last OSC string before the cut may reach past it (an earlier one stops at
        # the next escape at the latest)
        osc = raw.rfind("\x1b]", 0, cut)
        if osc < 0 or raw.find("\x07", osc, cut) >= 0 or raw.find("\x1b", osc + 2, cut) >= 0:
            break
        cut = raw.rfind("\n", 0, osc) + 1  # (before the line it opens on)
    return cut


def _blank_run_cut(clean: str) -> int:
    """The start of the last complete line of ``clean`` holding text (0: none but the first)."""
    end = clean.rfind("\n")
    while end > 0:
        start = clean.rfind("\n", 0, end) + 1
        if start == 0:
            return 0
        if clean[start:end].strip(_BLANK):
            return start
        end = start - 1
    return 0
