"""``search_code``: structural search over the sandbox, a grep fallback, merged and ranked.

Sources and scores follow Zeph's ``search_code``:

=====================  =====  ==================================================
source label           score  what
=====================  =====  ==================================================
``tree-sitter``        0.98   a definition whose name contains ``symbol``
``tree-sitter refs``   0.90   a use of ``symbol`` (``include_references``)
``grep fallback``      0.45   a line containing ``symbol`` or ``query`` (any case),
                              only when nothing above was found
=====================  =====  ==================================================

Results are deduplicated by (file, first line, last line) keeping the higher score, sorted by
score (highest first), then path, then line, and cut to ``max_results``. Files are found with
the file tools' project walk (ignored files and tool directories are not searched), read with
their race-safe reads (read rules and hard-link rules apply), and larger files than
``max_file_bytes`` are skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import attrs

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import Glob, PathSandbox, compile_glob, is_within
from tooldeck.plugins.files.code_search.languages import EXTENSIONS
from tooldeck.plugins.files.code_search.structural import structural_hits
from tooldeck.plugins.files.hardlinks import HardlinkGuard
from tooldeck.plugins.files.ignore import TOOL_DIRS, ignore_chain_for
from tooldeck.plugins.files.safe_io import EntryKind, open_directory, read_regular
from tooldeck.plugins.files.text import is_binary
from tooldeck.plugins.files.walk import walk_tree

__all__ = ["CodeMatch", "render", "search_code"]

_MAX_FALLBACK = 10_000
"""Grep-fallback hits kept while searching (they are used only when nothing else is found)."""

TREE_SITTER, REFERENCES, GREP = ("tree-sitter", 0.98), ("tree-sitter refs", 0.90), \
    ("grep fallback", 0.45)
SEMANTIC = "semantic"
"""The source label of results the semantic layer ranked (their score is the similarity)."""


@attrs.frozen
class CodeMatch:
    """One result.

    :param path: the canonical file.
    :param shown: the path as shown (relative to the working directory or its root).
    :param line_start: first line.
    :param line_end: last line.
    :param snippet: the text, newlines flattened.
    :param source: the source label.
    :param score: the source's score.
    """

    path: str
    shown: str
    line_start: int
    line_end: int
    snippet: str
    source: str
    score: float


def _outermost(sandbox: PathSandbox) -> list[str]:
    roots = [str(root) for root in sandbox.roots]
    return sorted(r for r in roots if not any(o != r and is_within(r, o) for o in roots))


def _shown(sandbox: PathSandbox, path: str) -> str:
    base = str(sandbox.cwd)
    if not is_within(path, base):
        base = str(sandbox.root_of(path))
    return os.path.relpath(path, base)


def _files(sandbox: PathSandbox, pattern: Glob | None, max_bytes: int,
           guard: HardlinkGuard) -> Iterator[tuple[str, bytes]]:
    """Every readable, not ignored, non-binary file of the sandbox (and the pattern)."""
    for root in _outermost(sandbox):
        try:
            with open_directory(sandbox, root) as fd:
                walk = walk_tree(fd, root, skip_hidden=True, skip_dirs=TOOL_DIRS,
                                 ignore=ignore_chain_for(sandbox, fd, root))
                for entry in walk:
                    if entry.kind is not EntryKind.FILE or not sandbox.read_allowed(entry.path):
                        continue
                    if pattern is not None and not pattern.matches(entry.path):
                        continue
                    try:
                        data = read_regular(entry.dir_fd, entry.name, entry.path, max_bytes,
                                            guard=guard)
                    except (OSError, ToolError):
                        continue
                    if not is_binary(data):
                        yield entry.path, data
        except (OSError, ToolError):
            continue


def _grep(data: bytes, needle: str) -> Iterator[tuple[int, str]]:
    lowered = needle.lower()
    for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        if lowered in line.lower():
            yield number, " ".join(line.split())[:200]


def _mentions(data: bytes, needle: str) -> bool:
    """Whether the file's text contains the lower-cased needle, in any case."""
    if needle.isascii():
        return needle.encode() in data.lower()
    return needle in data.decode("utf-8", "replace").lower()


def _compile_pattern(file_pattern: str | None) -> Glob | None:
    if not file_pattern:
        return None
    try:
        return compile_glob(file_pattern)
    except (ValueError, ToolError) as exc:
        message = exc.message if isinstance(exc, ToolError) else str(exc)
        raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                        f"invalid file_pattern: {message}") from None


def merge(found: list[CodeMatch], limit: int) -> list[CodeMatch]:
    """One result per location (the best scored), best first, at most ``limit``."""
    best: dict[tuple[str, int, int], CodeMatch] = {}
    for match in found:
        key = (match.path, match.line_start, match.line_end)
        if key not in best or best[key].score < match.score:
            best[key] = match
    ordered = sorted(best.values(), key=lambda m: (-m.score, m.shown, m.line_start))
    return ordered[:limit]


def search_code(sandbox: PathSandbox, *, query: str | None, symbol: str | None,
                file_pattern: str | None, include_references: bool, max_results: int,
                max_file_bytes: int) -> list[CodeMatch]:
    """Find code by symbol (structurally) or by text (the grep fallback).

    :param sandbox: the file sandbox, at the caller's working directory.
    :param query: free text; searched by the grep fallback here (the executor adds the
        semantic layer when a plugin supplies an embedder).
    :param symbol: a name or part of one; definitions are found structurally.
    :param file_pattern: a glob the files must match (a relative one matches at any depth).
    :param include_references: also find uses of ``symbol``.
    :param max_results: how many results to keep (clamped to 1..50).
    :param max_file_bytes: larger files are skipped.
    :returns: the merged, ranked results.
    :raises ToolError: ``invalid_parameters`` without ``query`` and ``symbol`` or with a bad
        ``file_pattern``.
    """
    symbol = (symbol or "").strip() or None
    query = (query or "").strip() or None
    if symbol is None and query is None:
        raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                        "at least one of `query` or `symbol` must be provided")
    pattern = _compile_pattern(file_pattern)
    limit = max(1, min(50, max_results))
    guard = HardlinkGuard(sandbox)
    text = symbol or query or ""
    needle = text.lower()
    found: list[CodeMatch] = []
    fallback: list[CodeMatch] = []
    for path, data in _files(sandbox, pattern, max_file_bytes, guard):
        if not _mentions(data, needle):
            continue  # neither a definition nor a grep hit can be in this file
        shown = _shown(sandbox, path)
        language = EXTENSIONS.get(os.path.splitext(path)[1].lower())
        if symbol is not None and language is not None:
            for hit in structural_hits(data, language, symbol, references=include_references):
                label, score = REFERENCES if hit.reference else TREE_SITTER
                found.append(CodeMatch(path, shown, hit.line_start, hit.line_end, hit.snippet,
                                       label, score))
        if not found and len(fallback) < _MAX_FALLBACK:
            label, score = GREP
            fallback += [CodeMatch(path, shown, number, number, line, label, score)
                         for number, line in _grep(data, text)]
    return merge(found or fallback, limit)


def definitions(sandbox: PathSandbox, *, file_pattern: str | None, max_file_bytes: int,
                limit: int) -> list[CodeMatch]:
    """Every definition tree-sitter finds in the sandbox, at most ``limit``, in walk order.

    The candidates the semantic layer ranks; their ``score`` is 0 until it does.

    :param sandbox: the file sandbox, at the caller's working directory.
    :param file_pattern: a glob the files must match.
    :param max_file_bytes: larger files are skipped.
    :param limit: the most definitions gathered.
    :returns: the definitions, labelled :data:`SEMANTIC`.
    """
    pattern = _compile_pattern(file_pattern)
    found: list[CodeMatch] = []
    for path, data in _files(sandbox, pattern, max_file_bytes, HardlinkGuard(sandbox)):
        language = EXTENSIONS.get(os.path.splitext(path)[1].lower())
        if language is None:
            continue
        shown = _shown(sandbox, path)
        for hit in structural_hits(data, language, "", references=False):
            found.append(CodeMatch(path, shown, hit.line_start, hit.line_end, hit.snippet,
                                   SEMANTIC, 0.0))
            if len(found) >= limit:
                return found
    return found


def render(matches: list[CodeMatch]) -> str:
    """Zeph's output: ``[n] path:start-end``, the snippet, ``source:``, ``score:`` blocks.

    :param matches: the ranked results.
    :returns: the blocks separated by blank lines, or ``No code matches found.``.
    """
    if not matches:
        return "No code matches found."
    return "\n\n".join(
        f"[{n}] {m.shown}:{m.line_start}-{m.line_end}\n    {m.snippet}\n"
        f"    source: {m.source}\n    score: {m.score:.2f}"
        for n, m in enumerate(matches, 1)
    )
