#!/usr/bin/env python3
"""Print cases ANSI-stripped with line numbers (head/tail for long ones).

usage: show.py TOOL/SLUG [MAXLINES]
"""

import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "outputs"
ANSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)

case = sys.argv[1]
mx = int(sys.argv[2]) if len(sys.argv) > 2 else 200
text = ANSI.sub("", (OUT / f"{case}.txt").read_bytes().decode("utf-8", "replace"))
lines = [line.rstrip("\r").split("\r")[-1] for line in text.split("\n")]
n = len(lines)
print(f"### {case} ({n} lines)")
if n <= mx:
    sel = range(n)
else:
    h = mx // 2
    sel = [*range(h), -1, *range(n - h, n)]
for i in sel:
    if i == -1:
        print("   ...")
        continue
    print(f"{i + 1:5} {lines[i][:300]}")
