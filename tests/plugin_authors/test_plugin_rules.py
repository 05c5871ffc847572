"""A plugin ships filter rules with its strategy type; a user file overrides them by name."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.filters.cli import FilterCommand
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.rules import shipped_rules
from tooldeck.filters.strategy import Reduction, Strategy

if TYPE_CHECKING:
    from tooldeck.testing import DeckFactory

pytest_plugins = ["tooldeck.testing"]


class DedupeParams(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    marker: str = " (repeated)"


class DedupeAdjacent(Strategy[DedupeParams]):
    name = "dedupe_adjacent"
    Params = DedupeParams
    rules = """
[[rules]]
name = "journalctl-dedupe"
match = { prefix = "journalctl" }
strategy = { type = "dedupe_adjacent" }

[[rules.tests]]
input = "a\\na\\na\\nb"
expected = "a (repeated)\\nb"
"""

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        out: list[str] = []
        for line in clean.split("\n"):
            if out and out[-1].removesuffix(self.params.marker) == line:
                out[-1] = line + self.params.marker
            else:
                out.append(line)
        return Reduction("\n".join(out), FilterConfidence.FULL)


class JournalPlugin:
    @hookimpl
    def tooldeck_register_filters(self, register: Any) -> None:
        register(DedupeAdjacent)


JOURNAL = "\n".join(["-- boot --", *["kernel: eth0 link up"] * 120, "done"])  # 2 KB: cut
GIT_LOG = "\n".join(f"commit {i:040x}\nAuthor: A <a@b>\nDate: today\n\n    change {i}\n"
                    for i in range(40))


def _run(deck_config: Path, command: str, text: str, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str], action: str | None = None) -> dict[str, Any]:
    import argparse

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    args = argparse.Namespace(action=action, shell_command=command, exit_code=0, json=True,
                              config=str(deck_config))
    FilterCommand(extra_plugins={"journal": JournalPlugin()}).run(args)
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_the_plugin_rule_applies_and_a_user_file_keeps_the_builtin_git_log_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "filters.toml").write_text(
        '[[rules]]\nname = "mine"\nmatch = { prefix = "mytool" }\n'
        'strategy = { type = "truncate", max_lines = 100 }\n')
    config = tmp_path / "tooldeck.toml"
    config.write_text('[tools.filters]\nfilters_path = "filters.toml"\n')
    journal = _run(config, "journalctl -b", JOURNAL, monkeypatch, capsys)
    assert "journalctl-dedupe" in journal["rule"]
    assert journal["output"].count("eth0") == 1
    git_log = _run(config, "git log", GIT_LOG, monkeypatch, capsys)
    assert git_log["rule"] and git_log["rule"][0].startswith("git-log")
    verify = _run(config, "", "", monkeypatch, capsys, action="verify")
    assert verify["failures"] == []
    assert verify["origins"]["plugin journal"] == 1
    assert verify["origins"][str(tmp_path / "filters.toml")] == 1
    assert verify["origins"]["builtin"] >= 25


def test_a_user_file_switches_the_plugin_rule_off_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "filters.toml").write_text(
        '[[rules]]\nname = "journalctl-dedupe"\nenabled = false\n')
    config = tmp_path / "tooldeck.toml"
    config.write_text('[tools.filters]\nfilters_path = "filters.toml"\n')
    journal = _run(config, "journalctl -b", JOURNAL, monkeypatch, capsys)
    assert "journalctl-dedupe" not in (journal["rule"] or [])


def test_the_deck_filters_with_the_plugin_rule(make_deck: DeckFactory) -> None:
    from tooldeck.filters.plugin import ENGINE

    deck = make_deck(plugins={"journal": JournalPlugin()})
    engine = deck.runtime.stash_get(ENGINE)
    (rule,) = [r for r in engine.rules if r.name == "journalctl-dedupe"]
    assert rule.source == "plugin journal"
    result = engine.apply("sudo journalctl -u nginx", JOURNAL, 0)
    assert "journalctl-dedupe" in result.rules and result.output.count("eth0") == 1


def test_a_plugin_rule_cannot_take_a_builtin_name() -> None:
    class Clash(DedupeAdjacent):
        name = "clash"
        rules = '[[rules]]\nname = "git-status"\nmatch = { prefix = "x" }\n' \
                'strategy = { type = "clash" }\n'

    from tooldeck.filters.registry import default_strategy_registry

    registry = default_strategy_registry()
    registry.register(Clash, owner="clasher")
    loaded = shipped_rules(registry)
    assert [r.source for r in loaded.rules if r.name == "git-status"] == ["builtin"]
    assert any("plugin clasher" in w and "git-status" in w for w in loaded.warnings)


TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"


def _filter(tmp_path: Path, config: str, command: str,
            text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "tooldeck.toml").write_text(config)
    return subprocess.run([TOOLDECK, "filter", "--command", command, "--json", "--config",
                           str(tmp_path / "tooldeck.toml")], input=text, capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)


def test_a_disabled_builtin_type_takes_its_rule_away_with_one_warning_naming_the_plugin(
    tmp_path: Path,
) -> None:
    logs = "\n".join(f"2024-05-01T10:00:{i:02d}Z GET /health 200" for i in range(30))
    proc = _filter(tmp_path, '[plugins]\ndisable = ["filter_dedup"]\n', "docker logs api", logs)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rule"] is None  # log-dedup needs the disabled type
    warnings = [line for line in proc.stderr.splitlines() if "log-dedup" in line]
    assert len(warnings) == 1, proc.stderr
    assert "'filter_dedup' is disabled; remove it from [plugins] disable" in warnings[0]


def test_an_unknown_type_on_the_fast_path_lists_the_builtin_types_once(tmp_path: Path) -> None:
    (tmp_path / "filters.toml").write_text(
        '[[rules]]\nname = "b"\nmatch = { prefix = "x" }\nstrategy = { type = "nope" }\n')
    proc = _filter(tmp_path, '[tools.filters]\nfilters_path = "filters.toml"\n', "x y", "a\n")
    warnings = [line for line in proc.stderr.splitlines() if "skipping rule 'b'" in line]
    assert len(warnings) == 1, proc.stderr
    assert "(known: dedup, fallback, git_diff" in warnings[0] and "none" not in warnings[0]
