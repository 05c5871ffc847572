"""The strategy contract, the stage result, and the registry of strategy types by name."""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

import attrs

from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.must_keep import must_keep_classifier
from tooldeck.filters.omissions import shortened
from tooldeck.filters.sanitize import sanitize_output
from tooldeck.filters.tables import TableError, build_table, validate_table

__all__ = [
    "Reduction",
    "StageResult",
    "Strategy",
    "StrategyConfigError",
    "StrategyParams",
    "StrategyRegistrationError",
    "StrategyRegistry",
    "restore_must_keep",
]


_P = TypeVar("_P", bound="StrategyParams")


class StrategyParams:
    """Base of the built-in strategies' parameters: frozen, keyword-only dataclasses.

    Declare each field's constraints as :mod:`annotated_types` annotations
    (``max_lines: Annotated[int, Ge(1)]``); pydantic validates them (unknown keys refused),
    and cross-field checks go in ``__post_init__`` and raise :class:`ValueError`. A rule's
    ``strategy`` table becomes an instance with :meth:`from_table`. A pydantic model works as
    ``Params`` too (the style third-party plugins use, like their settings); either way the
    validation, and its messages (``max_lines: Input should be greater than or equal to 1,
    got 0``), are pydantic's.
    """

    __slots__ = ()
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}

    @classmethod
    def from_table(cls: type[_P], values: Mapping[str, Any]) -> _P:
        """Build and validate the parameters from a rule's ``strategy`` table (without ``type``).

        :param values: the table.
        :returns: the parameters.
        :raises StrategyConfigError: naming the key of each problem.
        """
        try:
            return validate_table(cls, values)
        except TableError as exc:
            raise StrategyConfigError(str(exc)) from None


ParamsT = TypeVar("ParamsT")


@attrs.frozen
class Reduction:
    """What a strategy's :meth:`Strategy.reduce` returns.

    :param text: the reduced text.
    :param confidence: how sure the strategy is of it.
    :param must_keep_checked: ``True`` when the strategy itself guarantees that every must-keep
        line of its input is in ``text``; otherwise :meth:`Strategy.apply` checks and restores.
    """

    text: str
    confidence: FilterConfidence
    must_keep_checked: bool = False


@attrs.frozen
class StageResult:
    """The outcome of one strategy on one output.

    :param output: the filtered text.
    :param confidence: the strategy's confidence.
    :param restored_lines: must-keep lines the generic check had to put back.
    """

    output: str
    confidence: FilterConfidence
    restored_lines: int = 0


_SUFFIX_COUNT = " (x"


def _present_lines(text: str) -> set[str]:
    present = set(text.split("\n"))
    for line in list(present):
        cut = line.rfind(_SUFFIX_COUNT)
        if cut > 0 and line.endswith(")"):
            present.add(line[:cut])
    return present


def restore_must_keep(clean: str, text: str) -> tuple[str, int]:
    """Append the must-keep lines of ``clean`` that ``text`` lost, under a header with their count.

    :param clean: the sanitized input of a strategy.
    :param text: the strategy's output.
    :returns: the (possibly extended) output and the number of lines put back.
    """
    wanted = must_keep_classifier().must_keep_lines(clean)
    if not wanted:
        return text, 0
    present = _present_lines(text)
    # (a blob shown by its two ends and the count between is there: its omission is stated)
    missing = [line for line in wanted
               if line not in present and line not in text and shortened(line) not in present]
    if not missing:
        return text, 0
    header = f"--- {len(missing)} error/failure line(s) kept from the unfiltered output ---"
    body = "\n".join(missing)
    return (f"{text}\n\n{header}\n{body}" if text else f"{header}\n{body}"), len(missing)


class Strategy(abc.ABC, Generic[ParamsT]):
    """A filter strategy: reduces one command output, reporting its confidence.

    Subclasses set :attr:`name` and :attr:`Params` and implement :meth:`reduce`. A strategy
    object is built once per rule (patterns compiled in ``__init__``) and reused for every call,
    so it must not keep per-call state.

    :param params: the validated parameters.
    """

    name: ClassVar[str]
    """The ``type`` written in a rule's ``strategy`` table."""

    rules: ClassVar[str] = ""
    """Filter rules shipped with the type: TOML ``[[rules]]`` tables, as in ``filters.toml``
    (with their inline tests). A deck applies them after the built-in rules; a user's
    ``filters.toml`` overrides or switches them off by name like any built-in rule."""

    Params: ClassVar[type[Any]]
    """The class of the strategy's parameters: a pydantic model (``extra="forbid"``), or a
    :class:`StrategyParams` dataclass; both are validated by pydantic."""

    states_omissions: ClassVar[bool] = False
    """``True`` when every line the strategy leaves out is counted in its output (with an
    example) and it never drops a protected line: nothing is guessed away, so its output
    stands even for a failed command (``on_failure = "keep_input"`` does not discard it)."""

    def __init__(self, params: ParamsT) -> None:
        self.params = params

    @abc.abstractmethod
    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Reduce an already sanitized output.

        :param clean: the output after :func:`sanitize_output`.
        :param exit_code: the command's exit code, ``None`` when unknown.
        :returns: the reduction.
        """

    def apply_clean(self, clean: str, exit_code: int | None = None) -> StageResult:
        """Run the strategy on sanitized text and enforce the must-keep guarantee.

        :param clean: the output after :func:`sanitize_output`.
        :param exit_code: the command's exit code, ``None`` when unknown.
        :returns: the stage result.
        """
        reduction = self.reduce(clean, exit_code)
        if reduction.must_keep_checked:
            return StageResult(reduction.text, reduction.confidence)
        text, restored = restore_must_keep(clean, reduction.text)
        return StageResult(text, reduction.confidence, restored)

    def apply(self, raw: str, exit_code: int | None = None) -> StageResult:
        """Sanitize ``raw`` and run the strategy on it.

        :param raw: the command output as captured.
        :param exit_code: the command's exit code, ``None`` when unknown.
        :returns: the stage result.
        """
        return self.apply_clean(sanitize_output(raw), exit_code)


class StrategyRegistrationError(Exception):
    """Two strategy types registered under one name; the message names both owners."""


class StrategyConfigError(ValueError):
    """A rule's ``strategy`` table that cannot be built; the message names the strategy type."""


class StrategyRegistry:
    """Strategy types by name; built-ins and third-party types are registered the same way."""

    def __init__(self, loader: Callable[[str], type[Strategy[Any]] | None] | None = None,
                 loadable: Iterable[str] = ()) -> None:
        """Create an empty registry.

        :param loader: called with an unknown name before :meth:`get` gives up; a type it
            returns is registered (owner ``builtin``). Lets a one-shot engine import only the
            strategy modules its rules use.
        :param loadable: the names ``loader`` supplies (listed as known in errors).
        """
        self._types: dict[str, tuple[type[Strategy[Any]], str]] = {}
        self._loader = loader
        self._loadable = frozenset(loadable)
        self._missing: dict[str, str] = {}

    def register(self, strategy_type: type[Strategy[Any]], *, owner: str = "third-party") -> None:
        """Register a strategy type under its :attr:`Strategy.name`.

        :param strategy_type: the :class:`Strategy` subclass.
        :param owner: who registers it (plugin name), quoted in a collision error.
        :raises StrategyRegistrationError: when the name is already taken.
        """
        name = strategy_type.name
        params = getattr(strategy_type, "Params", None)
        if not isinstance(params, type) or not (
            dataclasses.is_dataclass(params) or hasattr(params, "model_validate")
        ):
            raise StrategyRegistrationError(
                f"strategy type {name!r} of {owner!r} ({strategy_type.__qualname__}): Params must"
                " be a pydantic model or a dataclass (a StrategyParams subclass)"
            )
        if name in self._types:
            other_type, other_owner = self._types[name]
            raise StrategyRegistrationError(
                f"strategy type {name!r} registered twice: by {other_owner!r}"
                f" ({other_type.__qualname__}) and by {owner!r} ({strategy_type.__qualname__})"
            )
        self._types[name] = (strategy_type, owner)

    def shipped_rules(self) -> list[tuple[str, str]]:
        """The rules the registered types ship (:attr:`Strategy.rules`), by registration order.

        :returns: ``(owner, TOML text)`` pairs, one per type that ships rules.
        """
        return [(owner, strategy_type.rules) for strategy_type, owner in self._types.values()
                if strategy_type.rules.strip()]

    def explain_missing(self, name: str, why: str) -> None:
        """Say why type ``name`` is not registered (its plugin is disabled, say).

        :param name: the strategy type's name.
        :param why: the explanation, quoted when a rule names the type.
        """
        self._missing[name] = why

    def unregister(self, name: str) -> None:
        """Remove a strategy type (absent names are ignored).

        :param name: the strategy type's name.
        """
        self._types.pop(name, None)

    def names(self) -> list[str]:
        """The registered names, sorted.

        :returns: the names.
        """
        return sorted(self._types)

    def loads(self, name: str) -> bool:
        """Whether the registry holds ``name`` or its loader can supply it.

        :param name: a strategy type name.
        :returns: ``True`` when :meth:`get` would succeed.
        """
        if name in self._types:
            return True
        return self._loader is not None and self._loader(name) is not None

    def get(self, name: str) -> type[Strategy[Any]]:
        """The strategy type registered as ``name``.

        :param name: the strategy type's name.
        :returns: the class.
        :raises StrategyConfigError: for an unknown name (the message lists the known ones).
        """
        if name not in self._types and self._loader is not None:
            loaded = self._loader(name)
            if loaded is not None:
                self.register(loaded, owner="builtin")
        try:
            return self._types[name][0]
        except KeyError:
            if name in self._missing:
                raise StrategyConfigError(
                    f"strategy type {name!r} is not available: {self._missing[name]}") from None
            known = ", ".join(sorted({*self.names(), *self._loadable})) or "none"
            raise StrategyConfigError(f"unknown strategy type {name!r} (known: {known})") from None

    def build(self, spec: Mapping[str, Any], *, trusted: bool = False) -> Strategy[Any]:
        """Build a strategy from a rule's ``strategy`` table (``type`` plus parameters).

        :param spec: the table, e.g. ``{"type": "truncate", "max_lines": 80}``.
        :param trusted: the table ships with tooldeck (a built-in rule): build the
            parameters without validating their types (:func:`~tooldeck.filters.tables.
            build_table`), so pydantic is not imported. Only for tables the tests validate.
        :returns: the ready strategy.
        :raises StrategyConfigError: on a missing/unknown type or invalid parameters.
        """
        type_name = spec.get("type")
        if not isinstance(type_name, str):
            raise StrategyConfigError("strategy table needs a string 'type'")
        strategy_type = self.get(type_name)
        raw_params = {key: value for key, value in spec.items() if key != "type"}
        params_type = strategy_type.Params
        try:
            if trusted and dataclasses.is_dataclass(params_type):
                params = build_table(params_type, raw_params)
            else:
                params = validate_table(params_type, raw_params)
            return strategy_type(params)
        except (TypeError, ValueError) as exc:  # a TableError, or e.g. a pattern error
            raise StrategyConfigError(f"strategy {type_name!r}: {exc}") from None
