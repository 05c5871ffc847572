"""A linter's findings at a line and column are its result: none is folded as a repeat.

Found replaying a freeform minimist session (bench/sessions.py): ``npm run lint`` printed 53
ESLint warnings in the default "stylish" format (a file heading, then ``  9:31  warning  No
magic number: 1  no-magic-numbers`` per finding) and the repeated-fact grouping kept only the
first and last of each rule, folding 28 warnings into ``… 1 line like "9:31 warning …"
omitted`` notices. Issue 13, item 3: "for a linter, warnings are the result". Up to
``FINDINGS_WHOLE_UP_TO`` lines every finding with its location stays; a report of hundreds
still keeps each rule's first and last finding per file and counts the others.
"""

from __future__ import annotations

from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.repeats import FINDINGS_WHOLE_UP_TO


def _stylish(findings: int) -> str:
    lines = ["", "> demo@1.0.0 lint", "> eslint --ext=js,mjs .", "", "", "/work/demo/index.js"]
    lines += [f"  {10 + 3 * n}:{5 + n % 7}  warning  No magic number: {n % 3}"
              f"                 no-magic-numbers" for n in range(findings)]
    lines += ["", f"✖ {findings} problems (0 errors, {findings} warnings)", ""]
    return "\n".join(lines)


def test_every_eslint_warning_of_a_lint_report_is_kept(engine: FilterEngine) -> None:
    raw = _stylish(70)
    assert 60 < raw.count("\n") <= FINDINGS_WHOLE_UP_TO  # long enough for repeats to apply
    kept = engine.apply("npm run lint", raw, 0).output.split("\n")
    warnings = [line for line in raw.split("\n") if "warning  No magic" in line]
    assert [line for line in warnings if line not in kept] == []


def test_ruff_findings_of_one_rule_in_one_file_are_all_kept(engine: FilterEngine) -> None:
    raw = "\n".join(f"src/app.py:{n}:89: E501 Line too long ({90 + n} > 88)"
                    for n in range(1, 80)) + "\nFound 79 errors.\n"
    kept = engine.apply("ruff check --output-format=concise src", raw, 1).output.split("\n")
    assert [line for line in raw.split("\n")[:-2] if line not in kept] == []


def test_a_report_of_hundreds_of_findings_still_counts_the_middle(engine: FilterEngine) -> None:
    raw = "\n".join(f"src/app.py:{n}:89: E501 Line too long ({90 + n} > 88)"
                    for n in range(1, 400)) + "\nFound 399 errors.\n"
    result = engine.apply("ruff check --output-format=concise src", raw, 1)
    assert len(result.output) < len(raw) / 2
    assert "src/app.py:1:89: E501" in result.output
    assert "src/app.py:399:89: E501" in result.output
