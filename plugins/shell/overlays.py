r"""Policy overlays: ``*.toml`` files in ``[tools.shell] policy_dir`` that may only tighten.

An overlay is a TOML file holding a subset of these keys; anything else is refused, naming
the file and the key, and the runtime is not built (on reload the previous policy stays).

=================================  ==========================================================
key                                merged into the effective policy as
=================================  ==========================================================
``tools.shell.blocked_commands``   added to the blocklist floor
``tools.shell.confirm_patterns``   added to the confirm patterns
``tools.shell.allow_network``      only ``false``: network commands are blocked
``[[tools.permissions.bash]]``     ``deny`` and ``ask`` rules only; checked beside the base
                                   rules (never before them: an overlay ``ask`` cannot shadow
                                   a base ``deny``), on every segment and the whole command
=================================  ==========================================================

Refused as loosening: ``allowed_commands``, ``allow_network = true``, ``allow`` rules, and
every other key (an overlay cannot remove anything: lists only add). Files are read in name
order. A ``policy_dir`` that is set but is not a directory is an error (fail closed).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pydantic

from tooldeck.errors import ConfigError
from tooldeck.permission_rules import CompiledRule, PermissionRule, compile_rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["Overlay", "load_overlays", "overlay_files", "read_overlay"]

_TIGHTENING_HINT = (
    "overlays may only add blocked_commands and confirm_patterns, set allow_network = false "
    "and add deny/ask [[tools.permissions.bash]] rules"
)
_SHELL_LISTS = ("blocked_commands", "confirm_patterns")


@attrs.frozen
class Overlay:
    """One validated overlay file.

    :param path: the file.
    :param blocked_commands: patterns added to the blocklist.
    :param confirm_patterns: patterns added to the confirm patterns.
    :param network_off: true when the file sets ``allow_network = false``.
    :param rules: its compiled ``deny``/``ask`` rules for ``bash``.
    """

    path: Path
    blocked_commands: tuple[str, ...] = ()
    confirm_patterns: tuple[str, ...] = ()
    network_off: bool = False
    rules: tuple[CompiledRule, ...] = ()


def _loosening(path: Path, key: str, why: str) -> ConfigError:
    return ConfigError(
        f"{path}: {key}: {why}; refused, the shell policy is unchanged ({_TIGHTENING_HINT})",
        path=str(path), key=key,
    )


def _table(path: Path, value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _loosening(path, key, "expected a table")
    return value


def _only_keys(path: Path, table: Mapping[str, Any], prefix: str, allowed: Sequence[str]) -> None:
    for key in table:
        if key not in allowed:
            raise _loosening(path, f"{prefix}{key}", "not a tightening key")


def _string_list(path: Path, value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _loosening(path, key, f"expected a list of non-empty strings, found {value!r}")
    return tuple(value)


def _rules(path: Path, value: Any, text: str) -> tuple[CompiledRule, ...]:
    key = "tools.permissions.bash"
    if not isinstance(value, list):
        raise _loosening(path, key, "expected an array of tables")
    rules: list[PermissionRule] = []
    for index, item in enumerate(value):
        try:
            rule = PermissionRule.model_validate(item)
        except pydantic.ValidationError as exc:
            raise _loosening(path, f"{key}[{index}]", f"invalid rule: {exc}") from None
        if rule.action == "allow":
            raise _loosening(path, f"{key}[{index}]", "an allow rule would loosen the policy")
        rules.append(rule)
    return tuple(compile_rules("bash", rules, str(path), text=text))


def _read_utf8(path: Path) -> str:
    return path.read_text("utf-8")


def read_overlay(path: Path, read: Callable[[Path], str] = _read_utf8) -> Overlay:
    """Parse and validate one overlay file.

    :param path: the file.
    :param read: reads the file's text (a runtime build reads through its policy generation).
    :returns: the overlay.
    :raises ConfigError: unreadable, not TOML, or a key that is not tightening (named).
    """
    try:
        text = read(path)
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read policy overlay: {exc}", path=str(path)) from None
    _only_keys(path, data, "", ("tools",))
    tools = _table(path, data.get("tools", {}), "tools")
    _only_keys(path, tools, "tools.", ("shell", "permissions"))
    shell = _table(path, tools.get("shell", {}), "tools.shell")
    _only_keys(path, shell, "tools.shell.", (*_SHELL_LISTS, "allow_network"))
    permissions = _table(path, tools.get("permissions", {}), "tools.permissions")
    _only_keys(path, permissions, "tools.permissions.", ("bash",))
    network = shell.get("allow_network", False)
    if network is not False:
        raise _loosening(path, "tools.shell.allow_network", f"only false is accepted, found "
                         f"{network!r}")
    lists = {k: _string_list(path, shell[k], f"tools.shell.{k}") for k in _SHELL_LISTS
             if k in shell}
    return Overlay(
        path=path,
        blocked_commands=lists.get("blocked_commands", ()),
        confirm_patterns=lists.get("confirm_patterns", ()),
        network_off="allow_network" in shell,
        rules=_rules(path, permissions["bash"], text) if "bash" in permissions else (),
    )


def overlay_files(policy_dir: Path) -> list[Path]:
    """The overlay files of a policy directory, in name order.

    :param policy_dir: the directory.
    :returns: its ``*.toml`` regular files.
    :raises ConfigError: the directory does not exist or is not a directory.
    """
    if not policy_dir.is_dir():
        raise ConfigError(
            f"tools.shell.policy_dir: {policy_dir} is not a directory (fail closed: a missing "
            "overlay directory would silently drop its rules)", key="tools.shell.policy_dir",
        )
    return sorted(p for p in policy_dir.glob("*.toml") if p.is_file())


def load_overlays(policy_dir: Path, read: Callable[[Path], str] = _read_utf8
                  ) -> tuple[Overlay, ...]:
    """Read every overlay of a policy directory.

    :param policy_dir: the directory.
    :param read: reads one file's text (see :func:`read_overlay`).
    :returns: the overlays in name order.
    :raises ConfigError: naming the first file and key that is refused.
    """
    return tuple(read_overlay(path, read) for path in overlay_files(policy_dir))
