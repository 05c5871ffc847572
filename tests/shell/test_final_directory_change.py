"""A ``cd`` that ends the command changes the directory of nothing, and is not judged as a path.

Every ``bash`` call runs in a fresh shell, so ``cd backend && go test ./... && cd ..`` ends where
it began. Main denied it (rule ``sandbox-path``: ``..`` resolved from the project is outside),
while ``cd backend && cd .. && ls`` was allowed: coding agents write the first form all the
time, to leave the shell where they found it. Only a top-level change written at the very end
counts: one in a loop, a group, a function, a branch or a nested shell may be followed or
repeated, and an ``EXIT`` trap runs after it, in the directory it changed to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from tooldeck.shell_analysis import analyze
from tooldeck.shell_analysis.outside_work import final_directory_change, inert_directories

Judge = Callable[[Sequence[str]], dict[str, str]]

ENDS_WITH_A_CHANGE = [
    "cd backend && go test ./... && cd ..",
    "cd backend; make; cd ..",
    "cd frontend && npm run build && cd ../",
    "cd packages/core && pnpm test && cd ../..",
    "pushd backend && go test ./... && popd",
    "make && cd .. ;",
]

STILL_JUDGED = {
    # repeated or followed: a loop, a group, a branch, a function body, a nested shell
    "for i in 1 2; do rm -rf project; cd ..; done": "deny",
    "while true; do touch x; cd ..; done": "deny",
    "if true; then make; cd ..; fi": "deny",
    "{ make; cd ..; }": "deny",
    "bash -c 'make; cd ..'": "deny",
    # an EXIT trap runs after the change, where it led
    "trap 'rm -rf *' EXIT; cd ..": "deny",
    "trap \"touch evil\" EXIT && cd /": "deny",
    # the same word named by another command, or a redirection: judged there
    "cp x .. && cd ..": "deny",
    "echo hi > ../out && cd ..": "deny",
    "cd .. > ../log": "deny",
    # a change followed by a command: judged by what follows, as before
    "cd .. && rm -rf project": "deny",
    "cd .. && touch evil": "deny",
    "cd / && rm -rf tmp/foo": "deny",
}


@pytest.mark.parametrize("command", ENDS_WITH_A_CHANGE)
def test_a_final_change_of_directory_is_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"


@pytest.mark.parametrize("command", sorted(STILL_JUDGED))
def test_a_change_something_follows_is_still_judged(default_verdicts: Judge,
                                                     command: str) -> None:
    assert default_verdicts([command])[command] == STILL_JUDGED[command]


@pytest.mark.parametrize(("command", "final", "inert"), [
    ("cd backend && make && cd ..", True, {".."}),
    ("cp x .. && cd ..", True, set()),  # final, but '..' is also cp's destination
    ("cd ..", True, {".."}),
    ("cd .. && ls", False, set()),
    ("(make; cd ..)", False, set()),
    ("trap 'rm -rf *' EXIT; cd ..", False, set()),
    ("cd .. &", False, set()),
])
def test_only_the_final_top_level_change_is_inert(command: str, final: bool,
                                                  inert: set[str]) -> None:
    analysis = analyze(command)
    assert (final_directory_change(analysis) is not None) is final
    assert inert_directories(analysis) == inert
