"""``[mcp]`` and ``[[mcp.servers]]``: the MCP servers whose tools join the deck.

Every key is read by the plugin; unknown keys, bad server names and a server that is both
stdio and HTTP (or neither) are configuration errors naming the key.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from tooldeck.config import StrictModel

__all__ = ["SECTION", "TRUST_LEVELS", "McpSettings", "ServerConfig"]

SECTION = "mcp"

TRUST_LEVELS = ("trusted", "verified", "quarantined", "blocked")
"""The levels a server can be given, most trusted first."""

_HEADER_NAME = r"[A-Za-z0-9!#$%&'*+.^_`|~-]+"
_ENV_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


class ServerConfig(StrictModel):
    """One ``[[mcp.servers]]`` table."""

    name: str = Field(description="Server id: lowercase letters, digits, '_' and '-'; its "
                      "tools are named mcp_<name>__<tool>.")
    command: str | None = Field(None, min_length=1,
                                description="stdio: the executable that runs the server.")
    args: tuple[str, ...] = Field((), description="stdio: the command's arguments.")
    env: dict[str, str] = Field(default_factory=dict,
                                description="stdio: environment variables added to the "
                                "SDK's minimal inherited set (HOME, PATH, ...).")
    url: str | None = Field(None, pattern=r"^https?://",
                            description="Streamable HTTP: the server's endpoint URL.")
    headers_from_env: dict[str, str] = Field(
        default_factory=dict,
        description="HTTP: header name -> name of the environment variable holding its value "
        "(values never live in the TOML).")
    trust: Literal["trusted", "verified", "quarantined", "blocked"] = Field(
        "quarantined", description="quarantined and blocked servers' tools are denied.")
    allow_tools: tuple[str, ...] = Field(
        ("*",), description="Globs of the server's tool names to offer (fnmatch, case-sensitive).")
    deny_tools: tuple[str, ...] = Field(
        (), description="Globs of tool names never offered; they win over allow_tools.")
    allow_flagged_tools: tuple[str, ...] = Field(
        (), description="Tool names offered although screening flagged their description.")
    timeout_secs: float = Field(30.0, gt=0, le=3600,
                                description="How long one call may take before it times out.")

    @field_validator("name")
    @classmethod
    def _name_chars(cls, value: str) -> str:
        if not re.fullmatch(r"[a-z0-9_-]{1,32}", value):
            raise ValueError("a server name is 1 to 32 lowercase letters, digits, '_' or '-'")
        return value

    @model_validator(mode="after")
    def _one_transport(self) -> ServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError(f"server {self.name!r}: set exactly one of 'command' (stdio) or "
                             "'url' (streamable HTTP)")
        if self.url is not None and (self.args or self.env):
            raise ValueError(f"server {self.name!r}: 'args' and 'env' are for stdio servers "
                             "('command'), not 'url'")
        if self.command is not None and self.headers_from_env:
            raise ValueError(f"server {self.name!r}: 'headers_from_env' is for HTTP servers "
                             "('url'), not 'command'")
        for header, var in self.headers_from_env.items():
            _check(_HEADER_NAME, header, f"server {self.name!r}: header name {header!r}")
            _check(_ENV_NAME, var, f"server {self.name!r}: environment variable name {var!r}")
        for key in self.env:
            _check(_ENV_NAME, key, f"server {self.name!r}: environment variable name {key!r}")
        return self

    @property
    def transport(self) -> str:
        """``stdio`` or ``http``."""
        return "stdio" if self.command is not None else "http"


def _check(pattern: str, value: str, what: str) -> None:
    if not re.fullmatch(pattern, value):
        raise ValueError(f"{what} is not valid")


class McpSettings(StrictModel):
    """``[mcp]``: the servers, and how long the deck waits for them when it is built."""

    servers: tuple[ServerConfig, ...] = Field(
        (), description="The MCP servers whose tools are offered.")
    startup_timeout_secs: float = Field(
        10.0, gt=0, le=300,
        description="How long building the deck waits for the servers to start and list "
        "their tools (all at once); a server not ready by then contributes no tools.")

    @model_validator(mode="after")
    def _unique_names(self) -> McpSettings:
        seen: set[str] = set()
        for server in self.servers:
            if server.name in seen:
                raise ValueError(f"two servers are named {server.name!r}; names must be unique")
            seen.add(server.name)
        return self
