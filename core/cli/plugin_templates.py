"""The files ``tooldeck new-plugin`` writes, one set per kind of plugin.

Each template is a :class:`string.Template`: ``$name`` is the plugin (entry-point) name,
``$pkg`` the import package, ``$dist`` the distribution, ``$title`` a class-name prefix.
"""

from __future__ import annotations

from string import Template

__all__ = ["KINDS", "files_for"]


def _template(text: str) -> Template:
    return Template(text.removeprefix("\n"))


KINDS = ("executor", "gate", "strategy")
"""The kinds of plugin the template knows."""

_PYPROJECT = _template(r'''
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "$dist"
version = "0.1.0"
description = "$summary"
readme = "README.md"
requires-python = ">=3.10"
dependencies = ["tooldeck>=0.1"]

[project.optional-dependencies]
test = ["pytest>=8"]

# The entry-point name is the plugin's name everywhere: [plugins] enable, [plugins.$name],
# audit records and `tooldeck plugins`.
[project.entry-points.tooldeck]
$name = "$pkg.plugin"
$gates
[tool.setuptools.packages.find]
where = ["src"]

[tool.setuptools.package-data]
$pkg = ["py.typed"]

[tool.pytest.ini_options]
addopts = "-p tooldeck.testing"
testpaths = ["tests"]
''')

_GATES = Template(r'''
# A plugin that votes on calls must say so: if it ever fails to import, tooldeck refuses to
# run rather than run without it (gates fail closed).
[project.entry-points."tooldeck.gates"]
$name = "$pkg.plugin"
''')

_INIT = Template(r'''"""The ``$name`` tooldeck plugin ($kind)."""
''')

_EXECUTOR = _template(r'''
"""The ``$name`` plugin: a tool that counts the lines of a file in the sandbox.

Configuration::

    [plugins]
    enable = ["$name"]

    [plugins.$name]
    max_bytes = 1048576
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

SECTION = "plugins.$name"


class ${title}Settings(BaseModel):
    """``[plugins.$name]``; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_bytes: int = Field(1024 * 1024, ge=1, description="Largest file counted.")


class ${title}Params(BaseModel):
    """Parameters of the ``$name`` tool (the model sees their JSON Schema)."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(min_length=1, description="The file, relative to the project.")


class ${title}Executor:
    """Runs the ``$name`` tool."""

    name = "$name"

    def __init__(self, settings: ${title}Settings) -> None:
        self.settings = settings

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Count the lines of ``path``, resolved and checked by the core's path sandbox."""
        params = cast(${title}Params, ctx.params)
        # The same rule as the built-in file tools: roots, deny_read, relative paths.
        path = ctx.runtime.services.paths.resolve(params.path, "read")
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"no such file: {params.path}") from None
        except OSError as exc:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"cannot read {params.path}: {exc.strerror}") from None
        if len(data) > self.settings.max_bytes:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"{params.path} is over {self.settings.max_bytes} bytes")
        lines = data.count(b"\n")
        return ToolOutput(tool_name=call.tool_id, summary=f"{lines} lines")


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[plugins.$name]``."""
    register(SECTION, ${title}Settings)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """Build this runtime's executor from the validated settings."""
    register(${title}Executor(settings.get(${title}Settings)))


@hookimpl
def tooldeck_register_tools(register: Callable[..., None]) -> None:
    """Offer the read-only ``$name`` tool; permission rules match its ``path``."""
    register(ToolDef(id="$name", description="Count the lines of a file.",
                     params=${title}Params, executor=${title}Executor.name,
                     capabilities={"read"}, input_param="path"))
''')

_EXECUTOR_TEST = _template(r'''
"""The ``$name`` plugin through a real deck, enabled by name as an operator would."""

from __future__ import annotations

from pathlib import Path

from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall


def config(root: Path) -> str:
    return f"""
        [plugins]
        enable = ["$name"]

        [tools.file]
        allowed_paths = ["{root}"]

        [[tools.permissions.$name]]
        pattern = "*"
        action = "allow"
    """


def test_counts_lines_inside_the_sandbox(make_deck, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a\nb\nc\n")
    deck = make_deck(config(tmp_path))
    result = deck.call_sync(ToolCall("$name", {"path": str(tmp_path / "notes.txt")}))
    assert result.ok, result.text
    assert result.text == "3 lines"


def test_a_path_outside_the_sandbox_is_refused(make_deck, tmp_path: Path) -> None:
    deck = make_deck(config(tmp_path / "root"))
    result = deck.call_sync(ToolCall("$name", {"path": "/etc/hostname"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
''')

_GATE = _template(r'''
"""The ``$name`` plugin: a gate that denies calls whose parameters contain a denied phrase.

Configuration::

    [plugins]
    enable = ["$name"]

    [plugins.$name]
    phrases = ["DROP TABLE"]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict

SECTION = "plugins.$name"


class ${title}Settings(BaseModel):
    """``[plugins.$name]``; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    phrases: tuple[str, ...] = Field(("DROP TABLE",), description="Phrases to deny "
                                     "(case and spacing ignored).")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _normal(text: str) -> str:
    return " ".join(text.upper().split())


class ${title}Gate:
    """Votes deny on a call whose parameters contain a denied phrase; abstains otherwise."""

    name = "phrases"

    def __init__(self, phrases: tuple[str, ...]) -> None:
        self.phrases = tuple(_normal(p) for p in phrases)

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef) -> Decision | None:
        """Deny when a phrase occurs in any string parameter; else abstain (``None``)."""
        for text in _strings(call.params):
            normal = _normal(text)
            for phrase in self.phrases:
                if phrase in normal:
                    return Decision(Verdict.DENY, f"parameters contain {phrase!r}",
                                    rule=phrase)
        return None


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[plugins.$name]``."""
    register(SECTION, ${title}Settings)


@hookimpl
def tooldeck_register_gates(register: Callable[..., None], settings: Settings) -> None:
    """Build this runtime's gate from the validated settings."""
    register(${title}Gate(settings.get(${title}Settings).phrases))
''')

_GATE_TEST = _template(r'''
"""The ``$name`` gate through a real deck: it vetoes a call the permission rules allow."""

from __future__ import annotations

from pathlib import Path

from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall


def config(root: Path) -> str:
    return f"""
        [plugins]
        enable = ["$name"]

        [tools.file]
        allowed_paths = ["{root}"]

        [[tools.permissions.read]]
        pattern = "*"
        action = "allow"
    """


def test_denies_a_denied_phrase(make_deck, tmp_path: Path) -> None:
    deck = make_deck(config(tmp_path))
    result = deck.call_sync(ToolCall("read", {"path": "drop   table users.txt"}))
    assert result.error is not None
    assert result.error.category is ErrorCategory.POLICY_BLOCKED
    assert result.decision is not None and result.decision.gate == "$name.phrases"


def test_abstains_otherwise(make_deck, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    deck = make_deck(config(tmp_path))
    result = deck.call_sync(ToolCall("read", {"path": str(tmp_path / "notes.txt")}))
    assert result.ok, result.text
''')

_STRATEGY = _template(r'''
"""The ``$name`` plugin: a filter strategy type, and a rule that uses it.

The rule (``$name-rule``, for ``$name`` commands) ships with the type; a user's
``filters.toml`` can override it or switch it off by name (``enabled = false``).
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.filters.confidence import FilterConfidence
from tooldeck.filters.strategy import Reduction, Strategy


class ${title}Params(BaseModel):
    """The rule's ``strategy`` table, without ``type``; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    marker: str = Field(" (repeated)", description="Appended to a line that repeats.")


class ${title}Strategy(Strategy[${title}Params]):
    """Collapse runs of identical adjacent lines into one, marked."""

    name = "$name"
    Params = ${title}Params
    rules = """
[[rules]]
name = "$name-rule"
match = { prefix = "$name" }
strategy = { type = "$name" }

[[rules.tests]]
input = "a\\na\\na\\nb"
expected = "a (repeated)\\nb"
"""

    def reduce(self, clean: str, exit_code: int | None) -> Reduction:
        """Collapse adjacent duplicates; lines that must be kept are never dropped."""
        out: list[str] = []
        for line in clean.split("\n"):
            if out and out[-1].removesuffix(self.params.marker) == line:
                out[-1] = line + self.params.marker
            else:
                out.append(line)
        return Reduction("\n".join(out), FilterConfidence.FULL)


@hookimpl
def tooldeck_register_filters(register: Callable[..., None]) -> None:
    """Publish the strategy type (and with it, its rules)."""
    register(${title}Strategy)
''')

_STRATEGY_TEST = _template(r'''
"""The ``$name`` strategy and its rule through a real deck's filter engine."""

from __future__ import annotations

from tooldeck.filters.plugin import ENGINE
from tooldeck.filters.verify import verify_rules

ENABLED = """
    [plugins]
    enable = ["$name"]
"""

OUTPUT = "\n".join(["start", *["same line"] * 300, "end"])  # long enough to be cut


def test_the_rule_applies_to_its_command(make_deck) -> None:
    engine = make_deck(ENABLED).runtime.stash_get(ENGINE)
    result = engine.apply("$name --verbose", OUTPUT, 0)
    assert "$name-rule" in result.rules
    assert result.output.count("same line") == 1


def test_the_rule_inline_tests_pass(make_deck) -> None:
    engine = make_deck(ENABLED).runtime.stash_get(ENGINE)
    mine = [rule for rule in engine.rules if rule.source == "plugin $name"]
    assert [rule.name for rule in mine] == ["$name-rule"]
    assert verify_rules(mine) == []


def test_not_enabled_means_no_rule(make_deck) -> None:
    engine = make_deck().runtime.stash_get(ENGINE)
    assert "$name-rule" not in [rule.name for rule in engine.rules]
''')

_README = _template(r'''
# $dist

$summary

Generated by `tooldeck new-plugin $name --kind $kind`. Install it and run its tests:

```sh
pip install -e ".[test]"
pytest
```

Installing is not enabling: `tooldeck plugins` lists `$name` as `disabled` until the
configuration names it:

```toml
[plugins]
enable = ["$name"]
```

$usage
How to write, configure, test and publish a plugin: tooldeck's `docs/plugins.md`; the core
services (path sandbox, redaction, egress, overflow): `docs/services.md`.
''')

_SUMMARY = {
    "executor": "A tooldeck executor plugin: the `$name` tool counts the lines of a file "
                "inside the path sandbox.",
    "gate": "A tooldeck gate plugin: `$name` denies calls whose parameters contain a "
            "denied phrase.",
    "strategy": "A tooldeck filter strategy plugin: the `$name` strategy type and a rule "
                "that uses it.",
}

_USAGE = {
    "executor": "Like every tool without permission rules, `$name` asks for confirmation; "
                "allow it with\n`[[tools.permissions.$name]]` `pattern = \"*\"`, "
                "`action = \"allow\"`.\n",
    "gate": "The gate votes on every call; configure its phrases in `[plugins.$name] "
            "phrases`.\n",
    "strategy": "Its rule `$name-rule` filters the output of `$name` commands; "
                "`tooldeck filter verify` runs\nthe rule's inline tests.\n",
}

_CODE = {"executor": (_EXECUTOR, _EXECUTOR_TEST), "gate": (_GATE, _GATE_TEST),
         "strategy": (_STRATEGY, _STRATEGY_TEST)}


def files_for(name: str, kind: str) -> dict[str, str]:
    """The files of a new plugin distribution, by path relative to its directory.

    :param name: the plugin name (a lowercase Python identifier).
    :param kind: one of :data:`KINDS`.
    :returns: ``pyproject.toml``, ``README.md``, the package and one test module.
    """
    pkg = f"tooldeck_{name}"
    values = {"name": name, "pkg": pkg, "dist": f"tooldeck-{name.replace('_', '-')}",
              "title": "".join(part.title() for part in name.split("_")), "kind": kind}
    values["summary"] = Template(_SUMMARY[kind]).substitute(values)
    values["gates"] = _GATES.substitute(values) if kind == "gate" else ""
    values["usage"] = Template(_USAGE[kind]).substitute(values)
    code, test = _CODE[kind]
    return {
        "pyproject.toml": _PYPROJECT.substitute(values),
        "README.md": _README.substitute(values),
        f"src/{pkg}/__init__.py": _INIT.substitute(values),
        f"src/{pkg}/py.typed": "",
        f"src/{pkg}/plugin.py": code.substitute(values),
        f"tests/test_{name}.py": test.substitute(values),
    }
