#!/usr/bin/env python3
"""Regenerate the generated half of ../README.md from the corpus files.

Everything before the line ``## Totals`` is prose kept as it is; everything from there on
(totals, counts per tool and mode, size bands, huge outputs, the case table, the batch lists
and the public sources) is rebuilt from outputs/*/*.{txt,json} and tools/batches.json
(the case lists of the second and third batches, the tune-only probes added since, the
pytest plugin captures of filters28 and the new tools of filters32; every other case is first
batch).

Definitions used: ``tiny`` = at most 3 lines; ``huge`` = at least 51,200 bytes (50 KB);
``ANSI colour`` = contains ESC; ``carriage returns`` = contains a ``\\r`` not followed by ``\\n``.
"""

import collections
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "outputs"
HUGE = 51200
MODE_NOTE = (
    "Mode meanings: `success`/`failure` (ordinary run, exit 0 / non-zero), `warnings`, "
    "`verbose`, `quiet`, `tiny` (1\N{EN DASH}3 lines), `huge` (>= 50 KB), `color` (forced ANSI "
    "colour or a terminal run), `progress`/`progress-tty` (progress bars with `\\r` or cursor "
    "movement), `listing` (structured list where the names are the point), `empty-*` (no output "
    "at all; facts empty on purpose: a filter must not invent any), `conflict` (git merge/rebase/"
    "cherry-pick conflicts), and a few specific ones (`json`, `ci-log-debug`, `failure-wrapper`, "
    "`failure-piped` (a failing run whose exit code a pipe hid), `failure-parallel`, "
    "`crash-report` (gdb on a crashing program), `zero-tests`, `tiny-error`, `empty-stdin`, ...)."
)


def lines_of(b: bytes) -> int:
    n = b.count(b"\n")
    return n + (1 if b and not b.endswith(b"\n") else 0)


def load():
    cases = []
    for p in sorted(OUT.glob("*/*.txt")):
        rel = p.relative_to(OUT).as_posix()[:-4]
        b = p.read_bytes()
        k = json.loads(p.with_suffix(".json").read_text("utf-8"))
        cases.append(
            {
                "case": rel,
                "tool": rel.split("/")[0],
                "bytes": len(b),
                "lines": lines_of(b),
                "ansi": b"\x1b" in b,
                "cr": bool(re.search(rb"\r(?!\n)", b)),
                **k,
            }
        )
    return cases


def stats(cs):
    return (
        f"{len(cs)} outputs from {len({c['tool'] for c in cs})} tools; "
        f"{sum(c['bytes'] >= 2048 for c in cs)} of 2 KB or more, "
        f"{sum(c['bytes'] >= HUGE for c in cs)} huge (>= 50 KB), "
        f"{sum(c['lines'] <= 3 for c in cs)} tiny (<= 3 lines), "
        f"{sum(c['ansi'] for c in cs)} with ANSI colour, "
        f"{sum(c['cr'] for c in cs)} with carriage returns."
    )


def band(b):
    return (
        "< 2 KB" if b < 2048 else "2-10 KB" if b < 10240 else "10-50 KB" if b < HUGE else ">= 50 KB"
    )


BATCHES = (("second", "Second batch"), ("third", "Third batch"), ("probes", "Tune probes"),
           ("pytest_plugins", "pytest plugins (filters28)"),
           ("new_tools", "New tools (filters32)"),
           ("filters33", "Second fresh batch (filters33)"))
"""The case lists of ``batches.json`` by key, and the title each has in the README."""


def main() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    prose = readme.split("## Totals\n", 1)[0]
    batches = json.loads((HERE / "batches.json").read_text())
    second, third = set(batches["second"]), set(batches["third"])
    cases = load()
    s2 = [c for c in cases if c["case"] in second]
    s3 = [c for c in cases if c["case"] in third]
    named = [(title, set(batches.get(key, []))) for key, title in BATCHES]
    o = [
        prose.rstrip("\n") + "\n",
        "## Totals\n",
        f"- All: {stats(cases)}",
        *(f"- {title}: {stats([c for c in cases if c['case'] in names])}"
          for title, names in named),
        "",
        "## Counts per tool and mode\n",
        "| tool | n | second batch | third batch | modes |",
        "| --- | --- | --- | --- | --- |",
    ]
    by_tool = collections.defaultdict(list)
    for c in cases:
        by_tool[c["tool"]].append(c)
    for t in sorted(by_tool):
        cs = by_tool[t]
        modes = collections.Counter(c["mode"] for c in cs)
        o.append(
            f"| {t} | {len(cs)} | {sum(c['case'] in second for c in cs)} | "
            f"{sum(c['case'] in third for c in cs)} | "
            + ", ".join(f"{m} {n}" for m, n in sorted(modes.items()))
            + " |"
        )
    o += ["", "## Counts per mode\n", "| mode | n |", "| --- | --- |"]
    for m, n in collections.Counter(c["mode"] for c in cases).most_common():
        o.append(f"| {m} | {n} |")
    o += [
        "",
        MODE_NOTE,
        "",
        "## Size bands\n",
        "| band | all | second batch | third batch |",
        "| --- | --- | --- | --- |",
    ]
    for b in ("< 2 KB", "2-10 KB", "10-50 KB", ">= 50 KB"):
        o.append(
            f"| {b} | {sum(band(c['bytes']) == b for c in cases)} | "
            f"{sum(band(c['bytes']) == b for c in s2)} | "
            f"{sum(band(c['bytes']) == b for c in s3)} |"
        )
    o += ["", "## Huge outputs\n", "| case | bytes | lines |", "| --- | --- | --- |"]
    for c in sorted((c for c in cases if c["bytes"] >= HUGE), key=lambda c: -c["bytes"]):
        o.append(f"| {c['case']} | {c['bytes']} | {c['lines']} |")
    o += [
        "",
        "## All cases\n",
        "| case | mode | exit | bytes | facts | command |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for c in cases:
        ex = "null" if c["exit_code"] is None else c["exit_code"]
        cmd = c["command"].replace("|", "\\|")
        o.append(
            f"| {c['case']} | {c['mode']} | {ex} | {c['bytes']} | {len(c['facts'])} | `{cmd}` |"
        )
    for title, names in named:
        o += ["", f"## {title}\n", ", ".join(f"`{c}`" for c in sorted(names))]
    o += [
        "",
        "## Public sources\n",
    ]
    for c in cases:
        if c["source"].startswith("https://"):
            o.append(f"- {c['case']}: {c['source']}")
    (ROOT / "README.md").write_text("\n".join(o) + "\n", "utf-8")


if __name__ == "__main__":
    main()
