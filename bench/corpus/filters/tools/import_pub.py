#!/usr/bin/env python3
"""Copy a tool output byte-exact from a fetched public repository snapshot.

usage: import_pub.py MIRROR_GIT_DIR OWNER/NAME PATH TOOL/SLUG MODE EXIT_CODE COMMAND
                     [--lines A-B] [--note TEXT]

The bytes come from ``git show HEAD:PATH`` (optionally only lines A..B, 1-based, inclusive,
each kept with its own line end); ``source`` is the blob URL at the last commit touching PATH
(with ``#LA-LB`` for an excerpt).  EXIT_CODE may be ``null``.
"""

import argparse
import json
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "outputs"


def main() -> None:
    ap = argparse.ArgumentParser()
    for a in ("git_dir", "repo", "path", "case", "mode", "exit_code", "command"):
        ap.add_argument(a)
    ap.add_argument("--lines")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    data = subprocess.run(
        ["git", "--git-dir", a.git_dir, "show", f"HEAD:{a.path}"],
        check=True,
        stdout=subprocess.PIPE,
    ).stdout
    commit = subprocess.run(
        ["git", "--git-dir", a.git_dir, "log", "-1", "--format=%H", "HEAD", "--", a.path],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout.strip()
    url = f"https://github.com/{a.repo}/blob/{commit}/{a.path}"
    if a.lines:
        lo, hi = (int(x) for x in a.lines.split("-"))
        data = b"".join(data.splitlines(keepends=True)[lo - 1 : hi])
        url += f"#L{lo}-L{hi}"
    tool, slug = a.case.split("/")
    d = OUT / tool
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{slug}.txt").write_bytes(data)
    jp = d / f"{slug}.json"
    facts = json.loads(jp.read_text())["facts"] if jp.exists() else []
    key = {
        "command": a.command,
        "exit_code": None if a.exit_code == "null" else int(a.exit_code),
        "source": url + (f" ({a.note})" if a.note else ""),
        "mode": a.mode,
        "facts": facts,
    }
    jp.write_text(json.dumps(key, indent=2, ensure_ascii=False) + "\n")
    nl = data.count(b"\n")
    print(f"{a.case}: {len(data)} bytes, {nl} lines <- {url}")


if __name__ == "__main__":
    main()
