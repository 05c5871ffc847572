"""Plugin discovery and loading: built-ins on, third parties opt in, gates fail closed."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.loader import PluginSpec, discover, load_enabled


def fake_distribution(
    root: Path, dist: str, plugins: dict[str, str], gates: tuple[str, ...] = ()
) -> None:
    """Write an installed-looking distribution (a ``.dist-info`` folder) under ``root``."""
    info = root / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = ["[tooldeck]", *(f"{n} = {v}" for n, v in plugins.items())]
    if gates:
        lines += ["", "[tooldeck.gates]", *(f"{n} = {plugins[n]}" for n in gates)]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


def fake_module(root: Path, source: str) -> str:
    """Write a uniquely named module under ``root`` and return its name."""
    name = f"tooldeck_fake_{uuid.uuid4().hex[:12]}"
    (root / f"{name}.py").write_text(source)
    return name


def third_party(name: str, module: str, *, gate: bool = False) -> PluginSpec:
    return PluginSpec(name, module, "tooldeck-extras", "1.0", gate=gate)


# ------------------------------------------------------------------------- discovery


def test_builtins_are_discovered_from_the_tooldeck_distribution() -> None:
    found = discover()
    for name in ("audit", "permissions"):
        assert found[name].builtin
        assert found[name].dist == "tooldeck"
    assert found["permissions"].gate
    assert not found["audit"].gate


def test_third_party_distribution_is_discovered_with_its_gate_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_distribution(tmp_path, "tooldeck-extras", {"extra_gate": "x.gate", "extra": "x.other"},
                      gates=("extra_gate",))
    monkeypatch.syspath_prepend(str(tmp_path))
    found = discover()
    assert found["extra_gate"] == PluginSpec("extra_gate", "x.gate", "tooldeck-extras", "1.0",
                                             gate=True)
    assert not found["extra"].gate
    assert not found["extra"].builtin


def test_a_name_offered_by_two_distributions_is_an_error_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_distribution(tmp_path, "tooldeck-impostor", {"audit": "impostor.audit"})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError) as info:
        discover()
    message = str(info.value)
    assert "'audit'" in message
    assert "'tooldeck-impostor'" in message and "'tooldeck'" in message
    assert "names are unique" in message


# --------------------------------------------------------------------------- loading


def test_builtins_are_enabled_by_default(builtins_installed: dict[str, PluginSpec]) -> None:
    loaded = load_enabled(builtins_installed, [], [])
    assert [(p.spec.name, p.state) for p in loaded] == [
        ("audit", "enabled"), ("permissions", "enabled"),
    ]
    assert all(p.obj is not None for p in loaded)


def test_disable_turns_a_builtin_off(builtins_installed: dict[str, PluginSpec]) -> None:
    loaded = {p.spec.name: p for p in load_enabled(builtins_installed, [], ["audit"])}
    assert loaded["audit"].state == "disabled"
    assert loaded["audit"].why == "disabled by [plugins] disable"
    assert loaded["audit"].obj is None
    assert loaded["permissions"].state == "enabled"


def test_disabled_builtin_is_listed_and_does_not_run(
    make_deck: Callable[..., Deck], tmp_path: Path
) -> None:
    audit = tmp_path / "audit.jsonl"
    deck = make_deck(f'[plugins]\ndisable = ["audit"]\n[tools.audit]\npath = "{audit}"\n')
    states = {p.name: (p.state, p.why) for p in deck.runtime.plugins}
    assert states["audit"] == ("disabled", "disabled by [plugins] disable")
    assert states["core"] == ("enabled", "essential")
    assert not audit.exists()


@pytest.mark.parametrize(
    ("enable", "disable", "key"),
    [(["shel"], [], "plugins.enable"), ([], ["shel"], "plugins.disable")],
)


def test_unknown_plugin_name_is_an_error_naming_the_key(
    enable: list[str], disable: list[str], key: str, builtins_installed: dict[str, PluginSpec]
) -> None:
    with pytest.raises(ConfigError) as info:
        load_enabled(builtins_installed, enable, disable, config_label="my.toml")
    assert str(info.value) == (
        f"my.toml: {key}: no installed plugin named 'shel' (installed: audit, permissions)"
    )
    assert info.value.key == key


def test_unknown_plugin_name_in_toml_is_an_error(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError, match=r"tooldeck\.toml: plugins\.disable: no installed "
                       r"plugin named 'auditt'"):
        make_deck('[plugins]\ndisable = ["auditt"]\n')


def test_core_cannot_be_disabled(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError) as info:
        make_deck('[plugins]\ndisable = ["core"]\n')
    assert "plugins.disable: 'core' is essential and cannot be disabled" in str(info.value)
    assert info.value.key == "plugins.disable"


def test_plugin_list_must_be_a_list_of_names(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError, match=r"plugins\.enable: expected a list of plugin names"):
        make_deck('[plugins]\nenable = "audit"\n')


def test_third_party_plugin_runs_only_when_enabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = fake_module(tmp_path, "LOADED = True\n")
    installed = {"extra": third_party("extra", module)}

    (off,) = load_enabled(installed, [], [])
    assert (off.state, off.why, off.obj) == (
        "disabled", "third-party: not named in [plugins] enable", None,
    )
    (on,) = load_enabled(installed, ["extra"], [])
    assert on.state == "enabled"
    assert on.obj.LOADED is True


def test_import_failure_of_a_plugin_is_isolated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builtins_installed: dict[str, PluginSpec]
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = fake_module(tmp_path, "raise RuntimeError('boom at import')\n")
    installed = {**builtins_installed, "extra": third_party("extra", module)}
    loaded = {p.spec.name: p for p in load_enabled(installed, ["extra"], [])}
    assert loaded["extra"].state == "broken"
    assert loaded["extra"].why == "import failed: RuntimeError: boom at import"
    assert loaded["audit"].state == loaded["permissions"].state == "enabled"


def test_missing_module_is_a_broken_plugin(builtins_installed: dict[str, PluginSpec]) -> None:
    installed = {**builtins_installed, "extra": third_party("extra", "no_such_module_td_xyz")}
    loaded = {p.spec.name: p for p in load_enabled(installed, ["extra"], [])}
    assert loaded["extra"].state == "broken"
    assert loaded["extra"].why.startswith("import failed: ModuleNotFoundError: ")


def test_import_failure_of_a_gate_plugin_refuses_the_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builtins_installed: dict[str, PluginSpec]
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = fake_module(tmp_path, "raise ImportError('gate dependency missing')\n")
    installed = {**builtins_installed, "guard": third_party("guard", module, gate=True)}
    with pytest.raises(ConfigError) as info:
        load_enabled(installed, ["guard"], [])
    message = str(info.value)
    assert "gate plugin 'guard' (tooldeck-extras) is broken" in message
    assert "gates fail closed" in message
    assert "ImportError: gate dependency missing" in message


def test_a_disabled_plugin_is_never_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = fake_module(tmp_path, "raise RuntimeError('must not be imported')\n")
    installed = {"guard": third_party("guard", module, gate=True)}
    (plugin,) = load_enabled(installed, ["guard"], ["guard"])
    assert plugin.state == "disabled"
