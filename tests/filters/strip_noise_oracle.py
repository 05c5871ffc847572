"""``strip_noise`` as it was before the chunked core: the whole text cut at once (test oracle).

A copy of ``StripNoise.reduce`` of commit cc776a2 (main before stream22), written as one
function over a noise matcher: the text encoded whole, the noise runs and the must-keep lines
inside them found over all of it, the kept lines moved to the front in place. The chunked
core (:mod:`tooldeck.filters.noise_cut`) must give exactly its results.
"""

from __future__ import annotations

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.noise_cut import _cut_in_place, _first_removed
from tooldeck.filters.omissions import noise_notice
from tooldeck.filters.patterns import LineMatcher
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.strategy import StageResult


def whole_text_strip_noise(noise: LineMatcher, clean: str) -> tuple[str, FilterConfidence]:
    """The previous ``StripNoise.reduce`` on sanitized text: (text, confidence)."""
    if not clean:
        return clean, FilterConfidence.FALLBACK
    data = bytearray(clean.encode("utf-8", "surrogatepass") + b"\n")
    classifier = must_keep_classifier()
    scanned = noise.runs_with_stops(data, classifier.matcher)
    if scanned is None:
        runs = noise.line_runs(data)
        protected = classifier.line_runs_within(data, runs) if runs else []
    else:
        runs, must_keep = scanned
        protected = classifier.line_runs_within_found(data, runs, must_keep)
    first = _first_removed(data, runs, protected)
    removed = _cut_in_place(data, runs, protected)
    if not removed:
        return clean, FilterConfidence.FALLBACK
    marker = noise_notice(removed, first)
    if len(data) <= 1:
        return marker, FilterConfidence.FULL
    data += marker.encode("utf-8", "surrogatepass")
    return data.decode("utf-8", "surrogatepass"), FilterConfidence.FULL


def oracle_strip_noise(patterns: list[str], raw: str) -> StageResult:
    """The previous ``strip_noise`` strategy's ``apply``."""
    text, confidence = whole_text_strip_noise(LineMatcher(patterns), sanitize_output(raw))
    return StageResult(text, confidence)
