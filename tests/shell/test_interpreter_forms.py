"""Interpreter one-liners judged by what they run, in each language's own spawning forms.

Issue 12 item 3 lists the interpreters; their manuals document more ways to start a process
than ``system(``: R's ``system2()``, awk's ``print | "cmd"``, Perl's piped ``open``; GTFOBins'
``capabilities`` context makes a process root with ``setuid(0)``; PowerShell stops the
machine with ``Restart-Computer``. Each is caught; printing, reading and plain output
redirection in the same languages stay allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

CAUGHT = (
    "Rscript -e 'system2(\"reboot\")'", "gawk 'BEGIN{print | \"sh\"}'",
    "awk 'BEGIN{print \"id\" | \"sh\"}'", "perl -e 'open(P,\"|reboot\")'",
    "perl -e 'open(P, \"reboot |\"); print <P>'", "python3 -c 'import os; os.setuid(0)'",
    "perl -MPOSIX -e 'POSIX::setuid(0)'", "pwsh -c 'Restart-Computer'",
    "pwsh -Command 'Stop-Computer -Force'", "python3 -c 'import os; os.system(\"reboot\")'",
)

EVERYDAY = (
    "python3 -c 'print(1)'", "awk '{print $1}' f.txt", "awk '{print > \"out.txt\"}' f.txt",
    "perl -ne 'print if /x/' f.txt", "perl -e 'open(F, \"<data.txt\"); print <F>'",
    "Rscript -e 'print(sessionInfo())'", "python3 -c 'import os; print(os.getuid())'",
)


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every command's verdict under the embedded default."""
    return default_verdicts([*CAUGHT, *EVERYDAY])


def test_every_spawning_form_is_caught(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in CAUGHT if judged[c] not in ("ask", "deny")}
    assert wrong == {}


def test_printing_and_reading_forms_are_allowed(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in EVERYDAY if judged[c] != "allow"}
    assert wrong == {}
