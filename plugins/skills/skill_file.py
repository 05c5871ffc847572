"""Read one ``<name>/SKILL.md``: YAML front matter between ``---`` lines, then the instructions.

==================  =====================================================================
field               rule
==================  =====================================================================
``name``            required; ``[a-z0-9-]{1,64}``; equal to the skill's directory name
``description``     required; 1 to 1,024 characters
``allowed-tools``   optional list of tool ids the instructions use (told to the model)
``trust``           optional level; it can only make the skill *less* trusted than the
                    operator's ``[tools.trust]`` says (the more severe level wins)
``tools``           optional list of skill tools: ``name`` (``[a-z0-9_]{1,32}``),
                    ``description``, ``tool`` (the underlying tool's id), ``params`` (its
                    parameters, with ``{arg}`` placeholders), ``args`` (``name``, ``type``
                    string / integer / boolean, ``description``, ``default``)
``license``,        accepted for compatibility with Agent Skills files; not used
``metadata``
anything else       an error naming the field
==================  =====================================================================

Every error names the file and the field: ``skills/deploy/SKILL.md: front matter: name:
'Deploy' does not match [a-z0-9-]{1,64}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from tooldeck.plugins.skills.render import (
    COMMAND_KEY,
    PLACEHOLDER,
    command_template_problem,
)
from tooldeck.trust_levels import TrustLevel, parse_trust_level

__all__ = ["Skill", "SkillArg", "SkillFileError", "SkillTool", "parse_skill", "tool_id"]

SKILL_FILE = "SKILL.md"
_NAME = re.compile(r"[a-z0-9-]{1,64}")
_TOOL_NAME = re.compile(r"[a-z0-9_]{1,32}")
_ARG_NAME = re.compile(r"[a-z_][a-z0-9_]{0,31}")
_TOOL_REF = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]{0,63}")
_MAX_DESCRIPTION = 1024
_KEYS = frozenset({"name", "description", "allowed-tools", "trust", "tools", "license",
                   "metadata"})
_TOOL_KEYS = frozenset({"name", "description", "tool", "params", "args"})
_ARG_KEYS = frozenset({"name", "type", "description", "default"})
_ARG_TYPES: dict[str, type] = {"string": str, "integer": int, "boolean": bool}
_PREFIX = "skill_"


def tool_id(skill: str, name: str) -> str:
    """The model-facing id of a skill's tool: ``skill_<skill>__<name>``."""
    return f"{_PREFIX}{skill}__{name}"


def skill_of_tool_id(tid: str) -> str | None:
    """The skill named by a ``skill_<skill>__<name>`` id, or ``None`` for any other id."""
    if not tid.startswith(_PREFIX):
        return None
    skill, sep, _ = tid[len(_PREFIX):].partition("__")
    return skill if sep and _NAME.fullmatch(skill) else None


class SkillFileError(Exception):
    """A SKILL.md that cannot be used.

    :param label: the file, as the operator knows it.
    :param field: the front matter field at fault (dotted, ``tools[0].args[1].type``), or
        ``""`` for the file as a whole.
    :param problem: what is wrong.
    :param defines_tools: whether the file (may) define tools: then it carries policy and the
        configuration is refused rather than the skill skipped.
    """

    def __init__(self, label: str, field: str, problem: str, *, defines_tools: bool) -> None:
        where = f"{label}: front matter: {field}: " if field else f"{label}: "
        super().__init__(where + problem)
        self.label = label
        self.field = field
        self.defines_tools = defines_tools


@attrs.frozen
class SkillArg:
    """One argument of a skill tool.

    :param name: the placeholder name.
    :param type: ``string``, ``integer`` or ``boolean``.
    :param description: for the model.
    :param default: the value when the call leaves it out; ``required`` when there is none.
    """

    name: str
    type: str
    description: str = ""
    default: Any = None
    required: bool = True


@attrs.frozen
class SkillTool:
    """A tool a skill defines: a template of a call to another tool.

    :param skill: the skill's name.
    :param name: the tool's name within the skill.
    :param description: for the model.
    :param tool: the underlying tool's id (``bash``, ``read``...).
    :param params: the underlying call's parameters, with ``{arg}`` placeholders.
    :param args: what the model passes.
    """

    skill: str
    name: str
    description: str
    tool: str
    params: Mapping[str, Any]
    args: tuple[SkillArg, ...] = ()

    @property
    def id(self) -> str:
        """The model-facing tool id, ``skill_<skill>__<name>``."""
        return tool_id(self.skill, self.name)

    @property
    def qualified(self) -> str:
        """The namespaced id ``skill:<skill>/<name>``."""
        return f"skill:{self.skill}/{self.name}"


@attrs.frozen
class Skill:
    """One parsed skill.

    :param name: the skill's name (its directory's).
    :param description: the one-line summary shown in the catalog.
    :param body: the instructions (the Markdown after the front matter).
    :param path: the SKILL.md file.
    :param label: the file as named in messages.
    :param allowed_tools: tool ids the instructions may use.
    :param trust: the level the skill asks for, if any.
    :param tools: the tools it defines.
    """

    name: str
    description: str
    body: str
    path: Path
    label: str
    allowed_tools: tuple[str, ...] = ()
    trust: TrustLevel | None = None
    tools: tuple[SkillTool, ...] = ()

    @property
    def source(self) -> str:
        """The trust source of the skill's tools, ``skill:<name>``."""
        return f"skill:{self.name}"


class _Reader:
    """Validates one front matter, raising :class:`SkillFileError` naming the field."""

    def __init__(self, label: str, defines_tools: bool) -> None:
        self.label = label
        self.defines_tools = defines_tools

    def fail(self, field: str, problem: str) -> SkillFileError:
        return SkillFileError(self.label, field, problem, defines_tools=self.defines_tools)

    def text(self, data: Mapping[str, Any], key: str, field: str, *, required: bool = True,
             limit: int = _MAX_DESCRIPTION) -> str:
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(field, "missing (required)")
            return ""
        if not isinstance(value, str):
            raise self.fail(field, f"expected text, got {type(value).__name__}")
        value = value.strip()
        if required and not value:
            raise self.fail(field, "is empty")
        if len(value) > limit:
            raise self.fail(field, f"is {len(value)} characters; at most {limit}")
        return value

    def pattern(self, data: Mapping[str, Any], key: str, field: str, rule: re.Pattern[str],
                shown: str) -> str:
        value = data.get(key)
        if value is None:
            raise self.fail(field, "missing (required)")
        if not isinstance(value, str) or not rule.fullmatch(value):
            raise self.fail(field, f"{value!r} does not match {shown}")
        return value

    def mapping(self, value: Any, field: str, keys: frozenset[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(field, f"expected a mapping, got {type(value).__name__}")
        for key in value:
            if key not in keys:
                raise self.fail(f"{field}.{key}" if field else str(key),
                                f"unknown field; expected one of {', '.join(sorted(keys))}")
        return value

    def listing(self, value: Any, field: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list, got {type(value).__name__}")
        return value

    def arg(self, value: Any, field: str) -> SkillArg:
        data = self.mapping(value, field, _ARG_KEYS)
        name = self.pattern(data, "name", f"{field}.name", _ARG_NAME, "[a-z_][a-z0-9_]{0,31}")
        kind = data.get("type", "string")
        if kind not in _ARG_TYPES:
            raise self.fail(f"{field}.type", f"{kind!r} is not one of string, integer, boolean")
        description = self.text(data, "description", f"{field}.description", required=False)
        if "default" not in data:
            return SkillArg(name, kind, description)
        default = data["default"]
        expected = _ARG_TYPES[kind]
        if not isinstance(default, expected) or (expected is int and isinstance(default, bool)):
            raise self.fail(f"{field}.default", f"{default!r} is not a {kind}")
        return SkillArg(name, kind, description, default, required=False)

    def tool(self, skill: str, value: Any, field: str) -> SkillTool:
        data = self.mapping(value, field, _TOOL_KEYS)
        name = self.pattern(data, "name", f"{field}.name", _TOOL_NAME, "[a-z0-9_]{1,32}")
        tid = tool_id(skill, name)
        if len(tid) > 64:
            raise self.fail(f"{field}.name", f"the tool id {tid!r} is longer than 64 characters")
        description = self.text(data, "description", f"{field}.description")
        inner = self.pattern(data, "tool", f"{field}.tool", _TOOL_REF, "a tool id")
        if skill_of_tool_id(inner) is not None:
            raise self.fail(f"{field}.tool", f"{inner!r} is a skill tool; a skill tool runs "
                            "one of the deck's own tools")
        params = self.mapping(data.get("params", {}), f"{field}.params",
                              frozenset(data.get("params") or ()))
        args: list[SkillArg] = []
        for i, item in enumerate(self.listing(data.get("args"), f"{field}.args")):
            arg = self.arg(item, f"{field}.args[{i}]")
            if any(a.name == arg.name for a in args):
                raise self.fail(f"{field}.args[{i}].name", f"{arg.name!r} is declared twice")
            args.append(arg)
        self.templates(params, {a.name: a.type for a in args}, f"{field}.params")
        return SkillTool(skill, name, description, inner, dict(params), tuple(args))

    def templates(self, node: Any, args: Mapping[str, str], field: str,
                  command: bool = False) -> None:
        """Check every placeholder names an arg and every command template is safe."""
        if isinstance(node, str):
            for match in PLACEHOLDER.finditer(node):
                if match.group(1) not in args and not command:
                    raise self.fail(field, f"placeholder {match.group(0)} names no arg "
                                    f"(args: {', '.join(args) or 'none'})")
            problem = command_template_problem(node, args) if command else None
            if problem is not None:
                raise self.fail(field, problem)
        elif isinstance(node, Mapping):
            for key, value in node.items():
                self.templates(value, args, f"{field}.{key}", command or key == COMMAND_KEY)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                self.templates(value, args, f"{field}[{i}]", command)


def _split(label: str, text: str) -> tuple[str, str]:
    """The front matter's YAML and the body."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise SkillFileError(label, "", "no front matter: the file must start with a '---' "
                             "line, then YAML, then another '---' line", defines_tools=True)
    for i, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return "".join(lines[1:i]), "".join(lines[i + 1:])
    raise SkillFileError(label, "", "the front matter has no closing '---' line",
                         defines_tools=True)


def parse_skill(directory: str, label: str, path: Path, text: str) -> Skill:
    """Parse one SKILL.md.

    :param directory: the name of the directory holding it (the skill's name).
    :param label: the file as named in messages.
    :param path: the file.
    :param text: its content.
    :returns: the skill.
    :raises SkillFileError: naming the file and field; ``defines_tools`` is true unless the
        front matter was read and has no ``tools`` field.
    """
    import yaml  # loaded with the first skill file, not on every start

    front, body = _split(label, text)
    try:
        data = yaml.safe_load(front)
    except yaml.YAMLError as exc:
        problem = " ".join(str(exc).split())
        raise SkillFileError(label, "", f"front matter is not valid YAML: {problem}",
                             defines_tools=True) from None
    if not isinstance(data, Mapping):
        raise SkillFileError(label, "", "front matter: expected a mapping of fields",
                             defines_tools=True)
    reader = _Reader(label, defines_tools="tools" in data)
    reader.mapping(data, "", _KEYS)
    name = reader.pattern(data, "name", "name", _NAME, "[a-z0-9-]{1,64}")
    if name != directory:
        raise reader.fail("name", f"{name!r} is not the directory's name {directory!r}")
    description = reader.text(data, "description", "description")
    allowed: list[str] = []
    for i, item in enumerate(reader.listing(data.get("allowed-tools"), "allowed-tools")):
        if not isinstance(item, str) or not _TOOL_REF.fullmatch(item):
            raise reader.fail(f"allowed-tools[{i}]", f"{item!r} is not a tool id")
        allowed.append(item)
    trust: TrustLevel | None = None
    if data.get("trust") is not None:
        try:
            trust = parse_trust_level(str(data["trust"]))
        except ValueError as exc:
            raise reader.fail("trust", str(exc)) from None
    tools: list[SkillTool] = []
    for i, item in enumerate(reader.listing(data.get("tools"), "tools")):
        tool = reader.tool(name, item, f"tools[{i}]")
        if any(t.name == tool.name for t in tools):
            raise reader.fail(f"tools[{i}].name", f"{tool.name!r} is defined twice")
        tools.append(tool)
    return Skill(name, description, body.strip(), path, label, tuple(allowed), trust,
                 tuple(tools))

