"""``[tools.memory]``: where remembered notes live and how much of them is kept."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["SECTION", "MemorySettings"]

SECTION = "tools.memory"


class MemorySettings(StrictModel):
    """``[tools.memory]``: the note store behind ``memory_save`` and ``memory_search``."""

    enabled: bool = Field(True, description="Offer memory_save and memory_search.")
    path: str | None = Field(
        None, description="The SQLite database (default: memory.sqlite3 in the user data "
        "directory); a relative path is taken from the config file's directory.",
    )
    max_note_chars: int = Field(
        4000, ge=16, le=1_000_000,
        description="Longest note memory_save accepts; a longer one is refused, not cut.",
    )
    max_notes: int = Field(
        2000, ge=1,
        description="Notes kept per scope; saving one more deletes the oldest.",
    )
    max_results: int = Field(
        20, ge=1, le=200, description="Most results one memory_search may ask for.",
    )

    def database(self, config_dir: Path | None) -> Path:
        """Where the database lives, a relative ``path`` taken from ``config_dir``."""
        if self.path is None:
            from tooldeck.dirs import data_dir

            return data_dir() / "memory.sqlite3"
        path = Path(self.path).expanduser()
        return path if path.is_absolute() or config_dir is None else config_dir / path
