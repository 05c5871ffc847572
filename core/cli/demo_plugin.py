"""The third-party-style plugin ``tooldeck demo`` installs into its temporary directory.

It is written out as a module and a ``.dist-info`` with an entry point in group ``tooldeck``,
exactly what ``pip install`` of a plugin distribution leaves behind; the demo's
``tooldeck.toml`` then enables it with ``[plugins] enable``. The core never imports it.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DIST", "NAME", "install"]

NAME = "demo_tickets"
"""The plugin's entry-point name, the one ``[plugins] enable`` names."""

DIST = "tooldeck-demo-tickets"
"""Its distribution's name."""

_SOURCE = '''"""A third-party plugin: the ``ticket`` tool files a ticket in a project."""

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.models import ToolDef, ToolOutput


class TicketSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    project: str = "OPS"


class TicketParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=200, description="What is wrong.")


class TicketExecutor:
    name = "tickets"

    def __init__(self, project):
        self.project, self.filed = project, 0

    async def execute(self, call, ctx):
        self.filed += 1
        return ToolOutput(call.tool_id, f"{self.project}-{self.filed} filed: {ctx.params.title}")


@hookimpl
def tooldeck_register_settings(register):
    register("plugins.demo_tickets", TicketSettings)


@hookimpl
def tooldeck_register_executors(register, settings):
    register(TicketExecutor(settings.get(TicketSettings).project))


@hookimpl
def tooldeck_register_tools(register):
    register(ToolDef(id="ticket", description="File a ticket.", params=TicketParams,
                     executor="tickets", capabilities={"write"}, input_param="title"))
'''


def install(site: Path) -> None:
    """Write the plugin's module and ``.dist-info`` into ``site`` (a ``sys.path`` entry).

    :param site: an existing directory.
    """
    (site / f"{NAME}.py").write_text(_SOURCE, "utf-8")
    info = site / f"{DIST.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {DIST}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tooldeck]\n{NAME} = {NAME}\n")
