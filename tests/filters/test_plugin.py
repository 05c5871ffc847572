"""The filters plugin through a real deck: settings, strategy registration, output transform."""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
from pathlib import Path

import pytest

from tooldeck.errors import ConfigError
from tooldeck.filters import FilterConfidence, Reduction, Strategy, StrategyParams
from tooldeck.filters.engine import FilterEngine
from tooldeck.filters.plugin import ENGINE
from tooldeck.filters.registry import BUILTIN_STRATEGY_TYPES
from tooldeck.models import ToolCall

from .deckkit import ExecToolPlugin, open_deck

FIXTURES = Path(__file__).parent / "fixtures"
CARGO = (FIXTURES / "cargo_test_failing.txt").read_text()
CARGO_LONG = (FIXTURES / "cargo_test_long.txt").read_text()  # long enough to be cut
TOKEN = "ghp_" + "a1B2c3D4e5" * 3 + "F6g7H8"
PAD = " " + "-" * 60 + " padding"
"""Makes an echoed line long: an output of 25 such lines is long enough to be cut."""


def test_the_builtin_types_are_registered_like_a_third_partys(tmp_path: Path) -> None:
    deck = open_deck(tmp_path, tool=ExecToolPlugin())
    names = {t.name for t in BUILTIN_STRATEGY_TYPES}
    assert names <= set(deck.runtime.strategies)
    assert len(names) == 10
    assert isinstance(deck.runtime.stash_get(ENGINE), FilterEngine)


def test_an_exec_output_is_filtered_with_stats_and_the_raw_kept(tmp_path: Path) -> None:
    command = "cd crate && cargo test 2>&1 | tail -200"
    deck = open_deck(tmp_path, tool=ExecToolPlugin({command: (CARGO_LONG, 101)}))
    result = deck.call_sync(ToolCall("sh", {"command": command}), confirm=True)
    assert result.output is not None
    output = result.output
    stats = output.filter_stats
    assert stats is not None
    assert stats.rules == ("cargo-test-noise", "cargo-test")
    assert stats.confidence == "fallback"
    assert stats.command == command
    assert stats.raw_lines == CARGO_LONG.count("\n") and stats.filtered_lines < stats.raw_lines
    assert stats.raw_chars == len(CARGO_LONG)
    lines = output.summary.split("\n")
    assert lines[-1].startswith("[shell] `cd crate && cargo test 2>&1 | tail -200` ")
    assert lines[-1].endswith("% filtered")
    assert "---- tests::adds_wrongly stdout ----" in lines
    assert output.raw_response is not None
    assert output.raw_response["unfiltered"] == CARGO_LONG
    assert output.raw_response["stdout"] == CARGO_LONG  # the executor's envelope stays
    assert output.exit_code == 101


def test_a_tool_without_exec_is_left_alone(tmp_path: Path) -> None:
    deck = open_deck(tmp_path, tool=ExecToolPlugin({"cargo test": (CARGO, 101)}))
    result = deck.call_sync(ToolCall("show", {"command": "cargo test"}), confirm=True)
    assert result.output is not None
    assert result.output.summary == CARGO and result.output.filter_stats is None


def test_no_stats_line_when_no_line_was_removed(tmp_path: Path) -> None:
    deck = open_deck(tmp_path, tool=ExecToolPlugin({"echo hi": ("hi\n", 0)}))
    output = deck.call_sync(ToolCall("sh", {"command": "echo hi"}), confirm=True).output
    assert output is not None and output.summary == "hi"
    assert output.filter_stats is not None and output.filter_stats.rules == ()
    assert output.filter_stats.confidence is None


def test_secrets_are_redacted_for_the_model(tmp_path: Path) -> None:
    deck = open_deck(tmp_path, tool=ExecToolPlugin({"env": (f"GH={TOKEN}\nHOME=/root\n", 0)}))
    output = deck.call_sync(ToolCall("sh", {"command": "env"}), confirm=True).output
    assert output is not None
    assert TOKEN not in output.summary
    assert "GH=[REDACTED:github-token]" in output.summary


def test_redaction_can_be_turned_off_in_the_nested_table(tmp_path: Path) -> None:
    toml = "[tools.filters.security]\nredact_secrets = false\n"
    deck = open_deck(tmp_path, toml, tool=ExecToolPlugin({"env": (f"GH={TOKEN}\n", 0)}))
    output = deck.call_sync(ToolCall("sh", {"command": "env"}), confirm=True).output
    assert output is not None and TOKEN in output.summary


def test_stderr_marks_are_removed_when_a_rule_matches(tmp_path: Path) -> None:
    marked = "\n".join(f"[stderr] {line}" for line in CARGO_LONG.split("\n"))
    deck = open_deck(tmp_path, tool=ExecToolPlugin({"cargo test": (marked, 101)}))
    output = deck.call_sync(ToolCall("sh", {"command": "cargo test"}), confirm=True).output
    assert output is not None and output.filter_stats is not None
    assert output.filter_stats.confidence == "fallback"
    assert "[stderr]" not in output.summary
    assert output.raw_response is not None and output.raw_response["unfiltered"] == marked


def test_the_truncation_note_stays_the_last_line_before_the_stats(tmp_path: Path) -> None:
    note = "\n[truncated: output exceeded max_output_bytes=1000]"
    plugin = ExecToolPlugin({"cargo test": (CARGO_LONG.rstrip("\n") + note, 101)}, truncated=True)
    deck = open_deck(tmp_path, tool=plugin)
    output = deck.call_sync(ToolCall("sh", {"command": "cargo test"}), confirm=True).output
    assert output is not None
    lines = output.summary.split("\n")
    assert lines[-2] == note.strip() and lines[-1].startswith("[shell] `cargo test` ")


def test_a_real_command_is_filtered(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for n in range(12):
        (repo / f"new{n}.txt").write_text("x")
    deck = open_deck(tmp_path, tool=ExecToolPlugin())
    call = ToolCall("sh", {"command": f"cd {repo} && git status"})
    output = deck.call_sync(call, confirm=True).output
    assert output is not None and output.filter_stats is not None
    assert output.filter_stats.rules == ("git-status",)
    assert "Untracked files:" in output.summary  # short enough to come back whole
    assert all(f"\tnew{n}.txt" in output.summary.split("\n") for n in range(12))
    assert output.raw_response is not None and "new11.txt" in output.raw_response["unfiltered"]


def test_unknown_settings_keys_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"tools\.filters\.on_falure: unknown key"):
        open_deck(tmp_path, "[tools.filters]\non_falure = 'filter'\n", tool=ExecToolPlugin())


@dataclasses.dataclass(frozen=True, kw_only=True)
class ShoutParams(StrategyParams):
    """Parameters of the third-party test strategy."""

    suffix: str = "!"


class Shout(Strategy[ShoutParams]):
    """Drops ``noise`` lines and upper-cases the rest (a third party's strategy type)."""

    name = "shout"
    Params = ShoutParams

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Upper-case ``clean`` without its ``noise`` lines."""
        kept = [line.upper() for line in clean.split("\n") if not line.startswith("noise")]
        return Reduction("\n".join(kept) + self.params.suffix, FilterConfidence.FULL)


class ShoutPlugin:
    """A third-party plugin that contributes a strategy type."""

    from tooldeck import hookimpl

    @hookimpl
    def tooldeck_register_filters(self, register: object) -> None:
        assert callable(register)
        register(Shout)


RULES = """
[[rules]]
name = "loud-echo"
match = {{ prefix = "echo" }}
strategy = {{ type = "shout", suffix = "{suffix}" }}
"""


def test_a_third_party_strategy_is_used_by_a_user_rule(tmp_path: Path) -> None:
    (tmp_path / "filters.toml").write_text(RULES.format(suffix="!!"))
    toml = f"[tools.filters]\nfilters_path = '{tmp_path / 'filters.toml'}'\n"
    deck = open_deck(tmp_path, toml, tool=ExecToolPlugin(), acme=ShoutPlugin())
    assert "shout" in deck.runtime.strategies
    command = f"echo \"$(seq -f 'noise %g{PAD}' 5; seq -f 'hello %g' 25; seq -f 'pad %g{PAD}' 25)\""
    output = deck.call_sync(ToolCall("sh", {"command": command}), confirm=True).output
    assert output is not None and output.summary.startswith("HELLO 1\nHELLO 2\n")
    assert "\nPAD 25" + PAD.upper() + "!!\n[shell] " in output.summary
    assert output.filter_stats is not None and output.filter_stats.rules == ("loud-echo",)


async def test_editing_filters_toml_hot_reloads(tmp_path: Path) -> None:
    rules_dir = tmp_path / "rules"
    rules_dir.mkdir()
    (rules_dir / "filters.toml").write_text(RULES.format(suffix="!"))
    toml = "[tools.filters]\nfilters_path = 'rules'\n"  # relative to the config file
    deck = open_deck(tmp_path, toml, tool=ExecToolPlugin(), acme=ShoutPlugin())
    assert rules_dir.resolve() in deck.watched_dirs()
    command = f"echo \"$(seq -f 'noise %g{PAD}' 5; seq -f 'hi %g{PAD}' 25)\""
    call = ToolCall("sh", {"command": command})
    first = (await deck.call(call, confirm=True)).output
    assert first is not None and f"\nHI 25{PAD.upper()}!\n[shell] " in first.summary
    reloaded = asyncio.Event()
    watcher = asyncio.create_task(deck.watch(on_reload=lambda ok: reloaded.set()))
    try:
        await asyncio.sleep(0.3)
        (rules_dir / "filters.toml").write_text(RULES.format(suffix="?"))
        await asyncio.wait_for(reloaded.wait(), timeout=10)
    finally:
        watcher.cancel()
    second = (await deck.call(call, confirm=True)).output
    assert second is not None and f"\nHI 25{PAD.upper()}?\n[shell] " in second.summary
    await deck.aclose()


FAKE_CARGO = (
    'cargo() { for i in $(seq 1 80); do '
    'echo "   Compiling crate$i v0.1.$i (/srv/app/crates/c$i)" >&2; done; '
    "echo 'error[E0308]: mismatched types' >&2; echo ' --> src/main.rs:4:18' >&2; return 101; }"
    "; cd . && cargo build"
)


async def test_the_real_bash_tool_is_filtered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    deck = open_deck(tmp_path)
    assert "execute" in deck.runtime.tools["bash"].capabilities
    result = await deck.call(ToolCall("bash", {"command": FAKE_CARGO}), confirm=True)
    await deck.aclose()
    assert result.output is not None, result.error
    output = result.output
    assert output.exit_code == 101
    assert output.filter_stats is not None and output.filter_stats.rules == ("cargo-build",)
    lines = output.summary.split("\n")
    assert "error[E0308]: mismatched types" in lines and " --> src/main.rs:4:18" in lines
    assert [line for line in lines if "Compiling crate" in line] == [
        '(80 noise lines removed, like "Compiling crate1 v0.1.1 (/srv/app/crate…")'
    ]
    assert lines[-1].startswith("[shell] `cargo() {") and lines[-1].endswith("% filtered")
    assert output.raw_response is not None
    assert output.raw_response["unfiltered"].count("[stderr]    Compiling crate") == 80
    assert "Compiling crate80" in output.raw_response["stderr"]


def test_each_builtin_strategy_type_is_a_plugin_of_its_own(tmp_path: Path) -> None:
    deck = open_deck(tmp_path, tool=ExecToolPlugin())
    infos = {info.name: info for info in deck.runtime.plugins}
    for strategy_type in BUILTIN_STRATEGY_TYPES:
        info = infos[f"filter_{strategy_type.name}"]
        assert info.state == "enabled" and info.dist == "tooldeck"
        assert "tooldeck_register_filters" in info.hooks
    assert "tooldeck_register_filters" not in infos["filters"].hooks


def test_a_disabled_strategy_plugin_takes_its_type_away(tmp_path: Path) -> None:
    toml = '[plugins]\ndisable = ["filter_keep_matching"]\n'
    deck = open_deck(tmp_path, toml, tool=ExecToolPlugin())
    assert "keep_matching" not in deck.runtime.strategies
    engine = deck.runtime.stash_get(ENGINE)
    assert "git-push" not in [rule.name for rule in engine.rules]  # it uses keep_matching
    assert any(
        "'git-push'" in w and "strategy type 'keep_matching' is not available: its plugin "
        "'filter_keep_matching' is disabled" in w for w in deck.runtime.warnings
    )


def _replacing(type_name: str) -> tuple[type[Shout], object]:
    """A third-party ``Shout`` registered under a built-in type's name, and its plugin."""

    class Replacement(Shout):
        name = type_name

    class ReplacementPlugin:
        from tooldeck import hookimpl

        @hookimpl
        def tooldeck_register_filters(self, register: object) -> None:
            assert callable(register)
            register(Replacement)

    return Replacement, ReplacementPlugin()


def test_a_third_party_may_replace_a_builtin_type(tmp_path: Path) -> None:
    replacement, plugin = _replacing("truncate")
    deck = open_deck(
        tmp_path,
        '[plugins]\ndisable = ["filter_truncate"]\n',
        tool=ExecToolPlugin(),
        acme=plugin,
    )
    assert deck.runtime.strategies["truncate"] is replacement


def test_a_replaced_fallback_also_reduces_a_failed_command_no_rule_knows(
    tmp_path: Path,
) -> None:
    # the replacement has no 'head'/'tail'/'edge_chars': the wide-ended variant of the
    # built-in cannot be built from it, so it runs as it is on such a failure too
    _, plugin = _replacing("fallback")
    deck = open_deck(
        tmp_path,
        '[plugins]\ndisable = ["filter_fallback"]\n',
        tool=ExecToolPlugin(),
        acme=plugin,
    )
    engine = deck.runtime.stash_get(ENGINE)
    raw = "\n".join(f"noise {n}" if n % 2 else f"step {n} {'.' * 60}" for n in range(60))
    output = engine.apply("frobnicate", raw, 2).output
    assert output.startswith("STEP 0 ...") and "NOISE" not in output


def test_disabling_the_fallback_plugin_turns_the_generic_stage_off(tmp_path: Path) -> None:
    deck = open_deck(tmp_path, '[plugins]\ndisable = ["filter_fallback"]\n', tool=ExecToolPlugin())
    engine = deck.runtime.stash_get(ENGINE)
    raw = "\n".join(f"Collecting package{n}" for n in range(200))
    assert engine.fallback is None
    assert engine.apply("frobnicate", raw, 0).output == raw
