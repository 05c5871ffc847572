"""The engine: pipelines, confidence, failure fallback, stats line, metrics, raw retention."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tooldeck.filters import defaults
from tooldeck.filters.confidence import FilterConfidence, worst_confidence
from tooldeck.filters.engine import FailureMode, FilterEngine, FilterSettings
from tooldeck.filters.fallback import FallbackParams
from tooldeck.filters.rules import Rule, parse_rules
from tooldeck.filters.stats import command_label, stats_line
from tooldeck.filters.strategy import StrategyRegistry

PIPELINE = """
[[rules]]
name = "drop-debug"
match = { prefix = "app" }
strategy = { type = "strip_noise", patterns = ['^DEBUG'] }

[[rules]]
name = "shorten"
match = { regex = '^app\\s+run' }
strategy = { type = "truncate", max_lines = 5, head = 2, tail = 2 }
"""


PAD = " " + "x" * 90
"""Makes an output long enough to be cut (20+ lines of text and 2 KB)."""


def engine_for(registry: StrategyRegistry, text: str, **settings: object) -> FilterEngine:
    return FilterEngine(parse_rules(text, registry).rules, FilterSettings(**settings))  # type: ignore[arg-type]


def test_matching_rules_run_in_file_order_as_a_pipeline(registry: StrategyRegistry) -> None:
    engine = engine_for(registry, PIPELINE)
    raw = "\n".join([f"DEBUG x{PAD}"] * 5 + [f"out {n}{PAD}" for n in range(20)])
    result = engine.apply("cd /srv && app run --fast", raw, 0)
    assert result.rules == ("drop-debug", "shorten")
    assert result.output.startswith(f"out 0{PAD}\nout 1{PAD}\n... (17 lines omitted) ...")
    assert result.confidence is FilterConfidence.PARTIAL


def test_worst_confidence() -> None:
    full, partial, fallback = FilterConfidence
    assert worst_confidence([full, fallback, partial]) is fallback
    assert worst_confidence([full, partial]) is partial
    assert worst_confidence([]) is None


def test_unchanged_stage_does_not_lower_confidence(registry: StrategyRegistry) -> None:
    engine = engine_for(registry, PIPELINE)
    engine = engine_for(registry, PIPELINE.replace("max_lines = 5", "max_lines = 50"))
    raw = "DEBUG a line of debugging output" + PAD * 2 + "\n" + f"kept{PAD}\n" * 25
    result = engine.apply("app run", raw, 0)
    assert result.confidence is FilterConfidence.FULL


def test_no_change_at_all_has_no_confidence(registry: StrategyRegistry) -> None:
    raw = "\n".join(f"line {n}{PAD}" for n in range(25))
    result = engine_for(registry, PIPELINE).apply("app build", raw, 0)
    assert (result.confidence, result.output) == (None, raw)


def test_a_result_that_saves_less_than_its_stats_line_is_dropped(
    registry: StrategyRegistry,
) -> None:
    engine = engine_for(registry, PIPELINE.replace("max_lines = 5", "max_lines = 50"))
    raw = "DEBUG a\n" + f"kept{PAD}\n" * 25  # the noise note is longer than "DEBUG a"
    result = engine.apply("app run", raw, 0)
    assert (result.output, result.confidence) == (raw.rstrip("\n"), None)


def test_a_short_output_is_never_cut(registry: StrategyRegistry) -> None:
    raw = "DEBUG a\n\n\n  indented\n" + "\n".join(f"out {n}" for n in range(10))
    result = engine_for(registry, PIPELINE).apply("app run", raw, 0)
    assert result.rules == ("drop-debug", "shorten")  # they match, and do not run
    assert (result.output, result.confidence, result.stats_line) == (raw, None, None)


def test_no_matching_rule(registry: StrategyRegistry) -> None:
    raw = "\x1b[1mx\x1b[0m\n\n\n\ny\n"
    result = engine_for(registry, PIPELINE).apply("other", raw, 0)
    assert result.rules == () and result.confidence is None
    assert result.output == "x\n\n\n\ny"  # blank lines are content
    assert result.stats_line is None
    long = "\n".join(f"Collecting package{n}" for n in range(100))
    result = engine_for(registry, PIPELINE).apply("other", long, 0)
    assert result.confidence is FilterConfidence.FALLBACK
    first = [f"Collecting package{n}" for n in range(4)]
    last = [f"Collecting package{n}" for n in range(96, 100)]
    assert result.output.split("\n") == [*first, '… 92 lines like "Collecting …" omitted', *last]


def test_unknown_command_only_sanitizes(registry: StrategyRegistry) -> None:
    result = engine_for(registry, PIPELINE).apply(None, "DEBUG a", 0)
    assert (result.output, result.rules) == ("DEBUG a", ())


def test_disabled_engine_only_sanitizes(registry: StrategyRegistry) -> None:
    result = engine_for(registry, PIPELINE, enabled=False).apply("app run", "DEBUG a\nb", 0)
    assert result.output == "DEBUG a\nb" and result.rules == ()


def test_failed_command_keeps_input_of_lossy_stages(registry: StrategyRegistry) -> None:
    raw = "\n".join(f"out {n}{PAD}" for n in range(25))
    result = engine_for(registry, PIPELINE).apply("app run", raw, 1)
    assert result.output == raw  # the truncation is discarded, and the rest is data
    assert result.confidence is None


def test_failure_fallback_is_configurable(registry: StrategyRegistry) -> None:
    raw = "\n".join(f"out {n}{PAD}" for n in range(25))
    engine = engine_for(registry, PIPELINE, on_failure=FailureMode.FILTER)
    assert "lines omitted" in engine.apply("app run", raw, 1).output


def test_the_generic_reduction_stands_for_a_failed_command(registry: StrategyRegistry) -> None:
    # longer than a failed unknown command shown whole (UNKNOWN_FAILURE_LINES)
    raw = "\n".join([f"Compiling unit {n}{PAD}" for n in range(200)] + ["error: boom"])
    result = engine_for(registry, PIPELINE).apply("builder", raw, 1)
    assert result.output.endswith("error: boom") and "lines like" in result.output
    assert result.confidence is FilterConfidence.FALLBACK


def test_result_fields(registry: StrategyRegistry) -> None:
    raw = "DEBUG 1 loading the configuration" + PAD + "\nDEBUG 2 connecting" + PAD + "\n"
    raw += f"keep{PAD}\n" * 20
    result = engine_for(registry, PIPELINE).apply("app build", raw, 0)
    assert result.raw == raw
    assert (result.lines_in, result.lines_out) == (22, 21)
    assert (result.chars_in, result.chars_out) == (len(raw), len(result.output))
    assert result.normalized_command == "app build"
    assert result.stats_line == (
        f"[shell] `app build` 22 lines -> 21 lines, "
        f"{(1 - len(result.output) / len(raw)) * 100:.1f}% filtered"
    )


def test_an_empty_output_is_shown_as_it_is_and_counted(registry: StrategyRegistry) -> None:
    engine = engine_for(registry, PIPELINE)
    for exit_code in (0, 1, None):
        result = engine.apply("cd /srv && app run --fast", "", exit_code)
        assert (result.output, result.raw, result.confidence, result.stats_line) == (
            "", "", None, None)
        assert (result.lines_in, result.lines_out, result.chars_in, result.chars_out) == (
            0, 0, 0, 0)
        assert result.warnings == ()
        assert result.rules == ()  # nothing for a rule to run on
        assert result.normalized_command == "app run --fast"
    assert (engine.metrics.total_commands, engine.metrics.skipped_commands) == (3, 3)
    # rule authors' view is unchanged: apply_rules still names the rules
    assert engine.apply_rules("app run", "").rules == ("drop-debug", "shorten")


def test_stats_line_only_when_lines_were_removed(registry: StrategyRegistry) -> None:
    assert engine_for(registry, PIPELINE).apply("app x", "one\ntwo", 0).stats_line is None


def test_stats_line_format() -> None:
    assert (
        stats_line("shell", None, 342, 28, 1000, 82)
        == "[shell] 342 lines -> 28 lines, 91.8% filtered"
    )
    assert stats_line("bash", None, 0, 0, 0, 0) == "[bash] 0 lines -> 0 lines, 0.0% filtered"


def test_command_label_truncation() -> None:
    assert command_label("  cargo test ") == " `cargo test`"
    long_command = "x" * 61
    assert command_label(long_command) == f" `{'x' * 57}…`"
    assert command_label("y" * 60) == f" `{'y' * 60}`"
    assert command_label(None) == ""


def test_metrics(registry: StrategyRegistry) -> None:
    engine = engine_for(registry, PIPELINE)
    noisy = f"DEBUG connecting to the database{PAD}\n" * 25 + "keep"
    engine.apply("app x", noisy, 0)
    engine.apply("other", "text", 0)
    metrics = engine.metrics
    assert (metrics.total_commands, metrics.filtered_commands, metrics.skipped_commands) == (
        2,
        1,
        1,
    )
    assert metrics.confidence_counts[FilterConfidence.FULL] == 1
    assert metrics.raw_chars_total == len(noisy) + len("text")
    assert 0 < metrics.savings_percent < 100


def test_from_settings_loads_user_file(registry: StrategyRegistry, tmp_path: Path) -> None:
    (tmp_path / "filters.toml").write_text(PIPELINE)
    engine = FilterEngine.from_settings(FilterSettings(filters_path=tmp_path), registry)
    names = [rule.name for rule in engine.rules]
    assert names[-2:] == ["drop-debug", "shorten"] and len(names) > 2, "added to the built-ins"


def test_from_settings_defaults_to_builtin_rules() -> None:
    assert len(FilterEngine.from_settings().rules) >= 40


def test_must_keep_lines_survive_the_whole_pipeline(rules: tuple[Rule, ...]) -> None:
    raw = "\n".join(
        [f"./src/file{n}.py" for n in range(300)]
        + ["find: './secret': Permission denied"]
        + [f"./lib/file{n}.py" for n in range(300)]
    )
    result = FilterEngine(rules).apply("find . -name '*.py'", raw, 1)
    assert "find: './secret': Permission denied" in result.output.split("---")[0]


def test_importing_the_package_is_cheap() -> None:
    code = (
        "import sys, tooldeck.filters as f\n"
        "heavy = {'re2', 'pydantic', 'attrs', 'tomllib'} & set(sys.modules)\n"
        "print(sorted(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_lazy_attribute_errors_for_unknown_names() -> None:
    import tooldeck.filters

    with pytest.raises(AttributeError, match="no_such_name"):
        _ = tooldeck.filters.no_such_name
    assert tooldeck.filters.FilterEngine is FilterEngine


def test_every_public_name_resolves() -> None:
    import tooldeck.filters

    missing = [name for name in tooldeck.filters.__all__ if getattr(tooldeck.filters, name) is None]
    assert missing == []


def test_an_engine_without_settings_uses_the_defaults_of_filter_settings(
    rules: tuple[Rule, ...],
) -> None:
    engine = FilterEngine(rules)
    lines = FallbackParams().data_lines + 300
    raw = "\n".join(f"line {n}" for n in range(lines)) + "\nthread 'main' panicked at a.rs:1:1"
    with_defaults = FilterEngine(rules, FilterSettings()).apply("find .", raw, 0)
    assert engine.apply("find .", raw, 0) == with_defaults
    assert with_defaults.output.endswith("thread 'main' panicked at a.rs:1:1")
    assert [w.message for w in with_defaults.warnings] == ["thread 'main' panicked at a.rs:1:1"]
    assert with_defaults.stats_line is not None and with_defaults.stats_line.startswith("[shell]")
    assert engine.settings == FilterSettings()


def test_filter_settings_defaults_are_the_shared_constants() -> None:
    settings = FilterSettings()
    assert (settings.enabled, settings.on_failure, settings.tool_name) == (
        defaults.DEFAULT_ENABLED, defaults.DEFAULT_ON_FAILURE, defaults.DEFAULT_TOOL_NAME,
    )  # fmt: skip
    assert (settings.security.enabled, settings.security.redact_secrets) == (
        defaults.DEFAULT_SECURITY_ENABLED, defaults.DEFAULT_REDACT_SECRETS,
    )  # fmt: skip
