"""Properties of the command-class rules (issue 12): launchers never hide an escalator, and
the class judgement never raises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes
from tooldeck.shell_analysis.escalation import ESCALATORS

CONTEXT = ClassContext(DEFAULT_BLOCKED, ("/work/project",), "/work/project")
LAUNCHERS = ["strace -f", "ltrace", "chrt -f 10", "taskset -c 0", "firejail --quiet",
             "unshare -r", "valgrind -q", "perf stat", "setarch x86_64", "cpulimit -l 5 --",
             "nohup", "timeout 5", "nice -n 3", "env A=1", "stdbuf -oL", "systemd-run --user"]
_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_./", min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(LAUNCHERS), min_size=1, max_size=3),
       st.sampled_from(sorted(ESCALATORS - {"sudo"})), st.lists(_WORDS, max_size=3))
def test_an_escalator_behind_launchers_is_denied(launchers: list[str], escalator: str,
                                                 args: list[str]) -> None:
    command = " ".join([*launchers, escalator, *args])
    found = judge_classes(analyze(command), CONTEXT)
    assert found is not None and found.verdict == "deny", command


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_class_judgement_never_raises(text: str) -> None:
    judge_classes(analyze(text), CONTEXT)
