"""The chunked ``strip_noise`` core gives exactly what the whole-text cut gave.

The oracle is the previous ``StripNoise.reduce`` (``strip_noise_oracle.py``). The chunked core
is run with windows down to one byte (a window then ends before every line that stands alone)
and pieces down to one character, on random texts made of log-like lines (noise, progress
rewritten with ``\\r``, ANSI, protected lines and their followers, lines ending in ``:``,
time-stamped lines, listing lines, near-identical runs), and on every corpus output. Held-back
outputs are only counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.filters import line_view, sanitize, strip_noise
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import ListingCount, must_keep_classifier
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.registry import default_strategy_registry
from tooldeck.filters.sanitize import SanitizeStream, sanitize_output
from tooldeck.filters.selection import as_line_data
from tooldeck.filters.strategy import StageResult

from .corpuskit import corpus
from .strip_noise_oracle import oracle_strip_noise, whole_text_strip_noise

NOISE = [r"^\s*$", r"^\s*Compiling ", r"^npm warn", r"warn", r"^\s+at ", r"^\s*-->", r"[0-9]{3}"]
PATTERNS = [
    *NOISE,
    r"^\d{4}-\d{2}-\d{2}",  # a stamped log's every line
    r"^[├└│ ]",  # drawn trees
    r"error",  # noise that is also protected
    r"(?s)a.b",  # not confinable to a line: the two-scan path
    r"^progress",
]

LINES = [
    "",
    "   ",
    "   Compiling serde v1.0.1",
    "   Compiling serde v1.0.2",
    "npm warn deprecated x@1.0.0: unsupported",
    "npm warn error: here:",
    "npm error code E404",
    "warning: unused variable: `x`",
    "error[E0308]: mismatched types",
    "  --> src/module_1.rs:10:7",
    "    at run (app.js:1:2)",
    "    at run (node_modules/x/y.js:1:2)",
    "thread 'main' panicked at src/lib.rs:11:6:",
    "called `Option::unwrap()` on a `None` value",
    "test tests::case_1 ... FAILED",
    "test tests::case_2 ... ok",
    "2024-05-01T10:00:00Z error: disk full",
    "2024-05-01T10:00:01Z step 123 done",
    "10:00:02 warning: slow",
    "├── left-pad@1.3.0",
    "└─┬ react@18.2.0",
    "Packages: +12",
    "progress 10%\rprogress 100%",
    "\x1b[31merror\x1b[0m: red",
    "\x1b[1mCompiling\x1b[0m bold",
    "a.b",
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in f',
    "Downloading 123 files",
]

lines = st.one_of(
    st.sampled_from(LINES),
    st.text(alphabet=st.sampled_from(list("ae rx-:>\t\r\x1b[m0é✕")), max_size=10),
)
raw_texts = st.builds(
    lambda picked, newline: "\n".join(picked) + ("\n" if newline else ""),
    st.lists(lines, max_size=80),
    st.booleans(),
)
pattern_lists = st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=4)


def chunked(patterns: list[str], raw: str, window: int, piece: int) -> StageResult:
    """``strip_noise`` with windows of ``window`` bytes fed pieces of ``piece`` characters.

    Both entries are run: ``apply`` (raw text sanitized piece by piece) and ``reduce`` (the
    sanitized text encoded piece by piece); they must agree.
    """
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
    with (
        mock.patch.object(strip_noise, "WINDOW", window),
        mock.patch.object(sanitize, "_SANITIZE_CHUNK", piece),
        mock.patch.object(line_view, "_ENCODE_CHUNK", piece),
    ):
        applied = strategy.apply(raw, 1)
        reduced = strategy.apply_clean(sanitize_output(raw), 1)
    assert applied == reduced
    return applied


def streamed(patterns: list[str], raw: str, window: int, piece: int) -> StageResult:
    """The stream path: line data in ``piece``-byte pieces, the output written as it comes."""
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
    clean = sanitize_output(raw).encode("utf-8", "surrogatepass")
    written: list[bytes] = []
    with mock.patch.object(strip_noise, "WINDOW", window):
        confidence = strategy.stream(_pieces(clean, piece), written.append)
    return StageResult(b"".join(written).decode("utf-8", "surrogatepass"), confidence)


def _pieces(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern_lists, raw_texts, st.integers(1, 400), st.integers(1, 60))
def test_chunked_apply_equals_the_whole_text_cut(
    patterns: list[str], raw: str, window: int, piece: int
) -> None:
    assert chunked(patterns, raw, window, piece) == oracle_strip_noise(patterns, raw)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern_lists, raw_texts, st.integers(1, 400), st.integers(1, 60))
def test_stream_equals_the_whole_text_cut(
    patterns: list[str], raw: str, window: int, piece: int
) -> None:
    assert streamed(patterns, raw, window, piece) == oracle_strip_noise(patterns, raw)


def _one_line_windows() -> mock._patch[int]:
    return mock.patch.object(strip_noise, "WINDOW", 1)


@pytest.mark.parametrize(
    ("patterns", "text"),
    [
        # a follower line opens the next window: the window before it cannot end there
        (["^x"], "x\nerror: boom\n  --> src/a.rs:1:2\nx\nx"),
        (["^x", "^  -->"], "x\nerror: boom\n  --> src/a.rs:1:2\nx"),
        # a protected line ending in ':' carries the next line
        (["^x", "^called"], "x\nthread 'main' panicked at src/lib.rs:11:6:\ncalled x\nx"),
        # a long noise run crosses many windows; the first removed line is the example
        (["^x"], "\n".join(["x"] * 50 + ["keep"] + ["x"] * 50)),
        # everything is noise: the notice alone
        (["^x", "^$"], "x\nx\n\nx"),
    ],
)
def test_one_line_windows_equal_the_whole_text_cut(patterns: list[str], text: str) -> None:
    expected = oracle_strip_noise(patterns, text)
    with _one_line_windows():
        strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
        assert strategy.apply(text) == expected
    assert expected.confidence is FilterConfidence.FULL


def test_a_stamped_log_decides_its_masking_on_the_first_classified_bytes() -> None:
    # The classifier masks time stamps when half of the first 2 KB it reads inside the noise
    # opens with one; a masked 'main.c:3:4' after a stamp is a location, unmasked it is not.
    # The first windows hold less than 2 KB of such lines: they wait for the decision. (A
    # pattern that cannot be confined to a line takes the two-scan path, whose classifier
    # reads the noise runs: the one-scan path's candidates do not hold these lines.)
    stamped = [f"2024-05-01 10:00:{i % 60:02d} main.c:{i}:4 note" for i in range(120)]
    text = "\n".join(["x noise", *stamped, "x end"])
    patterns = [r"^2024", r"^x", r"(?s)q.z"]
    expected = oracle_strip_noise(patterns, text)
    assert "main.c:0:4" in expected.output  # (protected: the log is stamped)
    for window in (1, 64, 4096):
        assert chunked(patterns, text, window, 7) == expected
        assert streamed(patterns, text, window, 7) == expected


def test_a_short_listing_inside_the_noise_waits_for_the_whole_count_in_a_stream() -> None:
    # Listing lines are protected while the whole text holds at most 40 of them: the stream
    # cannot know before its end, and gives the same result as the whole-text cut.
    listing = [f"├── pkg{i}@1.0.{i}" for i in range(30)]
    for extra in (0, 20):
        more = [f"├── more{i}@2.0.{i}" for i in range(extra)]
        text = "\n".join(["noise"] * 10 + listing + ["noise"] * 10 + more)
        patterns = [r"^noise", r"^├"]
        expected = oracle_strip_noise(patterns, text)
        assert streamed(patterns, text, 16, 5) == expected
        assert chunked(patterns, text, 16, 5) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=60), st.integers(1, 50))
def test_listing_count_in_pieces_equals_the_classifier_on_the_whole_text(
    picked: list[str], piece: int
) -> None:
    data = as_line_data(sanitize_output("\n".join(picked)))
    classifier = must_keep_classifier()
    count = ListingCount(classifier)
    for start in range(0, len(data), piece):
        count.add(data[start : start + piece])
    assert count.short() == classifier._short_listings_of(data)


@pytest.mark.parametrize("window", [4096, 1 << 20])
def test_every_corpus_output_equals_the_whole_text_cut(window: int) -> None:
    noise = LineMatcher(NOISE)
    differing: list[tuple[str, str]] = []
    strategy = default_strategy_registry().build({"type": "strip_noise", "patterns": NOISE})
    for case in corpus().load_cases():
        clean = sanitize_output(case.text)
        expected = whole_text_strip_noise(noise, clean)
        with mock.patch.object(strip_noise, "WINDOW", window):
            reduction = strategy.reduce(clean, 1)
            written: list[bytes] = []
            confidence = strategy.stream(
                _pieces(clean.encode("utf-8", "surrogatepass"), 4093), written.append
            )
        streamed_text = b"".join(written).decode("utf-8", "surrogatepass")
        if (reduction.text, reduction.confidence) != expected or (
            streamed_text, confidence
        ) != expected:
            differing.append((case.half, case.relative))
    tune = [path for half, path in differing if half == corpus().TUNE]
    held_back = len(differing) - len(tune)
    # tune outputs are named; held-back ones only counted
    assert (tune, held_back) == ([], 0), f"tune: {tune}; held-back: {held_back} outputs"


# ---- the stream's sanitizer ------------------------------------------------------------------

terminal_bits = st.sampled_from(
    ["a", "b", " ", "\t", "\f", "\n", "\n", "\n", "\r", "\r\n", "\x1b[31m", "\x1b[?25l",
     "\x1b]0;title\x07", "\x1b]8;;x\n\x1b\\", "\x1b]", "\x1b", "\x07", "\x1b(B", "é", "✕"]
)
terminal_texts = st.lists(terminal_bits, max_size=50).map("".join)


def _sanitized_in_pieces(data: bytes, size: int) -> str:
    stream = SanitizeStream()
    parts = [stream.feed(piece) for piece in _pieces(data, size)]
    return "".join(parts) + stream.finish()


@settings(max_examples=1500, deadline=None)
@given(terminal_texts, st.binary(max_size=3), st.integers(1, 40))
def test_sanitize_stream_equals_sanitize_output(text: str, junk: bytes, size: int) -> None:
    # (junk: bytes that are not UTF-8, read with surrogateescape as tooldeck filter reads stdin)
    data = text.encode("utf-8") + junk + text.encode("utf-8")
    expected = sanitize_output(data.decode("utf-8", "surrogateescape"))
    assert _sanitized_in_pieces(data, size) == expected


def test_sanitize_stream_waits_for_an_osc_string_across_lines() -> None:
    # a hyperlink's OSC string holds a newline: it is removed whole, never cut between lines
    data = b"\x1b]8;;x\nstill in it\x1b\\\x1b]8;;y\n\x1b\\kept\n\n\n  \nlast\n"
    assert _sanitized_in_pieces(data, 1) == sanitize_output(data.decode()) == "kept\n\nlast"
