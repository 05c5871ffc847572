"""Classes the filters missed on the second fresh batch of real outputs (filters33).

Each fixture is one real run captured for filters33 (the same bytes are tune outputs of the
corpus, ``bench/corpus/filters/outputs/<tool>/f33-*``). Every test names what a reader needs
and checks it survives the default rules, and that the output is still reduced.
"""

from __future__ import annotations

from .capturekit import capture, default_engine


def _raw(name: str) -> str:
    return capture(f"{name}.txt")


def _kept(command: str, raw: str, exit_code: int) -> list[str]:
    result = default_engine().apply(command, raw, exit_code)
    assert len(result.output) < len(raw)
    return result.output.split("\n")


def test_node_spec_reporter_keeps_the_location_of_every_failing_test() -> None:
    raw = _raw("node_f33_commander_test_spec_fail")
    kept = _kept("node --test --test-reporter=spec 2>&1 | tail -150", raw, 0)
    locations = [line for line in raw.split("\n") if line.startswith("test at ")]
    assert len(locations) == 6
    for line in locations:
        assert line in kept, line


def test_rspec_documentation_keeps_pending_examples_and_their_reasons() -> None:
    raw = _raw("rspec_f33_cart_documentation")
    kept = _kept("bundle exec rspec --format documentation", raw, 1)
    for fact in ("  handles an unknown code (PENDING: No reason given)",
                 "  is not written yet (PENDING: Not yet implemented)",
                 "  counts items across adds (FAILED - 2)",
                 "47 examples, 2 failures, 2 pending"):
        assert fact in kept, fact


def test_biome_keeps_each_file_it_would_reformat() -> None:
    raw = _raw("biome_f33_commander_check")
    kept = _kept("npx @biomejs/biome check lib", raw, 1)
    headings = [line for line in raw.split("\n") if " format \u2501" in line]
    assert len(headings) == 5
    for line in headings:
        assert any(line.split(" ")[0] + " format" in k for k in kept), line


def test_go_test_keeps_the_message_of_every_failing_test() -> None:
    raw = _raw("go_f33_errors_test")
    kept = _kept("go test ./...", raw, 1)
    lines = raw.split("\n")
    heads = [i for i, line in enumerate(lines) if line.startswith("--- FAIL: ")]
    assert len(heads) == 13
    for i in heads:
        assert lines[i] in kept, lines[i]
        assert lines[i + 1] in kept, lines[i + 1]


def test_go_test_json_keeps_the_fail_event_of_every_failing_test() -> None:
    raw = _raw("go_f33_errors_race_json")
    kept = "\n".join(_kept("go test -race -json -run 'TestFormat|TestWrap' ./...", raw, 1))
    failed = [line.split('"Test":"')[1].split('"')[0] for line in raw.split("\n")
              if '"Action":"fail"' in line and '"Test":"' in line]
    assert len(failed) == 8
    for name in failed:
        assert f'"Action":"fail","Package":"github.com/pkg/errors","Test":"{name}"' in kept, name
