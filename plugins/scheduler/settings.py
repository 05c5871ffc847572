"""``[tools.scheduler]``: where scheduled tasks are kept, and the limits on them."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from tooldeck.config import StrictModel

__all__ = ["SECTION", "SchedulerSettings"]

SECTION = "tools.scheduler"


class SchedulerSettings(StrictModel):
    """``[tools.scheduler]``: the task store behind ``schedule_periodic`` and friends."""

    enabled: bool = Field(True, description="Offer the scheduler tools.")
    path: str | None = Field(
        None, description="The SQLite database (default: scheduler.sqlite3 in the user data "
        "directory); a relative path is taken from the config file's directory.",
    )
    max_tasks: int = Field(100, ge=1, description="Tasks one caller may have scheduled at once.")
    min_interval_secs: int = Field(
        60, ge=1,
        description="A periodic task may not fire more often than this (seconds).",
    )

    def database(self, config_dir: Path | None) -> Path:
        """Where the database lives, a relative ``path`` taken from ``config_dir``."""
        if self.path is None:
            from tooldeck.dirs import data_dir

            return data_dir() / "scheduler.sqlite3"
        path = Path(self.path).expanduser()
        return path if path.is_absolute() or config_dir is None else config_dir / path
