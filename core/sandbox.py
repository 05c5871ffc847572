"""``[tools.file]``'s sandbox keys and the one rule that turns them into a path sandbox.

The roots, ``deny_read`` and ``allow_read`` of ``[tools.file]`` describe the sandbox every
caller applies: the file tools, ``tooldeck check path``, the agent hooks and third-party
plugins (through :attr:`tooldeck.services.Services.paths`). They are read here, by the core,
so the sandbox exists whether or not the ``files`` plugin is enabled, and built by
:func:`sandbox_for`, the only place that decides what a relative path is relative to:

- the working directory, when it lies inside a root;
- the first root of ``allowed_paths`` otherwise (a relative path joined to a directory
  outside every root could never be used).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import pydantic
from pydantic import AfterValidator, Field

from tooldeck.config import PathSetting, Settings, StrictModel
from tooldeck.errors import ConfigError, ToolError
from tooldeck.paths import PathSandbox, compile_glob

__all__ = ["SANDBOX_SECTION", "SandboxSettings", "sandbox_for", "sandbox_from_settings"]

SANDBOX_SECTION = "tools.file"
"""The section holding the sandbox keys (the ``files`` plugin owns its other keys)."""


def _usable_glob(pattern: str) -> str:
    try:
        compile_glob(pattern)
    except (ValueError, ToolError) as exc:
        raise ValueError(f"cannot use this glob: {exc}") from None
    return pattern


_Glob = Annotated[str, AfterValidator(_usable_glob)]


class SandboxSettings(StrictModel):
    """The sandbox keys of ``[tools.file]``: where paths may reach and what may not be read."""

    allowed_paths: tuple[PathSetting, ...] = Field(
        (), description="Sandbox roots; empty means the current directory; ~ is expanded."
    )
    deny_read: tuple[_Glob, ...] = Field(
        (), description="Globs of canonical paths that may not be read (** crosses /)."
    )
    allow_read: tuple[_Glob, ...] = Field(
        (), description="Globs re-allowing paths matched by deny_read (alone: no effect)."
    )

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> SandboxSettings:
        """The sandbox keys of a raw ``[tools.file]`` table, its other keys ignored.

        :param table: the raw table (``settings.table("tools.file")``).
        :returns: the validated keys.
        :raises ConfigError: naming the dotted key of the first problem.
        """
        keys = {key: table[key] for key in cls.model_fields if key in table}
        try:
            return cls.model_validate(keys)
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ConfigError(f"[{SANDBOX_SECTION}] {where}: {first['msg']}",
                              key=f"{SANDBOX_SECTION}.{where}") from None


def sandbox_for(settings: SandboxSettings, *, roots: Sequence[str] | None = None,
                cwd: str | os.PathLike[str] | None = None) -> PathSandbox:
    """The path sandbox ``settings`` describe, relative paths joined as the module says.

    :param settings: the sandbox keys.
    :param roots: other roots to use instead of ``allowed_paths`` (``tooldeck check path
        --root``); the same rule applies to them.
    :param cwd: the working directory (default: the process's).
    :returns: the sandbox.
    :raises ConfigError: an invalid read-sandbox glob.
    """
    chosen = tuple(settings.allowed_paths if roots is None else roots)
    sandbox = PathSandbox(chosen, deny_read=settings.deny_read, allow_read=settings.allow_read,
                          cwd=cwd)
    if not chosen or sandbox.contains(sandbox.cwd):
        return sandbox
    # the roots as the first sandbox resolved them: a relative root stays where it was
    return PathSandbox([str(root) for root in sandbox.roots], deny_read=settings.deny_read,
                       allow_read=settings.allow_read, cwd=_absolute_root(chosen[0], sandbox.cwd))


def _absolute_root(root: str, cwd: os.PathLike[str]) -> str:
    expanded = os.path.expanduser(root) if root.startswith("~") else root
    return os.path.join(os.fspath(cwd), expanded)


def sandbox_from_settings(settings: Settings, *, roots: Sequence[str] | None = None,
                          cwd: str | os.PathLike[str] | None = None) -> PathSandbox:
    """The sandbox of a configuration's ``[tools.file]``, whichever plugins are enabled.

    :param settings: the validated configuration.
    :param roots: see :func:`sandbox_for`.
    :param cwd: see :func:`sandbox_for`.
    :returns: the sandbox.
    :raises ConfigError: a sandbox key that does not validate.
    """
    return sandbox_for(SandboxSettings.from_table(settings.table(SANDBOX_SECTION)),
                       roots=roots, cwd=cwd)
