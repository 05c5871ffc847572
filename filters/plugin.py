"""The built-in ``filters`` plugin: the filter engine wired into the call pipeline.

========================  ===================================================================
hook                      what it does
========================  ===================================================================
register_settings         ``[tools.filters]`` (and ``[tools.filters.security]``) validated by
                          :class:`~tooldeck.filters.settings.FilterSettings`
configure                 builds the engine from the settings and every plugin's strategy
                          types (``runtime.strategies``), stashes it under :data:`ENGINE`,
                          watches the directory of ``filters_path`` (editing ``filters.toml``
                          hot-reloads the deck); a failing ``[[rules.tests]]`` of
                          a rule in that file refuses the runtime (a reload keeps the old one)
transform_output          for tools with the ``execute`` capability: the summary becomes the
                          filtered text plus, when lines were removed, the stats line as its
                          last line; ``filter_stats`` is filled; the unfiltered summary is kept
                          in ``raw_response["unfiltered"]``
========================  ===================================================================

The strategy types come from plugins: each built-in type is a plugin of its own
(:mod:`tooldeck.filters.strategy_plugins`, ``filter_truncate``…), so disabling one in
``[plugins] disable`` removes its type (rules naming it are skipped, with a warning) and a third
party may register a type under the freed name. A runtime built without the entry points (an
embedded deck) gets the built-in types its plugins did not disable.

The shell executor marks stderr lines ``[stderr] `` in its summary. When a rule matches the
command, the marks are removed before filtering so the rules see the output as a terminal
shows it (``2>&1``); the shell envelope keeps stdout and stderr apart anyway. A relative
``filters_path`` is resolved against the configuration file's directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.filters.engine import FilterEngine, FilterResult
from tooldeck.filters.registry import BUILTIN_STRATEGY_TYPES
from tooldeck.filters.settings import FilterSettings, resolve_filters_path
from tooldeck.filters.strategy import Strategy, StrategyRegistry
from tooldeck.filters.strategy_plugins import plugin_name
from tooldeck.filters.verify import verify_rules
from tooldeck.hot_evolve import evolve
from tooldeck.models import FilterStats, ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import Runtime, StashKey

__all__ = [
    "ENGINE",
    "SECTION",
    "filter_output",
    "strategy_registry",
    "tooldeck_configure",
    "tooldeck_register_settings",
    "tooldeck_transform_output",
]

SECTION = "tools.filters"
"""The configuration section this plugin owns."""

ENGINE: StashKey[FilterEngine] = StashKey("filters.engine")
"""Where :func:`tooldeck_configure` stashes the runtime's engine."""

_STDERR_MARK = "[stderr] "
_TRUNCATION_NOTE = "\n[truncated: "


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.filters]``.

    :param register: the registration callback.
    """
    register(SECTION, FilterSettings)


def strategy_registry(runtime: Runtime) -> tuple[StrategyRegistry, list[str]]:
    """The strategy types of every plugin of ``runtime``.

    A built-in type whose plugin is not known to the runtime at all (no entry points, as in an
    embedded deck) is added; one whose plugin is disabled or broken is not.

    :param runtime: a built runtime.
    :returns: the registry, and a warning for each registered object that is not a
        :class:`~tooldeck.filters.strategy.Strategy` subclass (it is left out).
    """
    registry = StrategyRegistry()
    warnings: list[str] = []
    for name, strategy_type in runtime.strategies.items():
        if isinstance(strategy_type, type) and issubclass(strategy_type, Strategy):
            registry.register(strategy_type, owner=runtime.strategy_owners.get(name, "plugin"))
        else:
            warnings.append(f"filters: strategy {name!r} is not a Strategy subclass; ignored")
    known = {info.name: info for info in runtime.plugins}
    for builtin in BUILTIN_STRATEGY_TYPES:
        if builtin.name in runtime.strategies:
            continue
        info = known.get(plugin_name(builtin.name))
        if info is None:
            registry.register(builtin, owner="builtin")
        elif info.state != "enabled":
            action = ("remove it from [plugins] disable" if info.state == "disabled"
                      else f"fix it: {info.why}")
            registry.explain_missing(builtin.name, f"its plugin {info.name!r} is {info.state}; "
                                     f"{action}")
    return registry, warnings


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Build the engine for this runtime and watch the user's rule file.

    :param runtime: the runtime being built.
    """
    settings: Settings = runtime.settings
    section = resolve_filters_path(settings.get(FilterSettings), settings.document.path)
    registry, warnings = strategy_registry(runtime)
    engine = FilterEngine.from_settings(section, registry)
    runtime.count_examples("filter rule tests",
                           _check_user_rule_tests(engine, section.filters_path))
    runtime.stash_set(ENGINE, engine)
    runtime.warnings = (*runtime.warnings, *warnings, *engine.load_warnings)
    if section.filters_path is not None:
        path = section.filters_path
        runtime.add_watch_path(path if path.suffix != ".toml" else path.parent)


def _check_user_rule_tests(engine: FilterEngine, filters_path: Path | None) -> int:
    """Refuse the runtime when an inline test of a rule from the user's file fails.

    The shipped rules are tested by the suite; only the operator's own rules can change
    between loads, so only theirs are run here (a few milliseconds each).

    :param engine: the engine just built.
    :param filters_path: the user's ``filters.toml`` or its directory, or ``None``.
    :returns: how many tests ran (all passed).
    :raises ConfigError: naming the file, the rule and the test, with expected and actual.
    """
    if filters_path is None:
        return 0
    path = filters_path / "filters.toml" if filters_path.is_dir() else filters_path
    mine = [rule for rule in engine.rules if rule.source == str(path)]
    failures = verify_rules(mine)
    if failures:
        first = failures[0]
        raise ConfigError(f"{path}: rules[{first.rule!r}].tests[{first.index}]: "
                          f"{first.describe()}", path=str(path),
                          key=f"rules.{first.rule}.tests[{first.index}]")
    return sum(len(rule.tests) for rule in mine)


def _unmarked(summary: str) -> str:
    if _STDERR_MARK not in summary:
        return summary
    return "\n".join(line.removeprefix(_STDERR_MARK) for line in summary.split("\n"))


def filter_output(engine: FilterEngine, command: str | None, output: ToolOutput, *,
                  warnings: bool = True) -> FilterResult:
    """Run ``engine`` on a tool output's summary (see the module notes on stderr marks).

    :param engine: the runtime's engine.
    :param command: the command that produced the output, when known.
    :param output: the executor's output.
    :param warnings: whether the result's ``warnings`` are wanted (see
        :meth:`FilterEngine.apply`).
    :returns: the engine's result; a truncation note of the executor is left out of it.
    """
    text = output.summary
    if output.truncated and _TRUNCATION_NOTE in text:
        text = text[: text.rindex(_TRUNCATION_NOTE)]
    rules = engine.matching_rules(command)
    if rules:
        text = _unmarked(text)
    return engine.apply(command, text, output.exit_code, rules=rules, warnings=warnings)


@hookimpl
def tooldeck_transform_output(
    call: ToolCall, tool: ToolDef, output: ToolOutput, runtime: Runtime
) -> ToolOutput | None:
    """Filter the output of an ``execute`` tool for the model.

    :param call: the call (its ``command`` parameter names the command).
    :param tool: the tool's definition.
    :param output: the executor's output.
    :param runtime: the runtime holding the engine.
    :returns: the filtered output, or ``None`` for tools without the ``execute`` capability.
    """
    if "execute" not in tool.capabilities:
        return None
    command = call.params.get("command")
    if not isinstance(command, str):
        command = call.input_text(tool) or None
    # the model reads the text and the stats: the result's warnings are not used here
    result = filter_output(runtime.stash_get(ENGINE), command, output, warnings=False)
    text = result.output
    if output.truncated and _TRUNCATION_NOTE in output.summary:
        text += output.summary[output.summary.rindex(_TRUNCATION_NOTE) :]
    if result.stats_line is not None:
        text = f"{text}\n{result.stats_line}"
    stats = FilterStats(
        raw_chars=result.chars_in,
        filtered_chars=result.chars_out,
        raw_lines=result.lines_in,
        filtered_lines=result.lines_out,
        confidence=None if result.confidence is None else result.confidence.value,
        command=command,
        rules=result.rules,
    )
    raw = {**(output.raw_response or {}), "unfiltered": output.summary}
    return evolve(output, summary=text, filter_stats=stats, raw_response=raw)
