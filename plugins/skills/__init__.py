"""Built-in plugin ``skills``: SKILL.md files as on-demand instructions and governed tools.

================  ================================================================================
module            job
================  ================================================================================
``settings``      ``[tools.skills]``, validated
``skill_file``    one SKILL.md: front matter fields, each error naming the file and field
``render``        skill tool parameters from a call's values; shell-quoting in commands
``catalog``       the skills of one runtime: found, parsed, screened
``tools``         ``load_skill`` (its description is the catalog) and the skill tools
``executor``      ``load_skill`` answers; a skill tool's rendered call goes to every gate again
================  ================================================================================

A skill tool's own call is judged like any tool's: its source is ``skill:<skill>``, so the trust
gate denies it while the skill is quarantined (the default), and permission rules for
``skill_<skill>__<tool>`` decide the rest. The rendered underlying call is then judged again by
every gate before it runs. A skill's front matter ``trust`` is this plugin's
``tooldeck_trust_level`` answer for its tools: levels combine to the most severe, so a skill
can ask to be trusted less than the operator says, never more. The skills directories are
watched; a reload re-reads them. docs/skills.md has the whole story.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.audit import runtime_event
from tooldeck.config import Settings
from tooldeck.models import ToolDef
from tooldeck.plugins.skills.catalog import Catalog, Flagged, find_skills
from tooldeck.plugins.skills.executor import CATALOG, SkillsExecutor
from tooldeck.plugins.skills.settings import SECTION, SkillsSettings
from tooldeck.plugins.skills.skill_file import skill_of_tool_id
from tooldeck.plugins.skills.tools import declared_tool, load_skill_tool, skill_tool
from tooldeck.runtime import Runtime, StashKey
from tooldeck.trust_levels import TrustLevel

__all__ = ["SkillsPlugin", "plugin"]

_REPORTED = StashKey[set[tuple[str, tuple[str, ...]]]]("skills.reported")
_SOURCE_PREFIX = "skill:"


class SkillsPlugin:
    """The plugin; the entry point is its default instance, :data:`plugin`."""

    def __init__(self) -> None:
        self._pending: dict[int, Catalog] = {}

    def _catalog_for(self, settings: Settings) -> Catalog:
        """The skills of the build of ``settings``, found by the first hook that needs them."""
        key = id(settings)
        catalog = self._pending.get(key)
        if catalog is None:
            config = settings.get(SkillsSettings)
            config_dir = settings.document.directory
            catalog = find_skills(config.directories(config_dir), config_dir,
                                  settings.files.read_text, config.allow_flagged)
            self._pending[key] = catalog
            weakref.finalize(settings, self._pending.pop, key, None)
        return catalog

    @hookimpl
    def tooldeck_register_settings(self, register: Callable[..., None]) -> None:
        """Own ``[tools.skills]``."""
        register(SECTION, SkillsSettings)

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None],
                                settings: Settings) -> None:
        """Register ``load_skill`` and every offered skill's tools.

        Permission rules may name tools of skills that are missing or withheld: those are
        declared (not offered), so removing a skill does not make the configuration invalid.
        """
        if not settings.get(SkillsSettings).enabled:
            register(load_skill_tool(Catalog()), available=False)
            return
        catalog = self._catalog_for(settings)
        register(load_skill_tool(catalog), available=bool(catalog.skills))
        for skill in catalog.skills.values():
            for tool in skill.tools:
                register(skill_tool(tool))
        for tid in sorted(settings.table("tools.permissions")):
            owner = skill_of_tool_id(tid)
            if owner is not None and owner not in catalog.skills:
                why = ("withheld: screening flagged the skill" if owner in catalog.withheld
                       else "its skill is not installed")
                register(declared_tool(tid, why), available=False)

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None],
                                    settings: Settings) -> None:
        """Register the executor of ``load_skill`` and the skill tools."""
        if settings.get(SkillsSettings).enabled:
            register(SkillsExecutor())

    @hookimpl(trylast=True)
    def tooldeck_configure(self, runtime: Runtime) -> None:
        """Hand the catalog to the runtime, watch the skills directories, report findings.

        Runs after the other plugins' configure, so that audit sinks are open.
        """
        catalog = self._pending.pop(id(runtime.settings), None)
        if catalog is None:
            return
        runtime.stash_set(CATALOG, catalog)
        for directory in catalog.directories:
            runtime.add_watch_path(directory, any_file=True)
        for line in catalog.warnings:
            runtime.warn(line)
        for skill in catalog.skills.values():
            for tool in skill.tools:
                if tool.tool not in runtime.tools:
                    runtime.warn(f"{skill.label}: tool {tool.id!r} runs {tool.tool!r}, which "
                                 "this deck does not offer: its calls fail until it does")
        reported = runtime.session.setdefault(_REPORTED, set)
        for flag in catalog.flagged:
            _report_flag(runtime, flag, reported)

    @hookimpl
    def tooldeck_trust_level(self, tool: ToolDef, runtime: Runtime) -> TrustLevel | None:
        """A skill tool's level as its front matter asks (more severe levels win)."""
        source = tool.source
        if source is None or not source.startswith(_SOURCE_PREFIX):
            return None
        try:
            catalog = runtime.stash_get(CATALOG)
        except KeyError:
            return None
        skill = catalog.skills.get(source[len(_SOURCE_PREFIX):])
        return None if skill is None else skill.trust


def _report_flag(runtime: Runtime, flag: Flagged,
                 reported: set[tuple[str, tuple[str, ...]]]) -> None:
    """Warn about a flagged skill once per deck, on stderr and in the audit."""
    what = "offered anyway (allow_flagged)" if flag.allowed else "withheld"
    line = (f"{flag.label}: skill {flag.skill!r} is {what}: its text trips screening rules "
            f"{', '.join(flag.rules)}")
    runtime.warn(line)
    key = (flag.skill, flag.rules)
    if key in reported:
        return
    reported.add(key)
    print(f"tooldeck: warning: {line}", file=sys.stderr)
    runtime.hooks.audit(runtime_event("skills.flagged", {
        "skill": flag.skill, "file": flag.label, "rules": list(flag.rules),
        "action": "allowed" if flag.allowed else "withheld"}), runtime)


plugin = SkillsPlugin()
"""The instance the ``skills`` entry point loads."""

