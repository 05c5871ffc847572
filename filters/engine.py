"""The filter engine: match rules, run their strategies as a pipeline, scan, redact, report.

What the engine guarantees, whatever the rules and strategies do:

- **views of file content are exact**: ``cat``, ``head``, ``tail``, ``nl``, ``less``, ``more``,
  ``tac``, ``bat``, ``sed -n`` and ``git show REV:PATH`` outputs only lose terminal escapes and
  get secrets redacted (:func:`is_file_view`);
- **short outputs are never cut**: at most :data:`NEVER_CUT_LINES` lines of text, or fewer
  than :data:`NEVER_CUT_CHARS` characters, come back as the terminal showed them (blank lines
  and leading whitespace are content);
- **every output is reduced**: after the matched rules (or in place of them, when none
  matched) the ``fallback`` strategy folds what is still long;
- **protected lines survive**: a line of a protected kind (:mod:`tooldeck.filters.must_keep`)
  missing from the result is put back, whichever stage dropped it.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from tooldeck.filters.command import command_segment, normalized_command
from tooldeck.filters.confidence import FilterConfidence, worst_confidence
from tooldeck.filters.defaults import (
    DEFAULT_ENABLED,
    DEFAULT_ON_FAILURE,
    DEFAULT_REDACT_SECRETS,
    DEFAULT_SECURITY_ENABLED,
    DEFAULT_TOOL_NAME,
    FailureMode,
)
from tooldeck.filters.matcher import matcher_set
from tooldeck.filters.metrics import FilterMetrics
from tooldeck.filters.rulers import compact_rulers
from tooldeck.filters.rules import Rule, load_rules
from tooldeck.filters.sanitize import collapse_blank_lines, count_lines, strip_terminal
from tooldeck.filters.security import SecurityScanner, security_block
from tooldeck.filters.stats import stats_line
from tooldeck.filters.strategy import (
    Strategy,
    StrategyConfigError,
    StrategyRegistry,
    restore_must_keep,
)
from tooldeck.secrets import find_secrets, redact_found

if TYPE_CHECKING:
    from tooldeck.filters.settings import FilterSettings, SecuritySettings

__all__ = [
    "NEVER_CUT_CHARS",
    "NEVER_CUT_LINES",
    "FailureMode",
    "FilterEngine",
    "FilterResult",
    "FilterSettings",
    "FilterWarning",
    "SecuritySettings",
    "WarningKind",
    "is_file_view",
    "is_short",
]

NEVER_CUT_LINES = 20
"""Outputs of at most this many lines holding text (blank lines not counted) are never cut,
whatever rule matches."""

NEVER_CUT_CHARS = 2048
"""Outputs with fewer characters are never cut either: a model reads them at a glance, and
cutting them would save little and risk a fact."""

UNKNOWN_FAILURE_LINES = 150
"""A failed command that no rule knows is reduced with care up to this many lines (the size up
to which a listing is shown whole): what it printed about its failure is in a vocabulary no
rule taught the classifier, and the model must read it to fix the failure. Such an output
keeps its protected lines with their context and its ends as wide as
:data:`UNKNOWN_FAILURE_EDGES` say."""

UNKNOWN_FAILURE_EDGES: Mapping[str, Any] = {"head": 8, "tail": 20, "edge_chars": 2000}
"""The ``fallback`` parameters for a failed command no rule knows: where a tool states its
failure in words no protected kind knows, its ends, the last lines most of all, are kept
wider than a report's (four lines at each end, 160 characters)."""

_STATS_LINE_CHARS = 80
"""About what the stats line adds: a reduction that saves less is not made."""

_VIEWERS = frozenset({"cat", "head", "tail", "nl", "less", "more", "tac", "bat", "batcat"})


def is_short(text: str) -> bool:
    """Whether an output is never cut.

    Short is fewer than :data:`NEVER_CUT_CHARS` characters, or at most
    :data:`NEVER_CUT_LINES` lines that hold text (blank lines are not counted).

    :param text: the output, terminal escapes removed.
    :returns: ``True`` for a short output.
    """
    if len(text) < NEVER_CUT_CHARS:
        return True
    return sum(1 for line in text.split("\n") if line.strip()) <= NEVER_CUT_LINES


def is_file_view(argv: Sequence[str]) -> bool:
    """Whether a normalised command shows file content, which must reach the model exactly.

    :param argv: the words of :func:`~tooldeck.filters.command.normalized_command`.
    :returns: ``True`` for ``cat``/``head``/``tail``/``nl``/``less``/``more``/``tac``/``bat``
        (``tail -f`` included), ``sed -n`` without ``-i``, and ``git show REV:PATH``.
    """
    if not argv:
        return False
    head = argv[0]
    if head in _VIEWERS:
        return True
    if head == "sed":
        flags = [word for word in argv[1:] if word.startswith("-") and not word.startswith("--")]
        quiet = any("n" in flag for flag in flags) or "--quiet" in argv or "--silent" in argv
        return quiet and not any("i" in flag for flag in flags) and "--in-place" not in argv
    if head == "git" and len(argv) > 2 and argv[1] == "show":
        return any(":" in word and not word.startswith("-") for word in argv[2:])
    return False


class WarningKind(str, enum.Enum):
    """Where a warning of a filter result comes from."""

    SECURITY = "security"
    SECRET = "secret"


@attrs.frozen
class FilterWarning:
    """A warning attached to a filter result.

    :param kind: security diagnostic or secret.
    :param message: the preserved line (security) or a description without the value (secret).
    """

    kind: WarningKind
    message: str


@attrs.frozen
class FilterResult:
    """The outcome of :meth:`FilterEngine.apply`.

    :param output: the text for the model.
    :param rules: names of the rules that matched the command, in order (empty when none did,
        and for an empty output, which :meth:`FilterEngine.apply` shows without matching).
    :param confidence: the worst confidence of the stages that changed the text (``fallback``
        when only the generic fallback did); ``None`` when the text was shown whole.
    :param lines_in: lines of the raw output.
    :param lines_out: lines of ``output``.
    :param chars_in: characters of the raw output.
    :param chars_out: characters of ``output``.
    :param warnings: security diagnostics and secret warnings.
    :param raw: the raw output, unchanged, so it can always be retrieved.
    :param stats_line: the inline summary, present only when lines were removed.
    :param normalized_command: the command as rules see it (see
        :func:`~tooldeck.filters.command.normalized_command`); ``None`` when unknown.
    """

    output: str
    rules: tuple[str, ...]
    confidence: FilterConfidence | None
    lines_in: int
    lines_out: int
    chars_in: int
    chars_out: int
    warnings: tuple[FilterWarning, ...]
    raw: str = attrs.field(repr=False)
    stats_line: str | None
    normalized_command: str | None = None


def __getattr__(name: str) -> Any:
    """``FilterSettings`` and ``SecuritySettings``, re-exported without importing pydantic early.

    :param name: the attribute.
    :returns: the class.
    :raises AttributeError: for other names.
    """
    if name in ("FilterSettings", "SecuritySettings"):
        from tooldeck.filters import settings

        return getattr(settings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@attrs.frozen
class _Options:
    """The settings the engine reads, from :class:`FilterSettings` or the defaults."""

    enabled: bool = DEFAULT_ENABLED
    on_failure: FailureMode = DEFAULT_ON_FAILURE
    tool_name: str = DEFAULT_TOOL_NAME
    security_enabled: bool = DEFAULT_SECURITY_ENABLED
    extra_patterns: tuple[str, ...] = ()
    redact_secrets: bool = DEFAULT_REDACT_SECRETS

    @classmethod
    def of(cls, settings: FilterSettings | None) -> _Options:
        if settings is None:
            return cls()
        security = settings.security
        return cls(
            enabled=settings.enabled,
            on_failure=settings.on_failure,
            tool_name=settings.tool_name,
            security_enabled=security.enabled,
            extra_patterns=tuple(security.extra_patterns),
            redact_secrets=security.redact_secrets,
        )


class FilterEngine:
    """Runs every rule matching a command, in rule order, as one pipeline.

    A stage that returns its input unchanged does not lower the pipeline's confidence (it made
    no claim); when no stage changed anything the confidence is Fallback.

    :param rules: the compiled rules, in order.
    :param settings: the engine settings; ``None`` applies the defaults of
        :mod:`tooldeck.filters.defaults` without building a :class:`FilterSettings` (so
        without importing pydantic).
    :param metrics: counters to update; a fresh one by default.
    :param load_warnings: warnings from loading the rules, kept for display.
    :param fallback: the strategy run after the rules (or alone when none matched); the
        built-in ``fallback`` with its defaults when ``None``.
    :param generic_fallback: ``False`` runs no such stage (its plugin is disabled).
    :param failure_fallback: the strategy run on a failed command no rule knows, of at most
        :data:`UNKNOWN_FAILURE_LINES` lines; ``fallback`` when ``None`` and a ``fallback`` is
        given, else the built-in one with :data:`UNKNOWN_FAILURE_EDGES`.
    """

    def __init__(
        self,
        rules: Sequence[Rule],
        settings: FilterSettings | None = None,
        *,
        metrics: FilterMetrics | None = None,
        load_warnings: Sequence[str] = (),
        fallback: Strategy[Any] | None = None,
        generic_fallback: bool = True,
        failure_fallback: Strategy[Any] | None = None,
    ) -> None:
        self.rules = tuple(rules)
        if fallback is None and generic_fallback:
            from tooldeck.filters.fallback import Fallback, FallbackParams

            fallback = Fallback(FallbackParams())
            if failure_fallback is None:
                wide = dataclasses.replace(FallbackParams(), **UNKNOWN_FAILURE_EDGES)
                failure_fallback = Fallback(wide)
        self.fallback: Strategy[Any] | None = fallback
        self._failure_fallback = None if fallback is None else failure_fallback or fallback
        self._settings = settings
        self._options = _Options.of(settings)
        self.metrics = metrics if metrics is not None else FilterMetrics()
        self._security = SecurityScanner(self._options.extra_patterns)
        self.load_warnings = (*load_warnings, *self._security.warnings)
        self._matcher_set = matcher_set([rule.matcher for rule in self.rules])

    @property
    def settings(self) -> FilterSettings:
        """The engine's settings (the default :class:`FilterSettings` when built without).

        :returns: the settings.
        """
        if self._settings is None:
            from tooldeck.filters.settings import FilterSettings

            self._settings = FilterSettings()
        return self._settings

    @classmethod
    def from_settings(
        cls,
        settings: FilterSettings | None = None,
        registry: StrategyRegistry | None = None,
        *,
        command: str | None = None,
    ) -> FilterEngine:
        """Build an engine with the user's rules (or the built-in ones) loaded.

        :param settings: the settings; ``None`` applies the defaults without building a
            :class:`FilterSettings` and loads the built-in rules.
        :param registry: strategy types; the built-in registry when ``None``.
        :param command: build only the rules that may match this command (a one-shot engine
            for that command, as ``tooldeck filter`` uses; rules that cannot match are not
            validated).
        :returns: the engine; :attr:`load_warnings` lists skipped rules.
        """
        if registry is None:
            from tooldeck.filters.registry import default_strategy_registry

            registry = default_strategy_registry()
        filters_path = None if settings is None else settings.filters_path
        loaded = load_rules(filters_path, registry, command=command)
        if not registry.loads("fallback"):  # its plugin is disabled
            return cls(
                loaded.rules, settings, load_warnings=loaded.warnings, generic_fallback=False
            )
        fallback = registry.build({"type": "fallback"}, trusted=True)  # no parameters to check
        try:
            failure = registry.build({"type": "fallback", **UNKNOWN_FAILURE_EDGES}, trusted=True)
        except StrategyConfigError:  # a replacement type without these parameters
            failure = fallback
        return cls(loaded.rules, settings, load_warnings=loaded.warnings, fallback=fallback,
                   failure_fallback=failure)

    def matching_rules(self, command: str | None) -> list[Rule]:
        """The rules that apply to ``command``, in order.

        :param command: the shell command, ``None`` when unknown.
        :returns: the rules (none when disabled or no command is known).
        """
        if not self._options.enabled or command is None or not command.strip():
            return []
        segment = command_segment(command)
        if self._matcher_set is not None:
            return [self.rules[index] for index in self._matcher_set.matching(segment)]
        return [rule for rule in self.rules if rule.matcher.matches_segment(segment)]

    def _run_pipeline(
        self, rules: list[Rule], clean: str, exit_code: int | None
    ) -> tuple[str, FilterConfidence | None]:
        text = clean
        changed: list[FilterConfidence] = []
        failed = exit_code not in (None, 0)
        for rule in rules:
            stage = rule.strategy.apply_clean(text, exit_code)
            if (
                failed
                and stage.confidence is not FilterConfidence.FULL
                and not rule.strategy.states_omissions
                and self._options.on_failure is FailureMode.KEEP_INPUT
            ):
                continue
            if stage.output != text:
                changed.append(stage.confidence)
                text = stage.output
        return text, worst_confidence(changed)

    def apply(
        self,
        command: str | None,
        output: str,
        exit_code: int | None = None,
        *,
        rules: Sequence[Rule] | None = None,
        warnings: bool = True,
    ) -> FilterResult:
        """Filter one command output.

        :param command: the shell command that produced it, ``None`` when unknown.
        :param output: the raw output.
        :param exit_code: the exit code, ``None`` when unknown.
        :param rules: :meth:`matching_rules` of ``command``, when the caller already has them
            (matching costs one search per rule).
        :param warnings: ``False`` when the caller does not read
            :attr:`FilterResult.warnings`: an output shown whole already holds every security
            line, so the security scan, which then could only add warnings, is skipped (the
            result has no security warnings; the text and the secret warnings are the same).
        :returns: the result, which keeps the raw output.
        """
        return self._apply(command, output, exit_code, rules, guarded=True, warned=warnings)

    def apply_rules(
        self, command: str | None, output: str, exit_code: int | None = None
    ) -> FilterResult:
        """What the matching rules alone make of an output: no never-cut guard, no fallback.

        For rule authors and rule tests; the model always gets :meth:`apply`. Protected lines
        a stage dropped are still put back.

        :param command: the shell command that produced it.
        :param output: the raw output.
        :param exit_code: the exit code, ``None`` when unknown.
        :returns: the result.
        """
        return self._apply(command, output, exit_code, None, guarded=False)

    def _apply(
        self,
        command: str | None,
        output: str,
        exit_code: int | None,
        rules: Sequence[Rule] | None,
        *,
        guarded: bool,
        warned: bool = True,
    ) -> FilterResult:
        if guarded and not output:  # nothing to match, filter, scan or redact
            self.metrics.record(0, 0, None)
            return FilterResult("", (), None, 0, 0, 0, 0, (), output, None,
                                None if command is None else normalized_command(command))
        exact = strip_terminal(output)
        normalized = None if command is None else normalized_command(command)
        rules = self.matching_rules(command) if rules is None else list(rules)
        text, clean = exact, exact
        confidence: FilterConfidence | None = None
        if not guarded:
            clean = collapse_blank_lines(exact)
            text, confidence = self._run_pipeline(rules, clean, exit_code)
        elif (
            self._options.enabled
            and not is_short(exact)
            and not (normalized and is_file_view(normalized.split()))
        ):
            clean = compact_rulers(collapse_blank_lines(exact))
            text, confidence = self._reduce(rules, clean, exit_code)
        warnings: list[FilterWarning] = []
        options = self._options
        # shown whole (most outputs are short), the text holds every line the scan could add
        if options.security_enabled and (warned or text != clean):
            preserved = self._security.scan(clean)
            warnings += [FilterWarning(WarningKind.SECURITY, line) for line in preserved]
            shown = set(text.split("\n"))
            text += security_block([line for line in preserved if line not in shown])
        if options.redact_secrets:
            findings = find_secrets(output)
            if findings:
                text = redact_found(text, output, findings)
                warnings = [
                    attrs.evolve(warning, message=redact_found(warning.message, output, findings))
                    for warning in warnings
                ]
                warnings += [FilterWarning(WarningKind.SECRET, f.warning()) for f in findings]
        lines_in, lines_out = count_lines(output), count_lines(text)
        chars_in, chars_out = len(output), len(text)
        self.metrics.record(chars_in, chars_out, confidence)
        line = None
        if confidence is not None and lines_out < lines_in:
            line = stats_line(options.tool_name, command, lines_in, lines_out, chars_in, chars_out)
        return FilterResult(
            output=text,
            rules=tuple(rule.name for rule in rules),
            confidence=confidence,
            lines_in=lines_in,
            lines_out=lines_out,
            chars_in=chars_in,
            chars_out=chars_out,
            warnings=tuple(warnings),
            raw=output,
            stats_line=line,
            normalized_command=normalized,
        )

    def _reduce(
        self, rules: list[Rule], clean: str, exit_code: int | None
    ) -> tuple[str, FilterConfidence | None]:
        """The rules' pipeline, then the fallback, then the protected lines put back.

        The fallback runs on failed commands too: it keeps every protected line and states
        every omission (:attr:`Strategy.states_omissions`). A result that would not save
        more than the stats line costs is dropped for the input.
        """
        text, confidence = self._run_pipeline(rules, clean, exit_code)
        unknown_failure = (
            not rules
            and exit_code not in (None, 0)
            and count_lines(clean) <= UNKNOWN_FAILURE_LINES
        )
        # a failed command no rule knows keeps its ends wide
        fallback = self._failure_fallback if unknown_failure else self.fallback
        if fallback is not None and not any(rule.strategy.name == fallback.name for rule in rules):
            stage = fallback.apply_clean(text, exit_code)  # (else a rule ran it with its budget)
            if stage.output != text:
                text = stage.output
                confidence = worst_confidence([c for c in (confidence, stage.confidence) if c])
        if text != clean:
            text, _ = restore_must_keep(clean, text)
        if len(text) + _STATS_LINE_CHARS >= len(clean):  # not worth the stats line
            return clean, None
        return text, confidence
