"""``[tools.skills]``: where skills are found, and which flagged skills are offered anyway."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["SECTION", "SkillsSettings"]

SECTION = "tools.skills"


class SkillsSettings(StrictModel):
    """``[tools.skills]``: the skills directories behind ``load_skill`` and the skill tools."""

    enabled: bool = Field(True, description="Offer load_skill and the skills' tools.")
    paths: tuple[str, ...] = Field(
        ("skills",), description="Directories holding <name>/SKILL.md, searched in order; a "
        "relative path is taken from the config file's directory, '~' is expanded.")
    user_dir: bool = Field(
        True, description="Also search the user's skills directory (skills/ beside the "
        "per-user tooldeck.toml, ~/.config/tooldeck/skills on Linux), after paths.")
    allow_flagged: tuple[str, ...] = Field(
        (), description="Skill names offered although screening flagged their text.")

    def directories(self, config_dir: Path | None) -> list[Path]:
        """The directories to search, in order, without duplicates.

        :param config_dir: the config file's directory (relative paths are taken from it;
            the current directory when the configuration has no file).
        """
        base = config_dir if config_dir is not None else Path.cwd()
        found = [base / Path(p).expanduser() for p in self.paths]
        if self.user_dir:
            from tooldeck.dirs import user_config_file

            found.append(user_config_file().parent / "skills")
        unique: list[Path] = []
        for path in found:
            if path not in unique:
                unique.append(path)
        return unique
