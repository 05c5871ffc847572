"""How the default policy judges the shell corpus: caught %, benign denied, benign asked.

The corpus is ``tests/shell_corpus/commands.tsv`` (public sources, expected verdicts written
without reading the rules; see its README). Each row is in the *tune* half or the *held-back*
half by a hash of its id, fixed before any rule was tuned on it: rules may be written from the
tune half only, and the held-back half measures what they do on commands nobody tuned to.

Every command is judged by a real deck built from the embedded default configuration with a
temporary project as the sandbox root (nothing runs: only the gates vote).

    python bench/shell_policy.py [--show N] [--half tune|held-back|all] [--corpus fresh|third]

``--corpus fresh`` judges ``tests/shell_corpus/fresh.tsv`` instead: a second corpus from other
sources (Atomic Red Team, tldr-pages, agent-bypass reports), written after the rules were;
``--corpus third`` judges ``tests/shell_corpus/third.tsv``: a third, from detection rules
(Sigma, Elastic), post-exploitation checklists and agents' own CI and trajectories.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "shell_corpus"))

from corpus import CORPUS, FRESH, THIRD, Row, load_rows  # type: ignore[import-not-found]

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck, combine_decisions
from tooldeck.models import ToolCall

CORPORA = {"commands": CORPUS, "fresh": FRESH, "third": THIRD}


def judge_all(rows: list[Row], extra: str = "") -> list[tuple[Row, str, str]]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        previous = Path.cwd()
        os.chdir(root)
        try:
            text = embedded_default_text() + "\n[tools.audit]\nenabled = false\n" + extra
            deck = Deck.from_config(parse_document(text, root / "tooldeck.toml", "bench"))
            runtime = deck.runtime
            tool = runtime.tools["bash"]
            for row in rows:
                # one caller per row: the risk chain must not link unrelated rows
                call = ToolCall("bash", {"command": row.command}, caller_id=row.id)
                try:
                    decision = combine_decisions(runtime.hooks.check_call(call, tool, runtime))
                    results.append((row, decision.verdict.value, decision.reason))
                except Exception as exc:  # a crash is reported, not hidden
                    results.append((row, "crash", repr(exc)))
            with contextlib.suppress(Exception):
                deck.close()
        finally:
            os.chdir(previous)
    return results


def report(name: str, results: list[tuple[Row, str, str]], show: int) -> None:
    dangerous = [r for r in results if not r[0].benign]
    benign = [r for r in results if r[0].benign]
    caught = [r for r in dangerous if r[1] in ("deny", "ask")]
    wrong_kind = [r for r in dangerous if r[1] in ("deny", "ask") and not r[0].accepts(r[1])]
    denied = [r for r in benign if r[1] == "deny"]
    asked = [r for r in benign if r[1] == "ask" and r[0].verdict == "allow"]
    crashes = [r for r in results if r[1] == "crash"]
    print(f"== {name}: {len(dangerous)} dangerous, {len(benign)} benign")
    print(f"   caught (deny or ask):      {len(caught):4} / {len(dangerous)} "
          f"= {100 * len(caught) / max(1, len(dangerous)):.1f} %")
    print(f"   caught with another verdict than expected: {len(wrong_kind)}")
    print(f"   benign denied:             {len(denied):4} / {len(benign)} "
          f"= {100 * len(denied) / max(1, len(benign)):.1f} %")
    print(f"   benign asked:              {len(asked):4} / {len(benign)} "
          f"= {100 * len(asked) / max(1, len(benign)):.1f} %")
    print(f"   crashes:                   {len(crashes)}")
    missed = Counter(r[0].klass for r in dangerous if r not in caught)
    if missed:
        print("   missed by class:", dict(missed.most_common()))
    for label, items in (("missed", [r for r in dangerous if r not in caught]),
                         ("benign denied", denied), ("benign asked", asked)):
        for row, verdict, reason in items[:show]:
            print(f"   {label}: [{row.id}] {row.command[:90]!r} -> {verdict}: {reason[:80]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="print N examples per failure kind")
    parser.add_argument("--half", choices=("tune", "held-back", "all"), default="all")
    parser.add_argument("--extra", default="", help="TOML appended to the default config")
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="commands",
                        help="commands.tsv (the first corpus), fresh.tsv or third.tsv")
    args = parser.parse_args()
    rows = load_rows(CORPORA[args.corpus])
    results = judge_all(rows, args.extra.replace("\\n", "\n"))
    for half in ("tune", "held-back"):
        if args.half in (half, "all"):
            report(half, [r for r in results if r[0].half == half], args.show)


if __name__ == "__main__":
    main()
