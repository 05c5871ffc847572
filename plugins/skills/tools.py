"""The tool definitions: ``load_skill`` (with the catalog) and one tool per skill tool.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
catalog                ``load_skill``'s description lists every offered skill, one line
                       each (``- <name>: <description>``); there is no separate list tool
skill tool id          ``skill_<skill>__<name>``; the namespaced ``skill:<skill>/<name>``
                       opens its description
source                 a skill tool's ``source`` is ``skill:<skill>``: the trust gate judges
                       it by ``[tools.trust] sources``, quarantined by default
capabilities           a skill tool declares ``skill`` and every effect (``exec``,
                       ``write``, ``delete``, ``network``): the underlying tool is only known
                       once every plugin registered, so trust judges a skill tool as the
                       most capable tool it could be (the underlying call is judged with
                       the underlying tool's own definition)
parameters             the skill tool's args, typed, extra fields refused
=====================  ===================================================================
"""

from __future__ import annotations

from typing import Any

import pydantic
from pydantic import Field

from tooldeck.models import ToolDef
from tooldeck.plugins.skills.catalog import Catalog
from tooldeck.plugins.skills.skill_file import SkillTool, skill_of_tool_id

__all__ = ["EXECUTOR", "LOAD_SKILL", "SKILL_TOOL_CAPABILITIES", "LoadSkillParams",
           "declared_tool", "load_skill_tool", "skill_tool"]

EXECUTOR = "skills"
LOAD_SKILL = "load_skill"
SKILL_TOOL_CAPABILITIES = frozenset({"skill", "exec", "write", "delete", "network"})
"""What every skill tool declares (see the module rules)."""

_TYPES: dict[str, type] = {"string": str, "integer": int, "boolean": bool}


class LoadSkillParams(pydantic.BaseModel):
    """Parameters of ``load_skill``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64,
                      description="The skill's name, as listed in this tool's description.")


class _Placeholder(pydantic.BaseModel):
    """Parameters of a declared, unavailable tool: it never runs."""


def load_skill_tool(catalog: Catalog) -> ToolDef:
    """``load_skill``, its description carrying the catalog (one line per skill)."""
    lines = [f"- {skill.name}: {' '.join(skill.description.split())}"
             for skill in catalog.skills.values()]
    description = (
        "Load a skill: its instructions for a kind of task, the tools they use and the "
        "tools the skill defines. Call it when a task matches a skill below.\n"
        "Skills:\n" + ("\n".join(lines) or "(none)"))
    return ToolDef(id=LOAD_SKILL, description=description, params=LoadSkillParams,
                   executor=EXECUTOR, capabilities={"read"}, input_param="name")


def _params_model(tool: SkillTool) -> type[pydantic.BaseModel]:
    fields: dict[str, Any] = {}
    for arg in tool.args:
        kind = _TYPES[arg.type]
        default = ... if arg.required else arg.default
        fields[arg.name] = (kind, Field(default, description=arg.description or None))
    model: type[pydantic.BaseModel] = pydantic.create_model(
        f"{tool.id}_params", __config__=pydantic.ConfigDict(extra="forbid", strict=True),
        **fields)
    return model


def skill_tool(tool: SkillTool) -> ToolDef:
    """The deck tool of one skill tool (see the module rules)."""
    description = (f"[skill tool {tool.qualified}, runs {tool.tool}] "
                   f"{' '.join(tool.description.split())}")
    return ToolDef(id=tool.id, description=description, params=_params_model(tool),
                   executor=EXECUTOR, capabilities=SKILL_TOOL_CAPABILITIES,
                   source=f"skill:{tool.skill}")


def declared_tool(tid: str, why: str) -> ToolDef:
    """A skill tool named in configuration but not offered (``available=False``).

    :param tid: its id, ``skill_<skill>__<name>``.
    :param why: why it is not offered.
    """
    return ToolDef(id=tid, description=why, params=_Placeholder, executor=EXECUTOR,
                   capabilities=SKILL_TOOL_CAPABILITIES,
                   source=f"skill:{skill_of_tool_id(tid)}")
