"""Find the skills of one runtime: every ``<dir>/<name>/SKILL.md``, parsed and screened.

=====================  ===================================================================
rule                   behaviour
=====================  ===================================================================
order                  directories in ``paths`` order, then the user's; skills in name order
first wins             a name found in two directories is taken from the first; a warning
                       names both files
bad, with tools        a SKILL.md that defines ``tools`` (or whose front matter cannot be
                       read, so that nobody can tell) and is malformed refuses the whole
                       configuration: on reload the last good policy stays
bad, instructions      a malformed SKILL.md without ``tools`` is skipped with a warning
                       naming the file and the field
screening              the description, instructions and every tool and arg description
                       go through :func:`tooldeck.screening.screen`; a skill with findings
                       is withheld (no catalog line, no tools) unless ``allow_flagged``
                       names it
=====================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import attrs

from tooldeck.errors import ConfigError
from tooldeck.plugins.skills.skill_file import SKILL_FILE, Skill, SkillFileError, parse_skill
from tooldeck.screening import RULES, screen

__all__ = ["Catalog", "Flagged", "find_skills", "screen_skill"]

ReadText = Callable[[Path], str]
"""Reads a file for the build (``settings.files.read_text``)."""


@attrs.frozen
class Flagged:
    """A skill whose text tripped screening rules.

    :param skill: its name.
    :param label: its file.
    :param rules: the rules, in table order.
    :param allowed: whether ``allow_flagged`` lets it through anyway.
    """

    skill: str
    label: str
    rules: tuple[str, ...]
    allowed: bool


@attrs.frozen
class Catalog:
    """The skills of one runtime.

    :param skills: offered skills, by name, in name order.
    :param withheld: names of skills held back by screening.
    :param flagged: every screening finding.
    :param warnings: for the operator.
    :param directories: the skills directories that exist and their folders (watched for
        changes).
    """

    skills: dict[str, Skill] = attrs.field(factory=dict)
    withheld: frozenset[str] = frozenset()
    flagged: tuple[Flagged, ...] = ()
    warnings: tuple[str, ...] = ()
    directories: tuple[Path, ...] = ()

    def tool(self, tid: str) -> tuple[Skill, int] | None:
        """The skill defining tool ``tid`` and the tool's index in it, or ``None``."""
        for skill in self.skills.values():
            for i, tool in enumerate(skill.tools):
                if tool.id == tid:
                    return skill, i
        return None


def screen_skill(skill: Skill) -> tuple[str, ...]:
    """The screening rules the skill's text trips, in table order (empty: none).

    :param skill: the parsed skill.
    """
    texts: list[str] = [skill.description, skill.body]
    for tool in skill.tools:
        texts.append(tool.description)
        texts.extend(arg.description for arg in tool.args)
    hits: set[str] = set()
    for text in texts:
        hits.update(screen(text))
    return tuple(name for name in ("invisible_text", *RULES) if name in hits)


def _label(path: Path, config_dir: Path | None) -> str:
    if config_dir is not None:
        try:
            return str(path.relative_to(config_dir))
        except ValueError:
            pass
    return str(path)


def _folders(directory: Path) -> list[Path]:
    try:
        return sorted(entry for entry in directory.iterdir() if entry.is_dir())
    except OSError:
        return []


def find_skills(directories: Iterable[Path], config_dir: Path | None, read_text: ReadText,
                allow_flagged: Iterable[str]) -> Catalog:
    """Every skill in ``directories``, by the rules of this module.

    :param directories: where to look, in order.
    :param config_dir: the config file's directory (file names are shown relative to it).
    :param read_text: reads a file for this build.
    :param allow_flagged: skill names offered although screening flags them.
    :returns: the catalog.
    :raises ConfigError: a malformed SKILL.md that defines tools, naming file and field.
    """
    allowed = set(allow_flagged)
    skills: dict[str, Skill] = {}
    withheld: set[str] = set()
    flagged: list[Flagged] = []
    warnings: list[str] = []
    found_dirs: list[Path] = []
    for directory in directories:
        if not directory.is_dir():
            continue
        found_dirs.append(directory)
        for folder in _folders(directory):
            found_dirs.append(folder)  # watched, so a SKILL.md written later is seen
            name, path = folder.name, folder / SKILL_FILE
            if not path.is_file():
                continue
            label = _label(path, config_dir)
            try:
                skill = parse_skill(name, label, path, read_text(path))
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{label}: cannot read the skill: {exc}", path=label) from None
            except SkillFileError as exc:
                if exc.defines_tools:
                    raise ConfigError(f"{exc} (the skill defines tools, so the configuration is "
                                      "refused)", path=label, key=exc.field or None) from None
                warnings.append(f"{exc}; the skill is skipped")
                continue
            if skill.name in skills or skill.name in withheld:
                first = skills[skill.name].label if skill.name in skills else "another file"
                warnings.append(f"{label}: skill {skill.name!r} is already defined by {first}; "
                                "this one is ignored")
                continue
            rules = screen_skill(skill)
            if rules:
                flagged.append(Flagged(skill.name, label, rules, skill.name in allowed))
                if skill.name not in allowed:
                    withheld.add(skill.name)
                    continue
            skills[skill.name] = skill
    ordered = {name: skills[name] for name in sorted(skills)}
    return Catalog(ordered, frozenset(withheld), tuple(flagged), tuple(warnings),
                   tuple(found_dirs))
