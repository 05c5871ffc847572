"""The ``sqlite_query`` plugin: run a read-only SQL query on a SQLite file in the sandbox.

The database path goes through the core's path service (``ctx.runtime.services.paths``), so
``app.db`` is the file ``read app.db`` would open and ``tooldeck check path app.db`` judges,
and a path outside ``[tools.file] allowed_paths`` (or matched by ``deny_read``) is refused
with ``policy_blocked`` — whether or not the built-in ``files`` plugin is enabled.

Configuration::

    [plugins]
    enable = ["sqlite_query"]

    [plugins.sqlite_query]
    max_rows = 100
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from collections.abc import Callable
from typing import cast

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

SECTION = "plugins.sqlite_query"


class SqliteQuerySettings(BaseModel):
    """``[plugins.sqlite_query]``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_rows: int = Field(100, ge=1, le=10_000, description="Most rows returned per query.")


class SqliteQueryParams(BaseModel):
    """Parameters of the ``sqlite_query`` tool."""

    model_config = ConfigDict(extra="forbid")

    sql: str = Field(min_length=1, max_length=10_000, description="One SQL statement.")
    db: str = Field("app.db", min_length=1, description="The database file.")


class SqliteQueryExecutor:
    """Runs ``sqlite_query``: the file is opened read-only, by its canonical path."""

    name = "sqlite_query"

    def __init__(self, settings: SqliteQuerySettings) -> None:
        self.settings = settings

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Resolve ``db`` through the sandbox, open it read-only, run ``sql``."""
        params = cast(SqliteQueryParams, ctx.params)
        path = ctx.runtime.services.paths.resolve(params.db, "read")
        if not path.is_file():
            raise ToolError(ErrorCategory.INVALID_PARAMETERS, f"no database at {path}")
        uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True)
        except sqlite3.Error as exc:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE, f"cannot open {path}: {exc}") from None
        try:
            db.execute("PRAGMA query_only = ON")
            cursor = db.execute(params.sql)
            rows = cursor.fetchmany(self.settings.max_rows + 1)
            columns = [d[0] for d in cursor.description or ()]
        except sqlite3.DatabaseError as exc:
            # a bad statement, or a write refused by the read-only connection
            raise ToolError(ErrorCategory.INVALID_PARAMETERS, f"sqlite: {exc}") from None
        finally:
            db.close()
        more = len(rows) > self.settings.max_rows
        lines = ["\t".join(columns)] + ["\t".join(map(str, row))
                                        for row in rows[: self.settings.max_rows]]
        if more:
            lines.append(f"[more than {self.settings.max_rows} rows]")
        return ToolOutput(tool_name=call.tool_id, summary="\n".join(lines),
                          raw_response={"database": str(path), "columns": columns})


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[plugins.sqlite_query]``."""
    register(SECTION, SqliteQuerySettings)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """This runtime's executor, from the validated settings."""
    register(SqliteQueryExecutor(settings.get(SqliteQuerySettings)))


@hookimpl
def tooldeck_register_tools(register: Callable[..., None]) -> None:
    """The read-only ``sqlite_query`` tool; permission rules match its ``sql``."""
    register(ToolDef(id="sqlite_query", description="Run one read-only SQL query on a SQLite "
                     "database file.", params=SqliteQueryParams, executor="sqlite_query",
                     capabilities={"read"}, input_param="sql"))
