"""Recall of redaction on the secret fixtures of public scanners' test suites.

Rows come from ``tests/secrets_corpus/fixtures.jsonl`` (made by
``bench/extract_secret_fixtures.py`` from gitleaks, trufflehog and detect-secrets). A row
counts as redacted when ``redact(sample)`` no longer contains the secret value.

Rows are split by a hash of (scanner, rule id), fixed before any tuning: the *tune* half
(rules were improved looking at its misses, which are listed) and the *held-back* half
(never looked at; only its aggregate is printed).

    python bench/secret_fixtures.py [--show N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path

from tooldeck.secrets import redact

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "secrets_corpus" / "fixtures.jsonl"


def load(path: Path = FIXTURES) -> list[dict[str, str]]:
    """The fixture rows (the header line skipped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:] if line.strip()]


def half(row: dict[str, str]) -> str:
    """``tune`` or ``held-back``, by a hash of the row's scanner and rule id."""
    digest = hashlib.sha256(f"{row['scanner']}/{row['rule']}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "held-back"


def redacted(row: dict[str, str]) -> bool:
    """Whether redacting the sample hides the secret value."""
    return row["secret"] not in redact(row["sample"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=40, help="tune-half misses to list")
    args = parser.parse_args()
    rows = load()
    for name in ("tune", "held-back"):
        part = [row for row in rows if half(row) == name]
        misses = [row for row in part if not redacted(row)]
        hit = len(part) - len(misses)
        print(f"{name}: {len(part)} rows, {hit} redacted ({100 * hit / len(part):.1f} %)")
        if name != "tune":
            continue
        by_rule = Counter(f"{row['scanner']}/{row['rule']}" for row in misses)
        print("  families missed most: " +
              ", ".join(f"{rule} ({n})" for rule, n in by_rule.most_common(15)))
        for row in misses[: args.show]:
            sample = row["sample"].replace("\n", "\\n")[:140]
            print(f"  miss {row['scanner']}/{row['rule']}: {sample}")
    total = sum(redacted(row) for row in rows)
    print(f"all: {len(rows)} rows, {total} redacted ({100 * total / len(rows):.1f} %)")


if __name__ == "__main__":
    main()
