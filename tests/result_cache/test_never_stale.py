"""Property: a ``read`` never returns content other than what the file holds now.

Sequences of edits (our ``write``, append, truncate, rename-over, a same-size rewrite with
its mtime put back, a rewrite by an outside process) interleave with reads and with pauses
long enough for results to be cached. Most edits keep the size, so only the stamps can tell
versions apart. Each example ends with two reads after a pause, the second of which must be
a hit: the property is checked with the cache in play, not around it.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.plugins.result_cache import store_of

from .conftest import Counting, settle, write_config

FILES = ("a.txt", "b.txt")
EDITS = ("write_tool", "rewrite", "append", "truncate", "rename_over",
         "same_size_keep_mtime", "outside", "touch")
ops = st.lists(
    st.one_of(
        st.tuples(st.just("read"), st.sampled_from(FILES)),
        st.tuples(st.sampled_from(EDITS), st.sampled_from(FILES)),
        st.tuples(st.just("settle"), st.just("")),
    ),
    min_size=1, max_size=8,
)


def rendered(content: str) -> str:
    return "\n".join(f"{n:>4}\t{line}" for n, line in enumerate(content.splitlines(), 1))


def test_reads_are_never_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.chdir(root)
    config, audit = tmp_path / "tooldeck.toml", tmp_path / "audit.jsonl"
    write_config(config, audit, "")
    deck = Deck.from_config(config, extra_plugins={"counting": Counting()}, environ={})
    versions = itertools.count()

    def version() -> str:
        return f"v{next(versions) % 10000:04d}\n"  # every version has the same size

    def read(directory: Path, name: str) -> str:
        result = deck.call_sync(ToolCall("read", {"path": f"{directory.name}/{name}"}))
        assert result.ok, result.text
        assert result.text == rendered((directory / name).read_text()), "stale read"
        return result.text

    def edit(directory: Path, kind: str, name: str) -> None:
        path = directory / name
        if kind == "write_tool":
            result = deck.call_sync(ToolCall("write", {"path": f"{directory.name}/{name}",
                                                       "content": version()}))
            assert result.ok, result.text
        elif kind == "rewrite":
            size = len(path.read_text())
            path.write_text((version() * (size // 6 + 1))[:size])
        elif kind == "append":
            with path.open("a") as f:
                f.write(version())
        elif kind == "truncate":
            path.write_text("")
        elif kind == "rename_over":
            tmp = directory / (name + ".tmp")
            tmp.write_text(version())
            os.replace(tmp, path)
        elif kind == "same_size_keep_mtime":
            before = os.stat(path)
            size = len(path.read_text())
            path.write_text((version() * (size // 6 + 1))[:size])
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        elif kind == "outside":
            subprocess.run([sys.executable, "-c",
                            "import sys; open(sys.argv[1], 'w').write(sys.argv[2])",
                            str(path), version()], check=True, timeout=60)
        elif kind == "touch":
            os.utime(path)

    examples = itertools.count()

    @settings(max_examples=8, deadline=None)
    @given(ops)
    @example([("settle", ""), ("read", "a.txt"), ("same_size_keep_mtime", "a.txt"),
              ("read", "a.txt")])
    @example([("rewrite", "a.txt"), ("read", "a.txt"), ("rewrite", "a.txt"),
              ("read", "a.txt"), ("rewrite", "a.txt"), ("read", "a.txt")])
    @example([("settle", ""), ("read", "b.txt"), ("outside", "b.txt"), ("read", "b.txt")])
    def run(sequence: list[tuple[str, str]]) -> None:
        directory = root / f"ex{next(examples)}"
        directory.mkdir()
        for name in FILES:
            (directory / name).write_text(version())
        for op, name in sequence:
            if op == "read":
                read(directory, name)
            elif op == "settle":
                settle()
            else:
                edit(directory, op, name)
        settle()
        read(directory, "a.txt")
        hits = store_of(deck.runtime).counts.hits
        read(directory, "a.txt")
        assert store_of(deck.runtime).counts.hits == hits + 1, "the cache was not in play"

    try:
        run()
    finally:
        deck.close()
