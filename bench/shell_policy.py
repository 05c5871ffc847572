"""How the default policy judges the shell corpus: caught %, benign denied, benign asked.

The corpus is ``tests/shell_corpus/commands.tsv`` (public sources, expected verdicts written
without reading the rules; see its README). Each row is in the *tune* half or the *held-back*
half by a hash of its id, fixed before any rule was tuned on it: rules may be written from the
tune half only, and the held-back half measures what they do on commands nobody tuned to.
A half read to fix rules is no longer held back: its corpus is in ``corpus.OPENED`` and all
its rows count as tune (the four corpora here were opened on 2026-11-29, after their
held-back figures were recorded in the README).

Every command is judged by a real deck built from the embedded default configuration with a
temporary project as the sandbox root (nothing runs: only the gates vote).

    python bench/shell_policy.py [--show N] [--half tune|held-back|all]
        [--corpus commands|fresh|third|…|eleventh|twelfth]
        [--resolver public|system]

``--corpus fresh`` judges ``tests/shell_corpus/fresh.tsv`` instead: a second corpus from other
sources (Atomic Red Team, tldr-pages, agent-bypass reports), written after the rules were;
``--corpus third`` judges ``tests/shell_corpus/third.tsv``: a third, from detection rules
(Sigma, Elastic), post-exploitation checklists and agents' own CI and trajectories;
``--corpus fourth`` judges ``tests/shell_corpus/fourth.tsv``: a fourth (Splunk, Falco, auditd,
Tracee, supply-chain incidents), measured once before any rule saw it; ``--corpus fifth``
judges ``tests/shell_corpus/fifth.tsv``: a fifth (CALDERA, LOOBins, Stratus Red Team, container
escapes, RedCode, agent-bypass threads), likewise written apart from the rules; ``--corpus
sixth`` judges ``tests/shell_corpus/sixth.tsv``: a sixth (Living Off The Pipeline, GTFOArgs,
LOLESXi, LOLRMM, HackTricks Cloud, newer agent-bypass threads), written apart as well;
``--corpus seventh`` judges ``tests/shell_corpus/seventh.tsv`` (Sigma's macOS rules, Azure
Sentinel's Syslog queries, OWASP's testing guide, pwncat, Kubernetes Goat), likewise;
``--corpus eighth`` judges ``tests/shell_corpus/eighth.tsv`` (GuardDog, Atomic Red Team's macOS
tests, Bashfuscator, Wazuh, newer agent-bypass threads; Nix, Gentoo, Spack and task-runner
recipes for the benign rows), likewise; ``--corpus ninth`` judges
``tests/shell_corpus/ninth.tsv`` (threat research on container escapes, CI and package
compromises; pre-commit hooks, Makefiles, Rakefiles and READMEs for the benign rows), likewise;
``--corpus tenth`` judges ``tests/shell_corpus/tenth.tsv`` (ATT&CK software entries for Linux
and macOS malware, Exploit-DB write-ups; Makefiles, Rakefiles and hook entries), likewise;
``--corpus eleventh`` judges ``tests/shell_corpus/eleventh.tsv`` (ATT&CK entries and Exploit-DB
write-ups not cited before, macOS stealers; other languages' daily work and coding agents'
spellings), likewise; ``--corpus twelfth`` judges ``tests/shell_corpus/twelfth.tsv`` (coding
agents' allowlist-bypass advisories and sandbox escapes, ATT&CK and Exploit-DB entries not cited
before; agents' permission allowlists and the commands their issue threads quote), likewise.

Host names are resolved by ``bench/public_dns.py`` (``--resolver public``, the default): a stub
that answers as public DNS does, so the figures do not depend on this machine's network (with
no DNS every public download would ask, and every exfiltration to a made-up domain would look
caught). ``--resolver system`` uses the machine's resolver instead.
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

from corpus import FILES, Row, load_rows  # type: ignore[import-not-found]
from public_dns import public_dns  # type: ignore[import-not-found]

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck, combine_decisions
from tooldeck.egress import use_resolver
from tooldeck.models import ToolCall

CORPORA = FILES
"""The corpus files by name (``corpus.FILES``)."""


Judged = tuple[Row, str, str, str]
"""A row, the verdict it got, the reason, and the rule that decided (``gate:rule``)."""


def judge_all(rows: list[Row], extra: str = "", *, public: bool = True) -> list[Judged]:
    results: list[Judged] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        previous = Path.cwd()
        os.chdir(root)
        try:
            text = embedded_default_text() + "\n[tools.audit]\nenabled = false\n" + extra
            deck = Deck.from_config(parse_document(text, root / "tooldeck.toml", "bench"))
            if public:
                use_resolver(deck.runtime.session, public_dns)
            runtime = deck.runtime
            tool = runtime.tools["bash"]
            for row in rows:
                # one caller per row: the risk chain must not link unrelated rows
                call = ToolCall("bash", {"command": row.command}, caller_id=row.id)
                try:
                    decision = combine_decisions(runtime.hooks.check_call(call, tool, runtime))
                    results.append((row, decision.verdict.value, decision.reason,
                                    f"{decision.gate}:{decision.rule}"))
                except Exception as exc:  # a crash is reported, not hidden
                    results.append((row, "crash", repr(exc), "crash"))
            with contextlib.suppress(Exception):
                deck.close()
        finally:
            os.chdir(previous)
    return results


def _by_rule(label: str, items: list[Judged]) -> None:
    """Print how many rows each deciding rule accounts for (an aggregate: no row is named)."""
    rules = Counter(r[3] for r in items)
    if rules:
        print(f"   {label} by rule:", dict(rules.most_common()))


def report(name: str, results: list[Judged], show: int) -> None:
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
    _by_rule("benign denied", denied)
    _by_rule("benign asked", asked)
    _by_rule("caught with another verdict", wrong_kind)
    if name != "tune":  # held-back rows are measured, never shown (corpus.py)
        return
    for label, items in (("missed", [r for r in dangerous if r not in caught]),
                         ("benign denied", denied), ("benign asked", asked)):
        for row, verdict, reason, _ in items[:show]:
            print(f"   {label}: [{row.id}] {row.command[:90]!r} -> {verdict}: {reason[:80]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="print N examples per failure kind")
    parser.add_argument("--half", choices=("tune", "held-back", "all"), default="all")
    parser.add_argument("--extra", default="", help="TOML appended to the default config")
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="commands",
                        help="commands.tsv (the first corpus), fresh.tsv, third.tsv, fourth.tsv, "
                             "fifth.tsv … eleventh.tsv or twelfth.tsv")
    parser.add_argument("--resolver", choices=("public", "system"), default="public",
                        help="host names answered as public DNS would (default) or by this "
                             "machine's resolver")
    args = parser.parse_args()
    path = CORPORA[args.corpus]
    rows = load_rows(path)
    results = judge_all(rows, args.extra.replace("\\n", "\n"),
                        public=args.resolver == "public")
    print(f"corpus {path.name}, resolver {args.resolver}")
    for half in ("tune", "held-back"):
        rows = [r for r in results if r[0].half == half]
        if half == "held-back" and not rows and args.half != "tune":
            print("== held-back: none (the half was opened to fix rules: corpus.py OPENED, "
                  "README)")
        elif args.half in (half, "all"):
            report(half, rows, args.show)


if __name__ == "__main__":
    main()
