"""Adversarial resolution tests on real files and symlinks (see conftest.build_farm)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.paths import PathSandbox

Farm = Any  # the conftest fixture type (conftest modules are not importable)

# (raw path relative to the farm root or "{root}"/"{out}"/"{base}"-templated, op, canonical
# path the rejection must show, templated the same way)
BLOCKED = [
    ("../outside/secret.txt", "read", "{out}/secret.txt"),
    ("../../../../../../../../etc/passwd", "read", "/etc/passwd"),
    ("{root}/../outside/secret.txt", "read", "{out}/secret.txt"),
    ("{root}/real/../../outside", "read", "{out}"),
    ("/etc/passwd", "read", "/etc/passwd"),
    ("//etc/./passwd", "read", "/etc/passwd"),
    ("/", "read", "/"),
    ("link_out", "read", "{out}/secret.txt"),
    ("link_out", "write", "{out}/secret.txt"),
    ("link_out_abs/secret.txt", "read", "{out}/secret.txt"),
    ("link_out_abs/new.txt", "write", "{out}/new.txt"),
    ("etc/passwd", "read", "/etc/passwd"),
    ("etc", "read", "/etc"),
    ("chain1", "read", "{out}/secret.txt"),
    ("chain1", "write", "{out}/secret.txt"),
    ("dangle_out", "write", "{out}/nope.txt"),
    ("dangle_out", "read", "{out}/nope.txt"),
    ("dangle_out_abs", "write", "/etc/tooldeck-nope"),
    ("up/outside/secret.txt", "read", "{out}/secret.txt"),
    ("up", "read", "{base}"),
    ("dotdot_out/secret.txt", "read", "{out}/secret.txt"),
    ("real/sub/escape/secret.txt", "read", "{out}/secret.txt"),
    ("real/sub/escape/deeper/new.txt", "write", "{out}/deeper/new.txt"),
    ("{base}/sb-evil/x", "read", "{base}/sb-evil/x"),
    ("{base}/sbx", "write", "{base}/sbx"),
    ("{base}/SB/real/file.txt", "read", "{base}/SB/real/file.txt"),
    ("{root}/link_out_abs/../../etc", "read", "{base}/etc"),
]

# raw path -> canonical inside path (allowed)
ALLOWED = [
    ("real/file.txt", "read", "{root}/real/file.txt"),
    ("./real/./file.txt", "read", "{root}/real/file.txt"),
    ("link_in", "read", "{root}/real/file.txt"),
    ("link_in_abs/file.txt", "read", "{root}/real/file.txt"),
    ("chain_in1/file.txt", "read", "{root}/real/file.txt"),
    ("dangle_in", "write", "{root}/real/nothing.txt"),
    ("real/new/deep/file.txt", "write", "{root}/real/new/deep/file.txt"),
    # ".." after a symlink is lexical: it never lands where the kernel would have gone
    ("etc/../real/file.txt", "read", "{root}/real/file.txt"),
    ("link_out_abs/../real/file.txt", "read", "{root}/real/file.txt"),
    ("{root}/../sb/real/file.txt", "read", "{root}/real/file.txt"),
    ("real/../../sb/real/file.txt", "read", "{root}/real/file.txt"),
    # delete keeps the final component: the link itself, not its target
    ("link_out", "delete", "{root}/link_out"),
    ("dangle_out", "delete", "{root}/dangle_out"),
    ("etc", "delete", "{root}/etc"),
    # case and Unicode look-alikes are literal names, never separators or other dirs
    ("ETC/passwd", "read", "{root}/ETC/passwd"),
    ("..\uff0f..\uff0fetc\uff0fpasswd", "read", "{root}/..\uff0f..\uff0fetc\uff0fpasswd"),
    ("\uff25\uff34\uff23/passwd", "read", "{root}/\uff25\uff34\uff23/passwd"),
    ("\uff0e\uff0e/outside", "read", "{root}/\uff0e\uff0e/outside"),
    ("..\\..\\outside\\secret.txt", "read", "{root}/..\\..\\outside\\secret.txt"),
    ("%2e%2e/outside/secret.txt", "read", "{root}/%2e%2e/outside/secret.txt"),
    ("...", "read", "{root}/..."),
    ("~other/x", "read", "{root}/~other/x"),
    ("a\nb/../outside", "read", "{root}/outside"),
]


def _fill(template: str, farm: Farm) -> str:
    return template.format(root=farm.root, out=farm.outside, base=farm.base)


@pytest.mark.parametrize(("raw", "op", "shown"), BLOCKED)
def test_escapes_are_blocked_and_name_the_canonical_path(
    farm: Farm, raw: str, op: str, shown: str
) -> None:
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve(_fill(raw, farm), op=op)  # type: ignore[arg-type]
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    assert "'inside-root'" in caught.value.message
    assert f"{_fill(shown, farm)} is outside" in caught.value.message


@pytest.mark.parametrize(("raw", "op", "expected"), ALLOWED)
def test_inside_paths_resolve_to_their_canonical_form(
    farm: Farm, raw: str, op: str, expected: str
) -> None:
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    assert sandbox.resolve(_fill(raw, farm), op=op) == Path(_fill(expected, farm))  # type: ignore[arg-type]


def test_symlink_loop_is_a_permanent_failure(farm: Farm) -> None:
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve("loop_a/x")
    assert caught.value.category is ErrorCategory.PERMANENT_FAILURE
    assert "'symlink-hops'" in caught.value.message


@pytest.mark.parametrize(
    ("raw", "rule"),
    [
        ("", "not-empty"),
        ("real/\x00file.txt", "no-nul"),
        ("\x00", "no-nul"),
        ("real/" + "x" * 4096, "path-length"),
        ("a/" * 2100, "path-length"),
        ("x" * 256, "component-length"),
        ("\uff25" * 86, "component-length"),  # 258 bytes of UTF-8 in 86 characters
    ],
)
def test_malformed_paths_are_invalid_parameters(farm: Farm, raw: str, rule: str) -> None:
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve(raw)
    assert caught.value.category is ErrorCategory.INVALID_PARAMETERS
    assert f"'{rule}'" in caught.value.message


def test_relative_path_made_too_long_by_cwd_is_invalid(farm: Farm) -> None:
    deep_cwd = str(farm.root) + "/d" * 2000
    sandbox = PathSandbox([farm.root], cwd=deep_cwd)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve("y" * 200)
    assert "'path-length'" in caught.value.message


def test_tilde_is_expanded_to_home(farm: Farm, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(farm.outside))
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve("~/secret.txt")
    assert f"{farm.outside}/secret.txt is outside" in caught.value.message
    with pytest.raises(ToolError):
        sandbox.resolve("~")


def test_tilde_roots_are_expanded(farm: Farm, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(farm.base))
    sandbox = PathSandbox(["~/sb"], cwd="/")
    assert sandbox.roots == (farm.root,)
    assert sandbox.resolve("~/sb/real/file.txt") == farm.root / "real" / "file.txt"


def test_empty_roots_mean_cwd(farm: Farm) -> None:
    sandbox = PathSandbox([], cwd=farm.root / "real")
    assert sandbox.roots == (farm.root / "real",)
    assert sandbox.resolve("file.txt") == farm.root / "real" / "file.txt"
    with pytest.raises(ToolError):
        sandbox.resolve("../link_out")


def test_root_given_through_a_symlink_is_canonicalised(farm: Farm) -> None:
    sandbox = PathSandbox([farm.root / "link_in_abs"], cwd=farm.root)
    assert sandbox.roots == (farm.root / "real",)
    assert sandbox.resolve("link_in") == farm.root / "real" / "file.txt"


def test_nonexistent_root_is_kept_and_blocks_everything_else(farm: Farm) -> None:
    sandbox = PathSandbox(["/nonexistent/sandbox"], cwd=farm.root)
    assert sandbox.roots == (Path("/nonexistent/sandbox"),)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve("./secret.txt")
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    assert sandbox.resolve("/nonexistent/sandbox/a") == Path("/nonexistent/sandbox/a")


def test_delete_refuses_a_root_and_a_root_inside_another(farm: Farm) -> None:
    sandbox = PathSandbox([farm.base, farm.root], cwd=farm.root)
    for raw in (str(farm.root), str(farm.base), ".", "real/.."):
        with pytest.raises(ToolError) as caught:
            sandbox.resolve(raw, op="delete")
        assert "'not-root-or-above'" in caught.value.message
    assert sandbox.resolve("real", op="delete") == farm.root / "real"


def test_is_root_or_above(farm: Farm) -> None:
    sandbox = PathSandbox([farm.root], cwd=farm.root)
    assert sandbox.is_root_or_above(farm.root)
    assert sandbox.is_root_or_above(farm.base)
    assert sandbox.is_root_or_above("/")
    assert not sandbox.is_root_or_above(farm.root / "real")
    assert not sandbox.is_root_or_above(farm.outside)


def test_root_of_and_contains(farm: Farm) -> None:
    sandbox = PathSandbox([farm.root, farm.root / "real"], cwd=farm.root)
    assert sandbox.root_of(farm.root / "real" / "x") == farm.root / "real"
    assert sandbox.root_of(farm.root / "x") == farm.root
    assert sandbox.contains(farm.root / "x")
    assert not sandbox.contains(farm.outside)
    with pytest.raises(ToolError):
        sandbox.root_of(farm.outside)


def test_read_deny_applies_to_canonical_targets_of_symlinks(farm: Farm) -> None:
    os.symlink("real/file.txt", farm.root / "innocent.md")
    sandbox = PathSandbox([farm.root], deny_read=["**/real/*.txt"], cwd=farm.root)
    with pytest.raises(ToolError) as caught:
        sandbox.resolve("innocent.md")
    assert caught.value.category is ErrorCategory.POLICY_BLOCKED
    assert f"'read-deny': {farm.root}/real/file.txt matches" in caught.value.message
    # writes and deletes are not read-restricted
    assert sandbox.resolve("innocent.md", op="write") == farm.root / "real" / "file.txt"
    assert sandbox.resolve("innocent.md", op="delete") == farm.root / "innocent.md"


def test_read_deny_pattern_written_through_a_symlink_still_matches(farm: Farm) -> None:
    sandbox = PathSandbox([farm.root], deny_read=[f"{farm.root}/link_in_abs/*.txt"], cwd=farm.root)
    with pytest.raises(ToolError):
        sandbox.resolve("real/file.txt")


def test_allow_read_only_punches_holes(farm: Farm) -> None:
    only_allow = PathSandbox([farm.root], allow_read=["**/nothing-matches"], cwd=farm.root)
    assert only_allow.resolve("real/file.txt") == farm.root / "real" / "file.txt"
    holes = PathSandbox(
        [farm.root], deny_read=["**/real/**"], allow_read=["**/file.txt"], cwd=farm.root
    )
    assert holes.resolve("real/file.txt") == farm.root / "real" / "file.txt"
    with pytest.raises(ToolError):
        holes.resolve("real/other.txt")
    with pytest.raises(ToolError):
        holes.resolve("real")


def test_invalid_read_glob_rejects_the_configuration(farm: Farm) -> None:
    from tooldeck.errors import ConfigError

    with pytest.raises(ConfigError) as caught:
        PathSandbox([farm.root], deny_read=["**/[unclosed"])
    assert caught.value.key == "deny_read"
