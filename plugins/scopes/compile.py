"""Scopes compiled against the registry: dead patterns and whole-registry patterns refused.

=====================  ====================================================================
check                  outcome
=====================  ====================================================================
namespace              a pattern without a known namespace prefix is an error
glob                   ``*`` any run (``/`` included), ``?`` one character, ``[…]`` a class;
                       case-insensitive; an invalid glob is an error
whole registry         in a scope other than ``general``, a pattern that matches every tool
                       of a non-empty registry is an error: ``scope '{s}': pattern '{p}'
                       matches the entire registry; use default_scope="general" to opt in``
dead pattern           a pattern that matches no tool: ``scope '{s}': pattern '{p}' matched
                       zero registered tools (dead pattern)``, an error in mode ``strict``,
                       and in ``provisional`` for ``builtin:`` and ``skill:``; otherwise a
                       warning
reserved name          a task scope named ``general`` is an error (it admits everything)
=====================  ====================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs
import re2

from tooldeck.errors import ConfigError
from tooldeck.permission_rules import compile_glob
from tooldeck.plugins.scopes.ids import STRICT_NAMESPACES, namespace_of, namespaced_id
from tooldeck.plugins.scopes.settings import GENERAL, SECTION

__all__ = ["Scope", "compile_scopes"]


@attrs.frozen
class Scope:
    """A compiled scope: the tool ids it admits.

    :param name: the scope's name.
    :param admitted: ids of the registered tools it admits (``None``: every tool).
    """

    name: str
    admitted: frozenset[str] | None

    def admits(self, tool_id: str) -> bool:
        """True when the tool is in scope."""
        return self.admitted is None or tool_id in self.admitted


def compile_scopes(tasks: Mapping[str, Iterable[str]], tool_ids: Iterable[str], mode: str,
                   source: str) -> tuple[dict[str, Scope], list[str]]:
    """Compile every task scope against the registered tools.

    :param tasks: scope name -> patterns.
    :param tool_ids: the registered tool ids.
    :param mode: ``strict``, ``provisional`` or ``permissive``.
    :param source: the configuration file, for messages.
    :returns: the scopes by name (``general`` included) and the warnings.
    :raises ConfigError: naming the file, the key and the rule (see the table above).
    """
    registry = {tool_id: namespaced_id(tool_id) for tool_id in tool_ids}
    options = re2.Options()
    options.max_mem = 1 << 20
    scopes = {GENERAL: Scope(GENERAL, None)}
    warnings: list[str] = []
    for name, patterns in tasks.items():
        key = f"{SECTION}.tasks.{name}"

        def fail(message: str, key: str = key) -> ConfigError:
            return ConfigError(f"{source}: {key}: {message}", path=source, key=key)

        if name == GENERAL:
            raise fail(f'scope "{GENERAL}" is built in and admits every tool; name the task '
                       "scope otherwise")
        admitted: set[str] = set()
        for pattern in patterns:
            try:
                namespace = namespace_of(pattern)
                glob = compile_glob(pattern, options)
            except (ValueError, re2.error) as exc:
                raise fail(str(exc)) from None
            matched = {t for t, nid in registry.items() if glob.search(nid.lower())}
            if registry and len(matched) == len(registry):
                raise fail(f"scope '{name}': pattern '{pattern}' matches the entire registry; "
                           f'use default_scope="{GENERAL}" to opt in')
            if not matched:
                message = (f"scope '{name}': pattern '{pattern}' matched zero registered tools "
                           "(dead pattern)")
                strict = mode == "strict" or (mode == "provisional"
                                              and namespace in STRICT_NAMESPACES)
                if strict:
                    raise fail(message)
                warnings.append(f"{source}: {key}: {message}")
            admitted |= matched
        scopes[name] = Scope(name, frozenset(admitted))
    return scopes, warnings
