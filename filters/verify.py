"""Inline rule tests (``[[rules.tests]]``): run them and report each failure."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from tooldeck.filters.rules import Rule

__all__ = ["RuleTestFailure", "verify_rules"]


@attrs.frozen
class RuleTestFailure:
    """One inline test that did not pass.

    :param rule: the rule's name.
    :param index: the test's 0-based position in the rule.
    :param reason: what went wrong, in one line.
    :param expected: the expected output (or the command expected to match).
    :param actual: what the rule produced.
    """

    rule: str
    index: int
    reason: str
    expected: str
    actual: str

    def describe(self) -> str:
        """A multi-line, human-readable report of the failure.

        :returns: the report.
        """
        return (
            f"rule {self.rule!r} test #{self.index + 1}: {self.reason}\n"
            f"--- expected\n{self.expected}\n--- actual\n{self.actual}"
        )


def verify_rules(rules: Iterable[Rule]) -> list[RuleTestFailure]:
    """Run every inline test of every rule through that rule's strategy alone.

    Outputs are compared after removing trailing newlines. A test with a ``command`` also
    checks that the rule matches it.

    :param rules: the rules (built-in or user).
    :returns: the failures, empty when every test passed.
    """
    failures: list[RuleTestFailure] = []
    for rule in rules:
        for index, test in enumerate(rule.tests):
            if test.command is not None and not rule.matches(test.command):
                failures.append(
                    RuleTestFailure(rule.name, index, "command does not match", test.command, "")
                )
                continue
            actual = rule.strategy.apply(test.input, test.exit_code).output.rstrip("\n")
            expected = test.expected.rstrip("\n")
            if actual != expected:
                failures.append(
                    RuleTestFailure(rule.name, index, "output differs", expected, actual)
                )
    return failures
