#!/usr/bin/env python3
"""Check that every fact of every case is a substring of one ANSI-stripped line.

usage: facts.py [TOOL/SLUG ...]   (all cases when none are named)
Also apply keys: facts.py --apply KEYFILE  where KEYFILE has blocks
"== tool/slug" followed by one fact per line (blank lines ignored).
"""

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "outputs"
ANSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)


def apply(keyfile: str) -> None:
    cur = None
    blocks: dict[str, list[str]] = {}
    for raw in Path(keyfile).read_text().split("\n"):
        if raw.startswith("== "):
            cur = raw[3:].strip()
            blocks[cur] = []
        elif raw.strip() and cur is not None:
            blocks[cur].append(raw)
    for case, facts in blocks.items():
        jp = OUT / f"{case}.json"
        key = json.loads(jp.read_text())
        key["facts"] = facts
        jp.write_text(json.dumps(key, indent=2, ensure_ascii=False) + "\n")
    print(f"applied {len(blocks)} keys")


def check(cases: list[str]) -> int:
    bad = 0
    paths = [OUT / f"{c}.txt" for c in cases] if cases else sorted(OUT.glob("*/*.txt"))
    for p in paths:
        key = json.loads(p.with_suffix(".json").read_text())
        lines = ANSI.sub("", p.read_bytes().decode("utf-8", "replace")).split("\n")
        for f in key["facts"]:
            if not any(f in line for line in lines):
                bad += 1
                print(f"MISSING {p.relative_to(OUT)}: {f!r}")
    print(f"{len(paths)} cases checked, {bad} missing facts")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--apply"]:
        apply(sys.argv[2])
    else:
        sys.exit(check(sys.argv[1:]))
