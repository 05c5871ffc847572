"""The analysis budget: malformed or huge input is analysed in bounded time, never allowed.

Timings are asserted with a generous bound (2 s) so that a busy machine cannot fail them;
``bench/analyzer_worst.py`` has the precise figures (tens of milliseconds at 100 KB).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tooldeck.shell_analysis import DEFAULT_BLOCKED, analyze, decide, find_blocked, last_command
from tooldeck.shell_analysis.budget import (
    MAX_RUN,
    MAX_SEGMENTS,
    TOO_COMPLEX,
    Budget,
    densest_run,
    refusal,
)
from tooldeck.shell_analysis.parse import parse_tree

GENEROUS = 2.0
"""Seconds; the target is 0.1 s, the bound only has to tell linear from quadratic."""


def _fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def _timed(function: Callable[[str], object], command: str) -> float:
    start = time.perf_counter()
    function(command)
    return time.perf_counter() - start


MALFORMED = {
    "dangling pipe": _fill("cat | ", 40_000, "", "cat |"),
    "dangling pipe, no spaces": _fill("a|", 40_000, "", "|"),
    "dangling &&": _fill("true && ", 100_000, "", "true &&"),
    "unclosed quote": _fill("echo a; ", 100_000, 'echo "'),
    "unclosed $(": _fill("echo a; ", 100_000, "echo $("),
    "deep ((((": "(" * 100_000,
    "run of )": ")" * 40_000,
    "x)x)x)": _fill("x)", 40_000),
    "10k-stage pipeline": _fill("a | ", 40_000, "", "a"),
    "heredoc without terminator": _fill("line |\n", 100_000, "cat <<EOF\n"),
    "one command, 50k words": _fill("a ", 100_000, "echo "),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_input_is_analysed_in_bounded_time_and_not_allowed(name: str) -> None:
    command = MALFORMED[name]
    assert _timed(decide, command) < GENEROUS
    assert decide(command).decision != "allow"


def test_a_40kb_dangling_pipe_is_too_complex_not_a_40_second_parse() -> None:
    command = MALFORMED["dangling pipe, no spaces"]
    assert _timed(analyze, command) < GENEROUS
    verdict = decide(command)
    assert verdict.decision == "ask"
    assert TOO_COMPLEX in verdict.reason


def test_last_command_stays_fast_on_malformed_input() -> None:
    assert _timed(last_command, MALFORMED["dangling pipe, no spaces"]) < GENEROUS
    assert last_command(MALFORMED["x)x)x)"]) is None


def test_what_was_walked_before_the_budget_ran_out_is_still_blocked() -> None:
    command = "sudo id\n" + "echo a\n" * (MAX_SEGMENTS + 10)
    analysis = analyze(command)
    assert any(r.startswith(TOO_COMPLEX) for r in analysis.opaque_reasons)
    match = find_blocked(analysis, DEFAULT_BLOCKED)
    assert match is not None and match.pattern == "sudo"


def test_literal_text_does_not_count_as_operators() -> None:
    row = "<tr><td>a | b</td><td>c && (d)</td></tr>"
    literal = "'" + row * 100 + "'"
    command = f"cat > table.html <<'EOF'\n{row * 2_000}\nEOF\necho {literal} \\|\\|\\|"
    assert densest_run(command.encode()) < 10
    assert decide(command).decision == "allow"


def test_separators_split_the_count_but_code_in_double_quotes_counts() -> None:
    many_lines = "echo a | b\n" * 2_000
    assert densest_run(many_lines.encode()) == 0
    in_quotes = 'echo "' + "$(a|b)" * 1_000 + '"'
    assert densest_run(in_quotes.encode()) > MAX_RUN
    assert decide(in_quotes).decision == "ask"


def test_the_parser_is_reset_after_a_cancelled_parse() -> None:
    budget = Budget(seconds=0.002)
    assert budget.parse(_fill("x)", 4_000).encode()) is None
    assert budget.exhausted is not None and budget.exhausted.startswith(TOO_COMPLEX)
    tree = parse_tree(b"ls -la")
    assert tree is not None and not tree.root_node.has_error
    assert analyze("ls -la").commands == ("ls",)


@pytest.mark.parametrize(("command", "what"), [
    ("echo a\x00b", "NUL byte"),
    ("ls\x00", "NUL byte"),
    ("echo a\ud800b", "lone surrogate U+D800"),
    ("cat \udcff", "lone surrogate U+DCFF"),
])
def test_nul_and_lone_surrogates_are_refused(command: str, what: str) -> None:
    reason = refusal(command)
    assert reason is not None and what in reason
    analysis = analyze(command)
    assert analysis.refusal == reason and analysis.opaque
    verdict = decide(command)
    assert (verdict.decision, verdict.rule) == ("block", "command")


def test_ordinary_text_is_not_refused() -> None:
    assert refusal("echo 'héllo wörld' 😀 | wc -c") is None
    assert analyze("echo 😀").refusal is None


def test_a_nul_byte_in_nested_code_is_opaque() -> None:
    analysis = analyze("bash -c $'echo a\\x00b'")
    assert analysis.refusal is None
    assert decide("bash -c $'echo a\\x00b'").decision != "allow"


def test_a_garbage_collection_during_an_analysis_is_not_charged_to_it() -> None:
    """Slow collections inside an analysis left the command opaque at random (found as a
    flaky hypothesis test under load); the deadline counts the analysis's own work only."""
    import gc

    burned: list[float] = []

    def slow_collection(phase: str, _info: dict[str, int]) -> None:
        if phase == "start" and sum(burned) < 0.2:  # 2 ms per collection, 200 ms in all
            started = time.thread_time()
            while time.thread_time() - started < 0.002:
                pass
            burned.append(time.thread_time() - started)

    command = "bash -c " + "'" + "; ".join(f"echo {i} && ls dir{i}" for i in range(60)) + "'"
    thresholds = gc.get_threshold()
    gc.callbacks.append(slow_collection)
    gc.set_threshold(1)
    try:
        analysis = analyze(command)
    finally:
        gc.set_threshold(*thresholds)
        gc.callbacks.remove(slow_collection)
    assert sum(burned) > 0.05, "the collections did not cost more than the budget"
    assert not analysis.opaque, analysis.opaque_reasons
