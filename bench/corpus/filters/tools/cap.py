#!/usr/bin/env python3
"""Capture one real command output into the corpus (third batch harness).

usage: cap.py TOOL/SLUG MODE CWD RUN [--as AGENT_COMMAND] [--tty] [--note TEXT]

RUN is executed with ``bash -c`` (stderr merged into stdout) or, with --tty, under
``script -q -e -c RUN /dev/null`` so the tool sees a pty.  COLUMNS=120 in both.
The raw bytes go to outputs/TOOL/SLUG.txt; the .json gets command (AGENT_COMMAND or
RUN), exit_code, source, mode, and keeps the facts of an existing .json.
"""

import argparse
import json
import os
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "outputs"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("mode")
    ap.add_argument("cwd")
    ap.add_argument("run")
    ap.add_argument("--as", dest="agent")
    ap.add_argument("--tty", action="store_true")
    ap.add_argument("--note", default="")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args()
    env = dict(os.environ, COLUMNS="120")
    if a.tty:
        argv = ["script", "-q", "-e", "-c", a.run, "/dev/null"]
        source = (
            "local capture in a terminal: script -q -e -c CMD /dev/null "
            "(pty, \\r\\n line ends), COLUMNS=120"
        )
    else:
        argv = ["bash", "-c", a.run]
        source = "local capture: bash -c CMD with stderr merged into stdout, COLUMNS=120"
    if a.note:
        source += "; " + a.note
    p = subprocess.run(
        argv,
        cwd=a.cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=a.timeout,
    )
    tool, slug = a.case.split("/")
    d = OUT / tool
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{slug}.txt").write_bytes(p.stdout)
    jp = d / f"{slug}.json"
    facts = json.loads(jp.read_text())["facts"] if jp.exists() else []
    key = {
        "command": a.agent or a.run,
        "exit_code": p.returncode,
        "source": source,
        "mode": a.mode,
        "facts": facts,
    }
    jp.write_text(json.dumps(key, indent=2, ensure_ascii=False) + "\n")
    lines = p.stdout.count(b"\n")
    print(f"{a.case}: exit {p.returncode}, {len(p.stdout)} bytes, {lines} lines")


if __name__ == "__main__":
    main()
