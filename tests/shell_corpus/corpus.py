"""Read the shell corpora (``commands.tsv`` …): rows with their expected verdict, tolerance, half.

The half of a row is fixed by a hash of its id (``tune`` when the first byte of its SHA-256
is even): rules may be tuned on the tune half only; the held-back half measures them.
``fresh.tsv`` (:data:`FRESH`) is a second corpus from other sources, in the same format,
meant to measure how well rules tuned on ``commands.tsv`` generalise; ``third.tsv``
(:data:`THIRD`) a third, from sources neither of the others used (detection rules, post-
exploitation checklists, agents' CI and trajectories), written after the rules were;
``fourth.tsv`` (:data:`FOURTH`) a fourth, written by a helper that never saw the rules, from
runtime-detection rules, malware and supply-chain reports and projects' contributor guides;
``fifth.tsv`` (:data:`FIFTH`) a fifth, written apart by a helper that never saw the rules, from
sources none of the others used (CALDERA abilities, LOOBins, Stratus Red Team, container-escape
tools, RedCode, agent-bypass issues, NL2Bash, projects' Makefiles and CI); ``sixth.tsv``
(:data:`SIXTH`) a sixth, written apart the same way, from sources none of the others used
(Living Off The Pipeline, GTFOArgs, LOLESXi, LOLRMM, ThreatHunting-Keywords, HackTricks Cloud,
agent-bypass threads filed since, contributor guides of django, uv and biome); ``seventh.tsv``
(:data:`SEVENTH`) a seventh, written apart the same way, from sources none of the others used
(Sigma's macOS process-creation rules, Azure Sentinel's Syslog hunting queries, OWASP's testing
guide, SecLists, pwncat, Kubernetes Goat, contributor guides of scikit-learn, pandas, numpy,
rails, laravel and others); ``eighth.tsv`` (:data:`EIGHTH`) an eighth, written apart the same
way, from sources none of the others used (DataDog's GuardDog rules and samples, Atomic Red
Team's macOS tests, Bashfuscator, Sysdig's Falco feed, Wazuh's macOS benchmark, agent-bypass
threads filed since, justfiles, Taskfiles, nox and tox sessions, Nix, Gentoo and Spack tests);
``ninth.tsv`` (:data:`NINTH`) a ninth, written apart the same way, from sources none of the others
used (container-escape and Linux privilege-escalation write-ups, malware and supply-chain reports,
CI/CD attacks, agent incidents, pre-commit hooks, a Go Makefile, a Rakefile, a Maven/Gradle README,
package.json scripts, local database and cluster CLIs); ``tenth.tsv`` (:data:`TENTH`) a tenth,
written apart the same way, from sources none of the others used (MITRE ATT&CK software entries,
Exploit-DB privilege escalations, Trend Micro, Elastic, container-escape telemetry and macOS malware
write-ups, pre-commit hook entries, cli/cli's Makefile, a cookiecutter Makefile, jekyll's Rakefile,
express's scripts, local dev and read-only machine inspection); ``eleventh.tsv`` (:data:`ELEVENTH`)
an eleventh, written apart the same way, from sources none of the others used (MITRE ATT&CK
software entries and Exploit-DB entries not cited before, macOS stealer and botnet write-ups,
other languages' daily work: Cargo, Go, Gradle/Maven, .NET, Bundler, Composer, mix, SwiftPM, and
coding agents' spellings); ``twelfth.tsv`` (:data:`TWELFTH`) a twelfth, written apart the same
way, from sources none of the others used (coding agents' allowlist-bypass advisories and
sandbox-escape reports, MITRE ATT&CK software entries and Exploit-DB entries not cited before,
agents' permission allowlists and issue threads quoting the commands they run in Rust, Go, Java,
.NET, Ruby, PHP, Elixir, Swift, JavaScript and Python projects). The eleventh and twelfth are
not in :data:`OPENED`.

A held-back half whose rows were read to change the rules is no longer held back: its file is
in :data:`OPENED` and every one of its rows is in the tune half. The first ten were opened on
2026-11-29, each after its held-back figure was recorded (the README gives them).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

CORPUS = Path(__file__).with_name("commands.tsv")
FRESH = Path(__file__).with_name("fresh.tsv")
THIRD = Path(__file__).with_name("third.tsv")
FOURTH = Path(__file__).with_name("fourth.tsv")
FIFTH = Path(__file__).with_name("fifth.tsv")
SIXTH = Path(__file__).with_name("sixth.tsv")
SEVENTH = Path(__file__).with_name("seventh.tsv")
EIGHTH = Path(__file__).with_name("eighth.tsv")
NINTH = Path(__file__).with_name("ninth.tsv")
TENTH = Path(__file__).with_name("tenth.tsv")
ELEVENTH = Path(__file__).with_name("eleventh.tsv")
TWELFTH = Path(__file__).with_name("twelfth.tsv")
FILES: dict[str, Path] = {
    "commands": CORPUS, "fresh": FRESH, "third": THIRD, "fourth": FOURTH, "fifth": FIFTH,
    "sixth": SIXTH, "seventh": SEVENTH, "eighth": EIGHTH, "ninth": NINTH, "tenth": TENTH,
    "eleventh": ELEVENTH, "twelfth": TWELFTH,
}
"""Every corpus file by the name ``bench/shell_policy.py --corpus`` and the ratchets use."""
OPENED: frozenset[Path] = frozenset({CORPUS, FRESH, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH,
                                    EIGHTH, NINTH, TENTH})
"""Corpus files whose held-back half was read to fix rules: all their rows are tune rows."""


@attrs.frozen
class Row:
    """One command of the corpus."""

    id: str
    verdict: str
    klass: str
    command: str
    source: str
    note: str
    opened: bool = False

    @property
    def benign(self) -> bool:
        """True for the everyday-work classes (``benign_*``)."""
        return self.klass.startswith("benign")

    @property
    def half(self) -> str:
        """``tune`` or ``held-back``, by a hash of the id; ``tune`` once its file is opened."""
        if self.opened or hashlib.sha256(self.id.encode()).digest()[0] % 2 == 0:
            return "tune"
        return "held-back"

    def accepts(self, verdict: str) -> bool:
        """Whether ``verdict`` is right for this row (the README's tolerance markers)."""
        if verdict == self.verdict:
            return True
        if "ask acceptable" in self.note:
            return verdict == "ask" or (self.benign and verdict == "allow")
        if "deny acceptable" in self.note:
            return verdict == "deny"
        return False


def _decode(command: str, note: str) -> str:
    return command.replace("\\n", "\n") if note.startswith("[multiline]") else command


def load_rows(path: Path = CORPUS) -> list[Row]:
    """Every row of a corpus file, commands decoded.

    :param path: the corpus file, :data:`CORPUS` (default), :data:`FRESH`, :data:`THIRD`,
        :data:`FOURTH`, :data:`FIFTH`, :data:`SIXTH`, :data:`SEVENTH`, :data:`EIGHTH`,
        :data:`NINTH`, :data:`TENTH`, :data:`ELEVENTH` or :data:`TWELFTH`.
    :returns: the rows in file order.
    """
    rows: list[Row] = []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    header, *body = lines
    assert header.split("\t") == ["id", "verdict", "class", "command", "source", "note"]
    for line in body:
        ident, verdict, klass, command, source, note = line.split("\t")
        rows.append(Row(ident, verdict, klass, _decode(command, note), source, note,
                        path in OPENED))
    return rows
