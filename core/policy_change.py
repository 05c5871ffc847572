r"""Which way a policy change goes: a change *tightens* only when a small table proves it.

Two generations (:mod:`tooldeck.generation`) are compared file by file and, inside each TOML
file, key by key (dotted keys down to the first value that is not a table). Every key that
differs must be listed below for its file kind and must have moved in the stricter direction;
any other difference (a key not listed, a key removed, a section gone, a list shortened or
reordered, a plugin enabled or disabled, an opaque file changed) is a *loosening*. Calling a
tightening a loosening only delays it until the file is stable; the reverse would let a torn
save loosen the policy, so the table stays small.

Configuration file (``kind = "config"``):

====================================  ==================================================
key                                   stricter when
====================================  ==================================================
``agent.autonomy``                    it leaves ``"full"`` (``supervised`` ↔ ``readonly``
                                      is not ordered: readonly allows read-only tools that
                                      supervised may ask about)
``tools.enabled``                     it becomes ``false`` (absent = ``true``)
``tools.max_tool_calls_per_session``  it is lowered or set (absent = unlimited)
``tools.shell.blocked_commands``      every old entry is kept (absent = none)
``tools.shell.confirm_patterns``      every old entry is kept (present on both sides:
                                      absent means Zeph's defaults)
``tools.shell.allow_network``         it becomes ``false`` (absent = ``true``)
``tools.file.deny_read``              every old entry is kept (absent = none)
``tools.permissions.<tool>``          the new list is the old one with ``deny`` rules
                                      inserted anywhere and actions raised in place
                                      (allow → ask → deny, same pattern and examples);
                                      first match wins, so an inserted ``ask`` could
                                      shadow a later ``deny`` and is not listed (absent =
                                      no rules, except ``bash``, whose absence means the
                                      rules derived from ``[tools.shell]``)
``tools.policy.enabled``              it becomes ``true`` (absent = ``false``)
``tools.policy.default_effect``       it becomes ``"deny"`` (absent = ``"deny"``)
``tools.verifiers.enabled``,          it becomes ``true`` (absent = ``true``, except
``tools.verifiers.<v>.enabled``       ``url_grounding``: ``false``)
``tools.verifiers.<v>.extra_patterns``,
``….blocked_paths``,
``….blocked_env_vars``                every old entry is kept (absent = none)
``tools.scopes.tasks.<scope>``        every new pattern was there before (a scope only
                                      loses tools)
``tools.policy.rules``                every old ``deny`` rule is kept and every new
                                      ``allow`` rule was there before: deny wins, so an
                                      added deny or a dropped allow can only deny more
                                      (absent = none)
====================================  ==================================================

Policy file of ``[tools.policy] policy_file`` (``kind = "policy"``):

====================================  ==================================================
``rules``                             as ``tools.policy.rules`` above
====================================  ==================================================

Shell overlay (``kind = "overlay"``; overlays only add, so absent = nothing):

====================================  ==================================================
``tools.shell.blocked_commands``      every old entry is kept
``tools.shell.confirm_patterns``      every old entry is kept
``tools.shell.allow_network``         it becomes ``false``
``tools.permissions.bash``            every old rule is kept (overlay rules are checked
                                      beside each other, not in order)
====================================  ==================================================
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from tooldeck.generation import FileVersion

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["PolicyChange", "classify", "loosened_keys"]

_ABSENT: Any = object()
"""A key missing from its table."""

Rule = Callable[[Any, Any], bool]
"""Is ``new`` (second) at least as strict as ``old`` (first)? Values may be ``_ABSENT``."""


def _absent_is(default: Any, rule: Rule) -> Rule:
    def check(old: Any, new: Any) -> bool:
        return rule(default if old is _ABSENT else old, default if new is _ABSENT else new)
    return check


def _false_is_stricter(old: Any, new: Any) -> bool:
    return new is False or old is new is True


def _true_is_stricter(old: Any, new: Any) -> bool:
    return new is True


def _keeps_every_entry(old: Any, new: Any) -> bool:
    return isinstance(old, list) and isinstance(new, list) and all(o in new for o in old)


def _only_drops_entries(old: Any, new: Any) -> bool:
    return isinstance(old, list) and isinstance(new, list) and all(n in old for n in new)


def _lower_limit(old: Any, new: Any) -> bool:
    def limit(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)
    if old is _ABSENT:
        return new is _ABSENT or limit(new)
    return limit(old) and limit(new) and new <= old


def _leaves_full(old: Any, new: Any) -> bool:
    return old == "full" and new in ("supervised", "readonly")


_RANK = {"allow": 0, "ask": 1, "deny": 2}


def _raised(old: Any, new: Any) -> bool:
    """``new`` is ``old`` with its action kept or raised (allow → ask → deny)."""
    if not isinstance(old, Mapping) or not isinstance(new, Mapping) or set(old) != set(new):
        return False
    if any(old[k] != new[k] for k in old if k != "action"):
        return False
    return _RANK.get(str(old.get("action")), 3) <= _RANK.get(str(new.get("action")), -1)


def _deny_inserted(old: Any, new: Any) -> bool:
    """``new`` is ``old`` with deny rules inserted anywhere and actions raised in place."""
    if old is _ABSENT:
        old = []
    if not isinstance(old, list) or not isinstance(new, list):
        return False

    @functools.cache
    def fits(i: int, j: int) -> bool:
        if j == len(new):
            return i == len(old)
        if i < len(old) and _raised(old[i], new[j]) and fits(i + 1, j + 1):
            return True
        inserted = isinstance(new[j], Mapping) and new[j].get("action") == "deny"
        return inserted and fits(i, j + 1)

    return fits(0, 0)


def _deny_kept_allow_not_added(old: Any, new: Any) -> bool:
    """Policy rules: every old deny rule is in ``new``, every new allow rule was in ``old``."""
    old = [] if old is _ABSENT else old
    new = [] if new is _ABSENT else new
    if not isinstance(old, list) or not isinstance(new, list):
        return False

    def effect(rule: Any) -> Any:
        return rule.get("effect") if isinstance(rule, Mapping) else None

    kept = all(rule in new for rule in old if effect(rule) == "deny")
    no_new_allow = all(rule in old for rule in new if effect(rule) != "deny")
    return kept and no_new_allow


def _bash_rules(old: Any, new: Any) -> bool:
    return old is not _ABSENT and new is not _ABSENT and _deny_inserted(old, new)


_CONFIG: dict[str, Rule] = {
    "agent.autonomy": _absent_is("supervised", _leaves_full),
    "tools.enabled": _absent_is(True, _false_is_stricter),
    "tools.max_tool_calls_per_session": _lower_limit,
    "tools.shell.blocked_commands": _absent_is([], _keeps_every_entry),
    "tools.shell.confirm_patterns": _keeps_every_entry,
    "tools.shell.allow_network": _absent_is(True, _false_is_stricter),
    "tools.file.deny_read": _absent_is([], _keeps_every_entry),
    "tools.permissions.bash": _bash_rules,
    "tools.permissions.*": _deny_inserted,
    "tools.policy.enabled": _absent_is(False, _true_is_stricter),
    "tools.policy.default_effect": _absent_is("deny", lambda old, new: new == "deny"),
    "tools.policy.rules": _deny_kept_allow_not_added,
    "tools.scopes.tasks.*": _only_drops_entries,
    "tools.verifiers.enabled": _absent_is(True, _true_is_stricter),
    "tools.verifiers.destructive.enabled": _absent_is(True, _true_is_stricter),
    "tools.verifiers.injection.enabled": _absent_is(True, _true_is_stricter),
    "tools.verifiers.firewall.enabled": _absent_is(True, _true_is_stricter),
    "tools.verifiers.url_grounding.enabled": _absent_is(False, _true_is_stricter),
    "tools.verifiers.destructive.extra_patterns": _absent_is([], _keeps_every_entry),
    "tools.verifiers.injection.extra_patterns": _absent_is([], _keeps_every_entry),
    "tools.verifiers.firewall.blocked_paths": _absent_is([], _keeps_every_entry),
    "tools.verifiers.firewall.blocked_env_vars": _absent_is([], _keeps_every_entry),
}

_POLICY: dict[str, Rule] = {
    "rules": _deny_kept_allow_not_added,
}

_OVERLAY: dict[str, Rule] = {
    "tools.shell.blocked_commands": _absent_is([], _keeps_every_entry),
    "tools.shell.confirm_patterns": _absent_is([], _keeps_every_entry),
    "tools.shell.allow_network": _absent_is(True, _false_is_stricter),
    "tools.permissions.bash": _absent_is([], _keeps_every_entry),
}

_TABLES: dict[str, dict[str, Rule]] = {"config": _CONFIG, "overlay": _OVERLAY,
                                       "policy": _POLICY}


@attrs.frozen
class PolicyChange:
    """How a candidate generation differs from the current one.

    :param changed: the files whose bytes differ (or that appeared or vanished).
    :param loosened: what is not provably stricter: dotted keys, prefixed with the file for
        files other than the configuration; empty for a tightening (or no change).
    """

    changed: tuple[Path, ...]
    loosened: tuple[str, ...]

    @property
    def tightens(self) -> bool:
        """True when nothing is loosened (a tightening, or nothing changed)."""
        return not self.loosened


def _differences(old: Mapping[str, Any], new: Mapping[str, Any],
                 prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    """``(dotted key, old, new)`` for every differing value, descending into tables."""
    for key in sorted(set(old) | set(new), key=str):
        o, n = old.get(key, _ABSENT), new.get(key, _ABSENT)
        if o == n:
            continue
        dotted = f"{prefix}{key}"
        if isinstance(o, Mapping) or isinstance(n, Mapping):
            o = {} if o is _ABSENT else o
            n = {} if n is _ABSENT else n
            if isinstance(o, Mapping) and isinstance(n, Mapping):
                yield from _differences(o, n, dotted + ".")
                continue
        yield dotted, o, n


def _rule_for(table: Mapping[str, Rule], dotted: str) -> Rule | None:
    if dotted in table:
        return table[dotted]
    parent, _, _ = dotted.rpartition(".")
    return table.get(f"{parent}.*") if parent else None


def _parse(version: FileVersion | None) -> Mapping[str, Any] | None:
    if version is None or version.data is None:
        return None
    try:
        data: Mapping[str, Any] = tomllib.loads(version.data.decode("utf-8"))
        return data
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def loosened_keys(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[str, ...]:
    """The dotted keys of configuration ``new`` that are not provably stricter than ``old``.

    :param old: a parsed configuration (the policy in force).
    :param new: a parsed configuration (the candidate).
    :returns: empty when ``new`` tightens ``old`` (or equals it).
    """
    table = _TABLES["config"]
    return tuple(dotted for dotted, o, n in _differences(old, new)
                 if (rule := _rule_for(table, dotted)) is None or not rule(o, n))


def _loosened_in(path: Path, old: FileVersion | None, new: FileVersion | None) -> list[str]:
    kind = next(v.kind for v in (new, old) if v is not None)
    label = "" if kind == "config" else f"{path}: "
    table = _TABLES.get(kind)
    new_data = _parse(new)
    old_data = {} if kind == "overlay" and (old is None or old.data is None) else _parse(old)
    if table is None or old_data is None or new_data is None:
        return [f"{path}: (whole file)"]
    return [f"{label}{dotted}" for dotted, o, n in _differences(old_data, new_data)
            if (rule := _rule_for(table, dotted)) is None or not rule(o, n)]


def classify(old: Mapping[Path, FileVersion], new: Mapping[Path, FileVersion]) -> PolicyChange:
    """Compare two generations: which files changed, and what (if anything) is loosened.

    :param old: the current runtime's files.
    :param new: the candidate's files.
    :returns: the change; ``tightens`` only when the table proves every difference stricter.
    """
    changed: list[Path] = []
    loosened: list[str] = []
    for path in sorted(set(old) | set(new)):
        before, after = old.get(path), new.get(path)
        if (before.data if before else None) == (after.data if after else None):
            continue
        changed.append(path)
        loosened.extend(_loosened_in(path, before, after))
    return PolicyChange(tuple(changed), tuple(loosened))

