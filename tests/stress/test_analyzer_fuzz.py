"""Fuzzing the shell analyser with shell-ish text up to 100 KB, under a per-input time budget.

The inputs are built the way pathological commands are: a small unit of shell fragments
(openers such as ``$(`` and ``((``, quotes, heredoc headers, operators, words) repeated up to
100 KB, between a head and a tail that may leave an operator dangling or a construct open.
Every input must be analysed without an internal failure, get a verdict, and take less than
:data:`PER_INPUT` seconds (the target is 0.1 s; ``bench/analyzer_worst.py`` measures it).
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import CommandAnalysis, analyze, decide
from tooldeck.shell_analysis.budget import MAX_COMMAND_CHARS

PER_INPUT = 4.0
"""Seconds one input may take, generous for a busy CI machine."""

FRAGMENTS = [
    "$(", "((", "$((", "(", ")", "))", "`", "{ ", " }", "${", "}", "<(", ">(", "[[ ", " ]]",
    '"', "'", "$'", "\\", "\n", "<<EOF\n", "<<'EOF'\n", "<<-X\n", "EOF\n", "X\n",
    "|", " | ", "||", " && ", ";", "; ", "&", "|&", ">", ">>", "<", "<<<", "2>&1", ">&",
    "if ", "then ", "fi", "for i in ", "do ", "done", "case x in ", "esac", "!", "=",
    "a", "ls", "echo x", "sudo", "rm -rf /", "bash -c ", "eval ", "x=", "#", " ",
]
UNIT = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join)
EDGE = st.lists(st.sampled_from(FRAGMENTS), max_size=4).map("".join)


def _check(command: str) -> None:
    start = time.perf_counter()
    analysis = analyze(command)
    verdict = decide(command)
    elapsed = time.perf_counter() - start
    assert isinstance(analysis, CommandAnalysis)
    assert not any(r.startswith("analyzer failure") for r in analysis.opaque_reasons)
    assert verdict.decision in ("block", "ask", "allow")
    assert elapsed < PER_INPUT, f"{elapsed:.2f} s for {len(command)} chars: {command[:80]!r}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(head=EDGE, unit=UNIT, size=st.integers(min_value=1_000, max_value=MAX_COMMAND_CHARS),
       tail=EDGE)
@example(head="", unit="cat | ", size=40_000, tail="cat |")
@example(head="", unit="a|", size=40_000, tail="|")
@example(head="", unit="true && ", size=100_000, tail="&&")
@example(head='echo "', unit="echo a; ", size=100_000, tail="")
@example(head="echo $(", unit="echo a; ", size=100_000, tail="")
@example(head="", unit="((", size=100_000, tail="")
@example(head="", unit="a | ", size=40_000, tail="a")
@example(head="cat <<EOF\n", unit="line $(a|b)\n", size=100_000, tail="")
@example(head="", unit="x)", size=40_000, tail="")
@example(head="", unit="'`<", size=1_800, tail="done#")
@example(head="|&(", unit="[[ echo x;", size=10_000, tail=" | ; =")
def test_repeated_units_up_to_100kb(head: str, unit: str, size: int, tail: str) -> None:
    body = unit * max(1, (size - len(head) - len(tail)) // len(unit))
    _check(head + body + tail)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=400).map("".join))
def test_fragment_soup(command: str) -> None:
    _check(command)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["$(", "((", "$((", "`", '"$(', "${x:-", "(", "{ ", "<("]),
                min_size=1, max_size=4),
       st.integers(min_value=100, max_value=20_000), st.booleans())
def test_deep_nesting(openers: list[str], depth: int, closed: bool) -> None:
    opener = "".join(openers)
    command = opener * depth + "sudo id" + (")" * depth * len(openers) if closed else "")
    _check(command[:MAX_COMMAND_CHARS])
