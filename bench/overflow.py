"""Overflow store: store 10 MB and read it back, through the store and through read_overflow.

    python bench/overflow.py [--mb 10] [--rounds 5]

Prints the median milliseconds of: ``OverflowStore.put`` of the text, one ``get``, and a
whole read-back through a deck's ``read_overflow`` tool in pages of 2,000 lines.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.overflow_store import OverflowStore


def text_of(megabytes: int) -> str:
    line = "x" * 89
    return "".join(f"{i:09d} {line}\n" for i in range(megabytes * 10_000))


async def read_back(deck: Deck, ident: str) -> str:
    pages, offset = [], 1
    while True:
        result = await deck.call(ToolCall("read_overflow", {"id": ident, "offset": offset,
                                                            "limit": 2000}, caller_id="b"))
        assert result.output is not None and result.output.raw_response is not None
        page = result.output.raw_response["text"]
        if not page:
            return "".join(pages)
        pages.append(page)
        offset += len(page.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    text = text_of(args.mb)
    puts, gets, pages = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "o.sqlite3"
        config = f'[tools.audit]\nenabled = false\n[tools.overflow]\npath = "{db}"\n'
        config += '[[tools.permissions.read_overflow]]\npattern = "*"\naction = "allow"\n'
        deck = Deck.from_config(parse_document(config, Path(tmp) / "t.toml", "bench"))
        store = OverflowStore(db, retention_days=0, max_bytes=0)
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            ident = store.put("caller:b", "bench", text)
            puts.append(time.perf_counter() - t0)
            assert ident is not None
            t0 = time.perf_counter()
            assert store.get("caller:b", ident) == text
            gets.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            assert asyncio.run(read_back(deck, ident)) == text
            pages.append(time.perf_counter() - t0)
        store.close()
        deck.close()
    print(f"{len(text) / 1e6:.1f} MB, {args.rounds} rounds (median ms)")
    print(f"  put:                      {statistics.median(puts) * 1000:8.1f}")
    print(f"  get:                      {statistics.median(gets) * 1000:8.1f}")
    print(f"  read_overflow, all pages: {statistics.median(pages) * 1000:8.1f}")


if __name__ == "__main__":
    main()
