"""Rule files: the TOML schema, loading with per-rule error isolation, and the built-in rules."""

from __future__ import annotations

import dataclasses
import logging
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar

import attrs

from tooldeck.errors import ConfigError
from tooldeck.filters.command import command_segment
from tooldeck.filters.matcher import CommandMatcher, MatchKind
from tooldeck.filters.patterns import PatternError
from tooldeck.filters.strategy import Strategy, StrategyConfigError, StrategyRegistry
from tooldeck.filters.tables import MinLen, TableError, build_table, validate_table

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "BUILTIN_RULES_RESOURCE",
    "MAX_RULES_FILE_BYTES",
    "LoadedRules",
    "MatchSpec",
    "Rule",
    "RuleSpec",
    "RuleTest",
    "builtin_rules",
    "load_rules",
    "parse_rules",
    "shipped_rules",
]

logger = logging.getLogger("tooldeck.filters")

MAX_RULES_FILE_BYTES = 1 << 20
"""A ``filters.toml`` of this size or more is rejected."""

BUILTIN_RULES_RESOURCE = "builtin_rules.toml"
"""The package-data file holding the embedded rules."""


_FORBID: dict[str, Any] = {"extra": "forbid"}


@dataclasses.dataclass(frozen=True, kw_only=True)
class MatchSpec:
    """A rule's ``match`` table: exactly one of ``exact``, ``prefix``, ``regex``, and ``unless``.

    :param exact: the whole command, exactly.
    :param prefix: the command's start, at a word boundary.
    :param regex: an RE2 pattern searched in the command.
    :param unless: an RE2 pattern: a command it is found in is not the rule's, although it
        matches (``pytest --collect-only`` lists tests, it does not run them).
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = _FORBID

    exact: str | None = None
    prefix: str | None = None
    regex: str | None = None
    unless: str | None = None

    def __post_init__(self) -> None:
        given = [value for value in (self.exact, self.prefix, self.regex) if value is not None]
        if len(given) != 1:
            raise ValueError("match config must have exactly one of: exact, prefix, regex")

    def matcher(self) -> CommandMatcher:
        """Build the matcher (compiling a regex).

        :returns: the matcher.
        :raises PatternError: for an invalid or too long regex.
        """
        if self.exact is not None:
            return CommandMatcher(MatchKind.EXACT, self.exact, self.unless)
        if self.prefix is not None:
            return CommandMatcher(MatchKind.PREFIX, self.prefix, self.unless)
        assert self.regex is not None
        return CommandMatcher(MatchKind.REGEX, self.regex, self.unless)


@dataclasses.dataclass(frozen=True, kw_only=True)
class RuleTest:
    """One inline test of a rule (``[[rules.tests]]``).

    :param input: the command output fed to the rule's strategy.
    :param expected: the exact expected output (trailing newlines ignored).
    :param exit_code: the command's exit code.
    :param command: when given, the rule must also match this command.
    """

    __test__: ClassVar[bool] = False
    __pydantic_config__: ClassVar[dict[str, Any]] = _FORBID

    input: str
    expected: str
    exit_code: int | None = 0
    command: str | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class RuleSpec:
    """One ``[[rules]]`` table as written in TOML; :meth:`from_table` validates one.

    :param name: the rule's name (not empty).
    :param match: which commands it applies to.
    :param strategy: the ``strategy`` table (``type`` and parameters), validated by the
        strategy type when the rule is built.
    :param enabled: ``false`` leaves the rule out.
    :param tests: the inline tests.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = _FORBID

    name: Annotated[str, MinLen(1)]
    match: MatchSpec
    strategy: dict[str, Any]
    enabled: bool = True
    tests: list[RuleTest] = dataclasses.field(default_factory=list)

    @classmethod
    def from_table(cls, values: object, *, trusted: bool = False) -> RuleSpec:
        """Validate one ``[[rules]]`` table.

        :param values: the table as parsed from TOML.
        :param trusted: a table shipped with tooldeck: built without validating the field
            types (no pydantic; see :func:`~tooldeck.filters.tables.build_table`).
        :returns: the spec.
        :raises TableError: naming the dotted key of each problem (``match``,
            ``tests.0.expected``, …); unknown keys are an error.
        """
        if trusted and isinstance(values, Mapping):
            try:
                return build_table(cls, values)
            except (TypeError, ValueError) as exc:
                raise TableError([("", str(exc))]) from None
        return validate_table(cls, values)


@attrs.frozen
class Rule:
    """A compiled rule, ready to run.

    :param name: the rule's name.
    :param matcher: decides which commands the rule applies to.
    :param strategy: the built strategy.
    :param tests: the rule's inline tests.
    :param source: where the rule came from (file path or ``builtin``).
    """

    name: str
    matcher: CommandMatcher
    strategy: Strategy[Any]
    tests: tuple[RuleTest, ...] = ()
    source: str = "builtin"

    def matches(self, command: str) -> bool:
        """Whether the rule applies to ``command``.

        :param command: the shell command.
        :returns: ``True`` on a match.
        """
        return self.matcher.matches(command)


@attrs.frozen
class LoadedRules:
    """The rules of one load, with the warnings about what was skipped or rejected.

    :param rules: the usable rules, in file order.
    :param warnings: one message per skipped rule or rejected file.
    """

    rules: tuple[Rule, ...]
    warnings: tuple[str, ...] = ()


def _rule_label(position: int, table: object) -> str:
    if isinstance(table, Mapping) and isinstance(table.get("name"), str):
        return repr(table["name"])
    return f"#{position + 1}"


def _build_rule(table: object, registry: StrategyRegistry, source: str,
                trusted: bool) -> Rule | None:
    spec = RuleSpec.from_table(table, trusted=trusted)
    if not spec.enabled:
        return None
    return Rule(
        name=spec.name,
        matcher=spec.match.matcher(),
        strategy=registry.build(spec.strategy, trusted=trusted),
        tests=tuple(spec.tests),
        source=source,
    )


def _may_match(table: object, segment: str) -> bool:
    """Whether a raw rule table may apply to ``segment``; malformed tables are kept."""
    match = table.get("match") if isinstance(table, Mapping) else None
    if not isinstance(match, Mapping) or len(match) != 1:
        return True
    ((kind, value),) = match.items()
    if kind not in MatchKind.__members__.values() or not isinstance(value, str):
        return True
    try:
        return CommandMatcher(MatchKind(kind), value).matches_segment(segment)
    except PatternError:
        return True


def parse_rules(
    text: str, registry: StrategyRegistry, *, source: str = "<string>",
    command: str | None = None, trusted: bool = False,
) -> LoadedRules:
    """Parse rule TOML; an invalid rule is skipped with a warning naming it.

    :param text: the TOML document (``[[rules]]`` tables).
    :param registry: the strategy types available to the rules.
    :param source: the file name, for messages.
    :param command: when given, only the rules that may match this command are validated and
        built (the others are left out, unchecked): a one-shot filter starts faster.
    :param trusted: the rules ship with tooldeck: built without type validation (no pydantic).
    :returns: the usable rules and the warnings.
    :raises ConfigError: when the document is not valid TOML or ``rules`` is not a list.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}", path=source) from exc
    tables = document.get("rules", [])
    if not isinstance(tables, list):
        raise ConfigError(f"{source}: 'rules' must be an array of tables", path=source, key="rules")
    return rules_from_tables(tables, registry, source=source, command=command, trusted=trusted)


def rules_from_tables(tables: list[Any], registry: StrategyRegistry, *, source: str,
                      command: str | None = None, trusted: bool = False) -> LoadedRules:
    """Build rules from parsed ``[[rules]]`` tables; see :func:`parse_rules`."""
    rules: list[Rule] = []
    warnings: list[str] = []
    segment = None if command is None else command_segment(command)
    for position, table in enumerate(tables):
        if segment is not None and not _may_match(table, segment):
            continue
        try:
            rule = _build_rule(table, registry, source, trusted)
        except (TableError, StrategyConfigError, PatternError) as exc:
            problem = str(exc)
        else:
            if rule is not None:
                rules.append(rule)
            continue
        message = f"{source}: skipping rule {_rule_label(position, table)}: {problem}"
        logger.warning(message)
        warnings.append(message)
    return LoadedRules(tuple(rules), tuple(warnings))


def builtin_rules(registry: StrategyRegistry, *, command: str | None = None) -> LoadedRules:
    """The embedded rules (``builtin_rules.toml``), compiled against ``registry``.

    With ``command`` (a one-shot engine) they are built without type validation, so pydantic
    is not imported; without it (a deck, ``filter verify``, the tests) they are validated.

    :param registry: the strategy types (the built-in ones at least).
    :param command: only build the rules that may match it (see :func:`parse_rules`).
    :returns: the rules.
    """
    text = resources.files("tooldeck.filters").joinpath(BUILTIN_RULES_RESOURCE).read_text("utf-8")
    return parse_rules(text, registry, source="builtin", command=command,
                       trusted=command is not None)


def shipped_rules(registry: StrategyRegistry, *, command: str | None = None) -> LoadedRules:
    """The built-in rules, then the rules plugins ship with their strategy types.

    A plugin's rules have the source ``plugin <owner>``. A plugin rule named like a rule
    already loaded is skipped with a warning (a plugin cannot replace a built-in rule; a user's
    ``filters.toml`` can). A plugin's rules that are not valid TOML are skipped with a warning.

    :param registry: the strategy types, with the owners they were registered by.
    :param command: only build the rules that may match it (see :func:`parse_rules`).
    :returns: the rules and the warnings.
    """
    loaded = builtin_rules(registry, command=command)
    rules, warnings = list(loaded.rules), list(loaded.warnings)
    for owner, text in registry.shipped_rules():
        source = f"plugin {owner}"
        try:
            shipped = parse_rules(text, registry, source=source, command=command)
        except ConfigError as exc:
            warnings.append(f"{exc}; the rules of plugin {owner!r} are skipped")
            continue
        warnings.extend(shipped.warnings)
        taken = {rule.name for rule in rules}
        for rule in shipped.rules:
            if rule.name in taken:
                warnings.append(f"{source}: skipping rule {rule.name!r}: a rule of that name "
                                "is already loaded (rename it)")
                continue
            rules.append(rule)
    return LoadedRules(tuple(rules), tuple(warnings))


def _fallback(message: str, registry: StrategyRegistry, command: str | None) -> LoadedRules:
    logger.warning(message)
    defaults = shipped_rules(registry, command=command)
    return LoadedRules(defaults.rules, (message, *defaults.warnings))


def _user_document(text: str, source: str) -> tuple[list[Any], frozenset[str], bool]:
    """Split a user file into its rule tables, switched-off names, and ``replace_builtin``.

    ``replace_builtin = true`` at the top replaces them; a table with ``enabled = false``
    switches off the built-in rule of its name.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}", path=source) from exc
    replace = document.pop("replace_builtin", False)
    if not isinstance(replace, bool):
        raise ConfigError(f"{source}: replace_builtin must be true or false", path=source,
                          key="replace_builtin")
    tables = document.get("rules", [])
    if not isinstance(tables, list):
        raise ConfigError(f"{source}: 'rules' must be an array of tables", path=source, key="rules")
    off = frozenset(t["name"] for t in tables if isinstance(t, dict) and t.get("enabled") is False
                    and isinstance(t.get("name"), str))
    return tables, off, replace


def _merged(builtin: LoadedRules, user: LoadedRules, off: frozenset[str]) -> LoadedRules:
    """The built-in rules, overridden by name and switched off by the user; new rules last."""
    by_name = {rule.name: rule for rule in user.rules}
    rules = [by_name.pop(rule.name, rule) for rule in builtin.rules if rule.name not in off]
    rules.extend(rule for rule in user.rules if rule.name in by_name)
    return LoadedRules(tuple(rules), (*builtin.warnings, *user.warnings))


def load_rules(
    filters_path: Path | None, registry: StrategyRegistry, *, command: str | None = None
) -> LoadedRules:
    """Load the shipped rules, extended and overridden by the user's ``filters.toml``.

    The shipped rules are the built-in ones and those plugins ship with their strategy types
    (:func:`shipped_rules`). A user rule replaces the shipped rule of the same name;
    ``enabled = false`` in a rule table that names a shipped rule switches it off; other user
    rules are added after the shipped ones. ``replace_builtin = true`` at the top of the file
    keeps only the user's rules (the old behaviour). ``filters_path`` may name the file or
    the directory holding ``filters.toml``. A missing or unreadable file, or one of 1 MiB or
    more, gives the shipped rules with a warning; a file that is not valid TOML gives **no**
    rules (so nothing is filtered) with a warning.

    :param filters_path: the user's file or directory, or ``None`` for the built-in rules.
    :param registry: the strategy types available to the rules.
    :param command: only build the rules that may match it (see :func:`parse_rules`).
    :returns: the rules and the warnings.
    """
    if filters_path is None:
        return shipped_rules(registry, command=command)
    path = filters_path / "filters.toml" if filters_path.is_dir() else filters_path
    if not path.is_file():
        return shipped_rules(registry, command=command)
    try:
        size = path.stat().st_size
        if size >= MAX_RULES_FILE_BYTES:
            return _fallback(
                f"{path}: filters.toml exceeds 1 MiB limit ({size} bytes); using built-in rules",
                registry,
                command,
            )
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fallback(
            f"{path}: cannot read rules ({exc}); using built-in rules", registry, command
        )
    try:
        tables, off, replace = _user_document(text, str(path))
        user = rules_from_tables(tables, registry, source=str(path), command=command)
        if replace:
            return user
        return _merged(shipped_rules(registry, command=command), user, off)
    except ConfigError as exc:
        message = f"{exc}; no output filters are active"
        logger.warning(message)
        return LoadedRules((), (message,))
