"""Precision of redaction and of risk-chain tagging on real source code.

Source code mentions secrets all the time (``secret_key = self.secret_keys[-1]``,
``password: str``, ``token = token[:-1]``) without containing one. This bench reads every
``.py`` file under the given trees and counts:

- lines the redactor changes (each one is a false positive: the corpus holds no secret);
- risk-chain tags raised by an agent's ordinary look at the file — ``cat FILE``,
  ``grep -n WORD FILE`` for every secret-ish word the file contains, ``read FILE`` — which
  would turn the next docs ``fetch`` into a "credential then egress" denial.

Trees: the installed packages of this interpreter (the *tune* half: the rules were tuned on
them) and any checkouts given with ``--held-back`` (never tuned on; e.g. checkouts of
Flask, Requests and Starlette).

    python bench/redaction.py [--held-back DIR ...] [--show N]
"""

from __future__ import annotations

import argparse
import re
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

from tooldeck.plugins.risk_chain.tags import shell_tags, text_tags
from tooldeck.secrets import find_secrets

WORDS = ("secret", "secret_key", "password", "passwd", "token", "api_key", "credential",
         "private_key", "access_key")
_WORD = re.compile("|".join(WORDS), re.IGNORECASE)


def python_files(tree: Path) -> Iterator[Path]:
    yield from sorted(p for p in tree.rglob("*.py") if p.is_file())


def measure(trees: list[Path], show: int) -> dict[str, int]:
    counts = {"files": 0, "lines": 0, "redacted_lines": 0, "tagged_looks": 0, "looks": 0}
    shown = 0
    for tree in trees:
        for path in python_files(tree):
            text = path.read_text(errors="replace")
            rel = path.relative_to(tree).as_posix()
            counts["files"] += 1
            counts["lines"] += text.count("\n") + 1
            lines = text.splitlines()
            for finding in find_secrets(text):
                counts["redacted_lines"] += 1
                if shown < show:
                    shown += 1
                    line = lines[finding.line - 1] if finding.line <= len(lines) else ""
                    print(f"  redacted {rel}:{finding.line}: {line.strip()[:120]}")
            looks = [shell_tags(f"cat {rel}"), text_tags(rel)]
            looks += [shell_tags(f"grep -n {word.lower()} {rel}")
                      for word in {m.group(0) for m in _WORD.finditer(text)}]
            counts["looks"] += len(looks)
            for tags in looks:
                if tags:
                    counts["tagged_looks"] += 1
                    if shown < show:
                        shown += 1
                        print(f"  tagged {rel}: {sorted(t.label for t in tags)}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-back", nargs="*", type=Path, default=[],
                        help="checkouts never used to tune the rules")
    parser.add_argument("--show", type=int, default=10, help="print the first N findings")
    args = parser.parse_args()
    halves = {"tune (installed packages)": [Path(sysconfig.get_paths()["purelib"])]}
    if args.held_back:
        halves["held-back"] = list(args.held_back)
    print(f"{'half':28} {'files':>7} {'lines':>9} {'redacted':>9} {'looks':>7} "
          f"{'tagged':>7} {'s':>6}")
    for name, trees in halves.items():
        t0 = time.perf_counter()
        counts = measure(trees, args.show)
        print(f"{name:28} {counts['files']:7} {counts['lines']:9} "
              f"{counts['redacted_lines']:9} {counts['looks']:7} {counts['tagged_looks']:7} "
              f"{time.perf_counter() - t0:6.1f}")


if __name__ == "__main__":
    main()
