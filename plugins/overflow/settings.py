"""``[tools.overflow]``: when output is too long for the model, and how long it is kept."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["SECTION", "OverflowSettings"]

SECTION = "tools.overflow"


class OverflowSettings(StrictModel):
    """``[tools.overflow]``: the overflow store behind ``read_overflow``."""

    enabled: bool = Field(True, description="Store long and filtered outputs for read_overflow.")
    threshold: int = Field(
        50_000, ge=1000,
        description="Outputs longer than this (characters) are stored; the model gets the "
        "head, the tail and an overflow:<id> reference.",
    )
    keep_filtered: bool = Field(
        True, description="Also store the unfiltered output whenever a filter shortened it, "
        "so the lines a filter omitted stay retrievable.",
    )
    retention_days: int = Field(7, ge=0, description="Entries older than this are deleted; "
                                "0 keeps them until the byte cap needs the room.")
    max_overflow_bytes: int = Field(
        10 * 1024 * 1024, ge=0,
        description="Bytes kept per session; the oldest entries go first (0 = unlimited).",
    )
    path: str | None = Field(
        None, description="The SQLite database (default: overflow.sqlite3 in the user data "
        "directory); a relative path is taken from the config file's directory.",
    )

    def database(self, config_dir: Path | None) -> Path:
        """Where the database lives, a relative ``path`` taken from ``config_dir``."""
        if self.path is None:
            from tooldeck.dirs import data_dir

            return data_dir() / "overflow.sqlite3"
        path = Path(self.path).expanduser()
        return path if path.is_absolute() or config_dir is None else config_dir / path
