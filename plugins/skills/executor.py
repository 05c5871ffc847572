"""The ``skills`` executor: ``load_skill`` answers, and skill tools run through the gates again.

=====================  ===================================================================
step                   a skill tool call (the call itself has passed every gate already)
=====================  ===================================================================
render                 the skill tool's ``params`` with the call's values filled in
                       (:mod:`.render`; values in a ``command`` are shell-quoted)
validate               against the underlying tool's parameters; a mismatch is
                       ``invalid_parameters`` naming the skill tool
judge                  the rendered underlying call is put to every gate
                       (``runtime.hooks.check_call``, combined deny > ask > allow); anything
                       but ``allow`` refuses the call, ``policy_blocked``, naming the gate
                       and its rule: nobody is there to confirm an inner ``ask``; the
                       verdict is audited as ``skills.inner_call`` (the skill tool, the
                       underlying tool, its input, the verdict and the deciding gate)
run                    the underlying tool's executor, with the validated parameters; the
                       output is returned under the skill tool's id
=====================  ===================================================================

The inner call keeps the outer call's caller and turn, so caller trust and history-based
gates see it as the same caller's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
import pydantic

from tooldeck.audit import runtime_event
from tooldeck.deck import combine_decisions
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolOutput, Verdict
from tooldeck.plugins.skills.catalog import Catalog
from tooldeck.plugins.skills.render import render_params
from tooldeck.plugins.skills.skill_file import Skill, SkillTool
from tooldeck.plugins.skills.tools import EXECUTOR, LOAD_SKILL
from tooldeck.runtime import CallContext, StashKey

if TYPE_CHECKING:
    from tooldeck.runtime import Runtime

__all__ = ["CATALOG", "SkillsExecutor", "skill_text"]

CATALOG = StashKey[Catalog]("skills.catalog")
"""The runtime's skills (set when the runtime is configured)."""


def skill_text(skill: Skill) -> str:
    """What ``load_skill`` answers: the instructions, then the tools they may use."""
    parts = [f"# Skill: {skill.name}", skill.body or "(no instructions)"]
    if skill.allowed_tools:
        parts.append("Allowed tools: " + ", ".join(skill.allowed_tools))
    if skill.tools:
        parts.append("Tools of this skill:\n" + "\n".join(
            f"- {tool.id} (runs {tool.tool}): {tool.description}" for tool in skill.tools))
    return "\n\n".join(parts)


def _catalog(runtime: Runtime) -> Catalog:
    try:
        return runtime.stash_get(CATALOG)
    except KeyError:
        raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                        "the skills plugin is not configured on this runtime") from None


class SkillsExecutor:
    """Runs ``load_skill`` and every skill tool."""

    name = EXECUTOR
    retryable = False  # a skill tool may run a command: never repeated on its own

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Answer ``load_skill``, or run a skill tool by the module's steps."""
        catalog = _catalog(ctx.runtime)
        if ctx.tool.id == LOAD_SKILL:
            return self._load(catalog, str(call.params.get("name", "")))
        found = catalog.tool(ctx.tool.id)
        if found is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"{ctx.tool.id}: no skill defines this tool any more")
        skill, index = found
        return await self._run(skill.tools[index], call, ctx)

    @staticmethod
    def _load(catalog: Catalog, name: str) -> ToolOutput:
        skill = catalog.skills.get(name)
        if skill is None:
            known = ", ".join(catalog.skills) or "none"
            withheld = (" (it is withheld: screening flagged its text)"
                        if name in catalog.withheld else "")
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"no skill named {name!r}{withheld}; skills: {known}")
        return ToolOutput(tool_name=LOAD_SKILL, summary=skill_text(skill),
                          raw_response={"skill": skill.name, "file": skill.label,
                                        "allowed_tools": list(skill.allowed_tools),
                                        "tools": [t.id for t in skill.tools]},
                          locations=(str(skill.path),), read_paths=(str(skill.path),))

    @staticmethod
    async def _run(spec: SkillTool, call: ToolCall, ctx: CallContext) -> ToolOutput:
        runtime = ctx.runtime
        inner = runtime.tools.get(spec.tool)
        if inner is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"{spec.id}: its underlying tool {spec.tool!r} is not available")
        try:
            rendered = render_params(spec.params, ctx.params.model_dump())
            model = inner.params.model_validate(rendered)
        except (ValueError, pydantic.ValidationError) as exc:
            problem = " ".join(str(exc).split())
            raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                            f"{spec.id}: the {spec.tool} call it renders is not valid: "
                            f"{problem}") from None
        inner_call = ToolCall(tool_id=inner.id, params=model.model_dump(),
                              caller_id=call.caller_id, turn=call.turn)
        decision = combine_decisions(runtime.hooks.check_call(inner_call, inner, runtime))
        runtime.hooks.audit(runtime_event("skills.inner_call", {
            "call_id": call.call_id, "tool": spec.id, "inner_tool": inner.id,
            "input": inner_call.input_text(inner), "verdict": decision.verdict.value,
            **decision.provenance()}), runtime)
        if decision.verdict is not Verdict.ALLOW:
            rule = f", rule {decision.rule}" if decision.rule else ""
            raise ToolError(ErrorCategory.POLICY_BLOCKED,
                            f"{spec.id}: its {inner.id} call is not allowed "
                            f"({decision.verdict.value} by gate {decision.gate}{rule}): "
                            f"{decision.reason}")
        executor = runtime.hooks.select_executor(inner_call, inner, runtime)
        if executor is None:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"{spec.id}: no executor available for {inner.id!r}")
        inner_ctx = CallContext(tool=inner, params=model, runtime=runtime, decision=decision,
                                approved_by=ctx.approved_by)
        output = await executor.execute(inner_call, inner_ctx)
        return attrs.evolve(output, tool_name=call.tool_id)
