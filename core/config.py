"""Configuration: find the TOML file, validate every section, apply environment overrides.

The document is split into *sections* (dotted table names). The core owns ``agent``,
``plugins``, ``tools`` (its scalar keys) and a few ``tools.*`` tables; each plugin owns the
sections it declares through ``tooldeck_register_settings``. Every section is validated by its
owner's pydantic model with unknown keys rejected, and every error names the file, the dotted
key, what was expected and what was found.

Sections named in Zeph's documentation that no enabled plugin owns (``[tools.shell]`` while
the shell plugin is disabled, say) are accepted unvalidated with a warning, so disabling a
plugin never forces an operator to delete its configuration; a misspelt section is still an
error.

Any field can be overridden from the environment as ``TOOLDECK_<SECTION>_<KEY>`` with dots
turned into underscores: ``TOOLDECK_AGENT_MAX_TOOL_ITERATIONS=5``,
``TOOLDECK_TOOLS_SHELL_TIMEOUT=60``. Arrays and tables are written as TOML
(``'["a", "b"]'``); other values are strings that the section's model converts (``5``,
``true``).
"""

from __future__ import annotations

import difflib
import hashlib
import os
import sys
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import attrs
import pydantic
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, field_validator

from tooldeck.dirs import data_dir
from tooldeck.errors import ConfigError
from tooldeck.generation import PolicyReads

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = [
    "BUILTIN_PLUGIN_SECTIONS",
    "CORE_SECTIONS",
    "UNBUILT_FEATURE_SECTIONS",
    "AgentConfig",
    "ApprovalsConfig",
    "AuditConfig",
    "CallExample",
    "ConfigDocument",
    "CoreConfig",
    "DependencyConfig",
    "DependencyRule",
    "ExamplesConfig",
    "PathSetting",
    "PluginsConfig",
    "RetryConfig",
    "Settings",
    "StorageConfig",
    "StrictModel",
    "ToolFilterConfig",
    "parse_document",
    "plugin_lists",
    "validate_sections",
]

M = TypeVar("M", bound=BaseModel)


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("a path cannot contain a NUL byte (\\x00)")
    return value


PathSetting = Annotated[str, AfterValidator(_no_nul)]
"""A path in the configuration: a string without NUL bytes (no file system accepts one).

Use it for every path a settings model holds, so that a NUL is refused as a configuration
error naming the file and the key rather than breaking the plugin that opens the path.
"""


class StrictModel(BaseModel):
    """Base for configuration models: unknown keys are errors and values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class AgentConfig(StrictModel):
    """``[agent]``: limits of the agent loop that drives the tools."""

    max_tool_iterations: int = Field(
        10, ge=1, description="Rounds of tool calls per user turn in the tool loop "
        "(tooldeck.loop.ToolLoop).")
    autonomy: Literal["readonly", "supervised", "full"] = Field(
        "supervised",
        description="readonly: only read-only tools, no side effects and no network; "
        "supervised: permission rules apply; "
        "full: every permission check allows (the blocklist floor still applies).",
    )
    readonly_network: bool = Field(
        False,
        description="Under readonly, let read-only tools that use the network (fetch, "
        "web_scrape) run; their permission rules and the SSRF guard still apply.",
    )


class PluginsConfig(StrictModel):
    """``[plugins]``: which installed plugins run; ``[plugins.<name>]`` tables hold settings."""

    enable: tuple[str, ...] = Field((), description="Third-party plugins to run.")
    disable: tuple[str, ...] = Field((), description="Plugins (built-in or not) not to run.")


class ToolsConfig(StrictModel):
    """``[tools]`` scalar keys; the sub-tables are sections of their own."""

    enabled: bool = Field(True, description="Master switch: false refuses every call.")
    summarize_output: bool = Field(True, description="Filter tool output before the model.")
    max_tool_calls_per_session: int | None = Field(
        None, ge=1, description="Quota of tool calls per deck; unset means unlimited."
    )


class AuditConfig(StrictModel):
    """``[tools.audit]``: the JSON-lines audit log."""

    enabled: bool = Field(True, description="Write one JSON line per call and policy change.")
    path: PathSetting | None = Field(
        None, description="Audit file (relative: to the config file's directory); default: "
        "audit.jsonl in the user data directory."
    )
    max_value_chars: int = Field(
        500, ge=32, description="Longer strings in audit records are cut to this length."
    )

    def resolved_path(self, config_dir: Path | None = None) -> Path:
        """The audit file path, or the platform default.

        ``~`` is expanded and a relative path is taken from ``config_dir`` (the configuration
        file's directory), else from the working directory.
        """
        if self.path:
            path = Path(self.path).expanduser()
            return path if path.is_absolute() or config_dir is None else config_dir / path
        return data_dir() / "audit.jsonl"


class ApprovalsConfig(StrictModel):
    """``[tools.approvals]``: deferred ``ask`` decisions kept as data (see docs/approvals.md)."""

    expiry_secs: int = Field(
        3600, ge=1, le=30 * 86400,
        description="A pending approval can be approved, denied or resumed for this long; "
        "after that it fails closed.")
    grant_ttl_secs: int = Field(
        3600, ge=1, le=30 * 86400,
        description="How long a grant made with scope command or rule lasts.")
    path: PathSetting | None = Field(
        None, description="The approval store (relative: to the config file's directory); "
        "default: approvals.sqlite3 in the user data directory.")

    def resolved_path(self, config_dir: Path | None = None) -> Path:
        """The store's path, or the platform default (``~`` expanded)."""
        if self.path:
            path = Path(self.path).expanduser()
            return path if path.is_absolute() or config_dir is None else config_dir / path
        return data_dir() / "approvals.sqlite3"


_URL_SCHEMES = ("postgresql://", "postgres://")
_NEVER_ECHOED = frozenset({"storage.url"})
"""Keys whose refused value is not repeated in the error: it may hold a password."""


class StorageConfig(StrictModel):
    """``[storage]``: where shared state lives (see docs/fleet.md).

    Without ``url`` every kind of state stays embedded (JSON-lines files and SQLite in the
    user data directory). With a ``postgresql://`` URL, a storage backend plugin (the built-in
    ``postgres``, ``pip install 'tooldeck[postgres]'``) keeps it in PostgreSQL, shared by every
    worker that names the same database and ``namespace``.
    """

    url: str | None = Field(
        None, description="postgresql://user@host:port/database of the shared state; unset: "
        "embedded files and SQLite. Never put the password here: see password_env.")
    password_env: str = Field(
        "TOOLDECK_PG_PASSWORD", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="Environment variable holding the database password (when it is unset, "
        "libpq's own PGPASSWORD and ~/.pgpass apply).")
    namespace: str = Field(
        "default", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$",
        description="Workers with the same url and namespace share quota, trust, overflow, "
        "audit, scheduled tasks and memory; another namespace in the same database shares "
        "nothing with them.")
    durable: bool = Field(
        True, description="Each write returns once the server has flushed it to disk "
        "(synchronous_commit on). false: once the server has it (synchronous_commit off): a "
        "worker killed at any point still loses nothing, but a server crash may lose the "
        "last fraction of a second of writes, as an OS crash may with the embedded JSON-lines "
        "audit log; the quota may then allow those calls again.")
    pool_size: int = Field(4, ge=1, le=64, description="Most connections one deck opens "
                           "(besides its one listening connection).")
    connect_timeout_secs: float = Field(
        5.0, gt=0, le=120, description="How long the first connection may take before the "
        "deck refuses to start (exit 2).")

    @field_validator("url")
    @classmethod
    def _no_password_in_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(_URL_SCHEMES):
            raise ValueError("expected a postgresql:// URL")
        from urllib.parse import parse_qs, urlsplit

        parts = urlsplit(value)
        if parts.password is not None or "password" in parse_qs(parts.query):
            raise ValueError("the URL holds a password; put it in the environment variable "
                             "named by storage.password_env instead")
        return value


class TafcConfig(StrictModel):
    """``[tools.tafc]``: think-augmented function calling.

    ``_tafc_think*`` parameters are stripped from every call whatever this says.
    """

    enabled: bool = Field(False, description="Offer the _tafc_think reasoning field on "
                          "complex tool schemas.")
    complexity_threshold: float = Field(
        0.6, ge=0.0, le=1.0, description="Schema complexity (0-1) from which the reasoning "
        "field is offered.")


class RetryConfig(StrictModel):
    """``[tools.retry]``: retries of transient failures, for retryable executors.

    Transient: rate limit, server error, network error, timeout (see :mod:`tooldeck.retry`).
    """

    max_attempts: int = Field(
        2, ge=1, le=20, description="Attempts in all, the first included (1 = no retry).")
    base_ms: int = Field(
        500, ge=0, le=600_000,
        description="Backoff before retry k (0-based) is random in [0, min(base_ms * 2^k, "
        "max_ms)] (full jitter).")
    max_ms: int = Field(5000, ge=0, le=600_000, description="Cap of one backoff.")
    budget_secs: float = Field(
        30, ge=0, le=3600,
        description="No retry starts when its backoff would end past this many seconds "
        "after the first attempt began (0 = no limit).")


class ToolFilterConfig(StrictModel):
    """``[agent.tool_filter]``: which tool schemas the tool loop sends with each request.

    Read by :mod:`tooldeck.schema_filter` through :class:`tooldeck.loop.ToolLoop`.
    """

    enabled: bool = Field(False, description="Send only the tools the filter selects.")
    always_on: tuple[str, ...] = Field(
        ("read_overflow",), description="Tools always sent (read_overflow: overflow "
        "references in results must stay readable).")
    top_k: int = Field(10, ge=0, description="Tools kept by similarity (0 = all).")
    min_description_words: int = Field(
        3, ge=0, description="Tools with a shorter description are always sent.")


class DependencyRule(StrictModel):
    """``[tools.dependencies.rules.<tool>]``: what a tool needs before it is offered."""

    requires: tuple[str, ...] = Field((), description="Tools that must have completed first.")
    prefers: tuple[str, ...] = Field(
        (), description="Tools whose completion boosts this one's similarity score.")


class DependencyConfig(StrictModel):
    """``[tools.dependencies]``: tool prerequisites, applied by the schema filter.

    Read by :mod:`tooldeck.dependencies` through :class:`tooldeck.loop.ToolLoop`.
    """

    enabled: bool = Field(False, description="Gate tools on their requirements.")
    boost_per_dep: float = Field(0.15, ge=0, le=1, description="Boost per completed prefers.")
    max_total_boost: float = Field(0.2, ge=0, le=1, description="Cap of a tool's boost.")
    rules: dict[str, DependencyRule] = Field(default_factory=dict,
                                             description="Rules by tool id.")


class CallExample(StrictModel):
    """One ``[[examples.calls]]`` table: a call and the decision the policy must make on it."""

    tool: str = Field(min_length=1, max_length=64, description="The tool called.")
    input: str = Field(
        max_length=4096,
        description="The tool's input: the command, path or URL (JSON parameters for a tool "
        "without one), as an audit record's ``command``.")
    expect: Literal["allow", "ask", "deny"] = Field(description="The verdict required.")
    rule: str | None = Field(
        None, min_length=1, description="When set, the rule id that must decide "
        "(``tools.permissions.bash[2]``, ``blocklist``, ``overlay-rule`` …).")


class ExamplesConfig(StrictModel):
    """``[examples]``: calls the whole policy is checked against on load and every reload."""

    calls: tuple[CallExample, ...] = Field(
        (), description="Calls and the decision the whole policy must give each "
        "([[examples.calls]]).")


CORE_SECTIONS: dict[str, type[BaseModel]] = {
    "agent": AgentConfig,
    "plugins": PluginsConfig,
    "tools": ToolsConfig,
    "tools.audit": AuditConfig,
    "tools.approvals": ApprovalsConfig,
    "tools.tafc": TafcConfig,
    "tools.retry": RetryConfig,
    "agent.tool_filter": ToolFilterConfig,
    "tools.dependencies": DependencyConfig,
    "examples": ExamplesConfig,
    "storage": StorageConfig,
}
"""Sections the core itself owns, with their models."""

BUILTIN_PLUGIN_SECTIONS = frozenset(
    {"tools.shell", "tools.file", "tools.scrape", "tools.permissions", "tools.filters",
     "tools.overflow", "tools.risk_chain", "tools.memory", "tools.scheduler", "tools.telemetry",
     "tools.result_cache", "tools.egress", "tools.trust", "tools.anomaly", "tools.policy",
     "tools.verifiers", "tools.scopes", "tools.diagnostics", "tools.skills",
     "tools.adversarial_policy", "tools.compress_context", "tools.summarizer", "tools.utility",
     "mcp"}
)
"""Sections of tooldeck's own plugins: with the plugin disabled they are kept, unvalidated,
with a warning (disabling a plugin must not make its settings an error)."""

UNBUILT_FEATURE_SECTIONS = frozenset(
    {
        "tools.sandbox",
        "tools.compression",
    }
)
"""Zeph's sections for features no built-in plugin provides. Present with no enabled owner,
each is an error: a section that turns on a gate nobody runs must not look like protection."""

@attrs.frozen
class CoreConfig:
    """The validated core sections."""

    agent: AgentConfig
    plugins: PluginsConfig
    tools: ToolsConfig
    audit: AuditConfig
    tafc: TafcConfig
    retry: RetryConfig
    tool_filter: ToolFilterConfig
    dependencies: DependencyConfig
    approvals: ApprovalsConfig
    storage: StorageConfig


@attrs.frozen
class ConfigDocument:
    """A parsed configuration file, or the embedded default.

    :param path: the file, or ``None`` for the embedded default.
    :param origin: how it was found (``--config``, ``$TOOLDECK_CONFIG``, …, ``embedded default``).
    :param text: the file's text.
    :param data: the parsed TOML.
    :param notes: warnings about how the document was made (an untrusted project file).
    :param base_directory: where relative settings are taken from, when not the file's own
        directory.
    """

    path: Path | None
    origin: str
    text: str
    data: Mapping[str, Any]
    notes: tuple[str, ...] = ()
    base_directory: Path | None = None

    @property
    def directory(self) -> Path | None:
        """The directory relative settings are taken from.

        ``base_directory`` when the data came from another file (the user's, for an untrusted
        project file), else the file's own directory; ``None`` for the embedded default.
        """
        if self.base_directory is not None:
            return self.base_directory
        return self.path.parent if self.path is not None else None

    @property
    def provenance(self) -> str:
        """A decision's ``source`` for a rule of this document: the file, or ``default``."""
        return str(self.path) if self.path is not None else "default"

    @property
    def label(self) -> str:
        """The name used in error messages: the file path, or ``<embedded default>``."""
        return str(self.path) if self.path is not None else "<embedded default>"

    @property
    def digest(self) -> str:
        """sha256 of the text (first 16 hex digits), to tell versions apart in audit records."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]


def embedded_default_text() -> str:
    """The text of the configuration used when no file exists."""
    return resources.files("tooldeck").joinpath("default_config.toml").read_text("utf-8")


def parse_document(text: str, path: Path | None, origin: str) -> ConfigDocument:
    """Parse TOML text into a :class:`ConfigDocument`.

    :raises ConfigError: the TOML does not parse; the message names the file and position.
    """
    label = str(path) if path is not None else "<embedded default>"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{label}: invalid TOML: {exc}", path=label) from None
    return ConfigDocument(path=path, origin=origin, text=text, data=data)


def read_document(path: Path, origin: str) -> ConfigDocument:
    """Read and parse one config file.

    :raises ConfigError: unreadable, not UTF-8 or not TOML.
    """
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text", path=str(path)) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}", path=str(path)) from None
    return parse_document(text, path, origin)


# --------------------------------------------------------------------------- validation


def _subtree(data: Mapping[str, Any], dotted: str) -> Any:
    node: Any = data
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _env_var(section: str, key: str) -> str:
    return f"TOOLDECK_{section.upper().replace('.', '_')}_{key.upper()}"


def _parse_env_value(raw: str) -> Any:
    """Arrays, tables and quoted strings are read as TOML; the rest stays a string to coerce.

    Reading every value as TOML would turn ``inf``, ``nan`` or a date into a float or a date
    for a field that wants a string; pydantic already turns ``"5"`` or ``"true"`` into the
    field's type.
    """
    if raw.lstrip().startswith(("[", "{", '"', "'")):
        try:
            return tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            return raw
    return raw


def plugin_lists(
    doc: ConfigDocument, environ: Mapping[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """``[plugins] enable`` and ``disable``, after environment overrides, for the loader.

    The loader needs them before any section can be validated (validation needs the enabled
    plugins' models), so they are read here on their own.

    :raises ConfigError: either is not a list of names.
    """
    env = os.environ if environ is None else environ
    table = doc.data.get("plugins", {})
    if not isinstance(table, Mapping):
        raise ConfigError(f"{doc.label}: plugins: expected a table, found {_describe(table)}",
                          path=doc.label, key="plugins")
    lists = []
    for key in ("enable", "disable"):
        var = _env_var("plugins", key)
        where = f"${var}" if var in env else doc.label
        value = _parse_env_value(env[var]) if var in env else table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: plugins.{key}: expected a list of plugin names, "
                              f"found {_describe(value)}", path=where, key=f"plugins.{key}")
        lists.append(value)
    return lists[0], lists[1]


def _describe(value: Any) -> str:
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def _did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for a close candidate, else the list of what is expected."""
    names = sorted(set(candidates))
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f"; expected one of: {', '.join(names)}" if names else ""


def _keys_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys the table at ``loc`` inside ``model`` accepts (from its JSON Schema)."""
    try:
        schema = model.model_json_schema()
    except Exception:  # a model whose schema cannot be generated: no hint
        return []
    defs = schema.get("$defs", {})

    def resolve(node: Any) -> Any:
        while isinstance(node, Mapping):
            if "$ref" in node:
                node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
                continue
            options = [o for o in node.get("anyOf", ()) if o.get("type") != "null"]
            if len(options) == 1:
                node = options[0]
                continue
            break
        return node

    node = resolve(schema)
    for part in loc:
        if not isinstance(node, Mapping):
            return []
        if isinstance(part, int):
            node = node.get("items") or {}
        elif part in node.get("properties", {}):
            node = node["properties"][part]
        else:
            node = node.get("additionalProperties") or {}
        node = resolve(node)
    return list(node.get("properties", {})) if isinstance(node, Mapping) else []


@attrs.frozen
class Settings:
    """Validated configuration as plugins see it.

    :param core: the core's own sections.
    :param sections: every owned section's validated model instance, by dotted name.
    :param raw: every section's raw table (after environment overrides), by dotted name.
    :param sources: where each set value came from: ``"<dotted.key>" -> file or $ENV``.
    :param warnings: things worth an operator's attention that are not errors.
    :param document: the configuration document.
    :param files: the policy files this runtime's build read (plugins read theirs through
        ``files.read_text``, so a runtime is built from one generation of files).
    """

    core: CoreConfig
    sections: Mapping[str, BaseModel]
    raw: Mapping[str, Mapping[str, Any]]
    sources: Mapping[str, str]
    warnings: tuple[str, ...]
    document: ConfigDocument
    files: PolicyReads = attrs.field(factory=PolicyReads, eq=False)

    def get(self, model: type[M]) -> M:
        """The validated section whose model is ``model``.

        :raises KeyError: no enabled plugin registered a section with that model.
        """
        for value in self.sections.values():
            if type(value) is model:
                return value
        raise KeyError(f"no section is validated by {model.__name__}")

    def section(self, name: str) -> BaseModel:
        """The validated section ``name`` (dotted), e.g. ``settings.section("tools.shell")``."""
        return self.sections[name]

    def origin(self, key: str) -> str:
        """Where the value of ``key`` (dotted) came from, as a decision's ``source``.

        :param key: e.g. ``agent.autonomy``.
        :returns: the file, ``env`` (a ``TOOLDECK_*`` override) or ``default`` (not set, or
            set by the embedded default configuration).
        """
        where = self.sources.get(key)
        if where is None:
            return "default"
        if where.startswith("$"):
            return "env"
        return self.document.provenance

    def table(self, name: str) -> Mapping[str, Any]:
        """The raw table of section ``name`` (empty when absent); for reading a neighbour's keys."""
        return self.raw.get(name, {})


def validate_sections(
    doc: ConfigDocument,
    owned: Mapping[str, type[BaseModel]],
    *,
    installed_plugins: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    files: PolicyReads | None = None,
) -> Settings:
    """Validate every section of ``doc`` against its owner's model.

    :param doc: the parsed configuration.
    :param owned: sections declared by enabled plugins (core sections are added here).
    :param installed_plugins: names of installed plugins; ``[plugins.<name>]`` tables of those
        that are not enabled are accepted unvalidated.
    :param environ: the environment for ``TOOLDECK_*`` overrides (default ``os.environ``).
    :param files: the build's policy-file reads (a fresh one when ``None``).
    :raises ConfigError: naming the file, the dotted key, what was expected and what was found.
    """
    env = os.environ if environ is None else environ
    models: dict[str, type[BaseModel]] = {**CORE_SECTIONS, **owned}
    installed = set(installed_plugins)
    plugin_tables = {f"plugins.{name}" for name in installed}
    known = set(models) | BUILTIN_PLUGIN_SECTIONS | UNBUILT_FEATURE_SECTIONS | plugin_tables
    label = doc.label
    errors: list[tuple[str, str, str]] = []
    warnings: list[str] = list(doc.notes)
    sources: dict[str, str] = {}

    def fail(key: str, message: str, where: str = label) -> None:
        errors.append((where, key, message))

    for key, value in doc.data.items():
        if not any(name == key or name.startswith(key + ".") for name in known):
            fail(key, f"unknown section{_did_you_mean(key, [n.split('.')[0] for n in known])}")
        elif key not in known and not isinstance(value, Mapping):
            # known sections are type-checked once, in the loop below
            fail(key, f"expected a table, found {_describe(value)}")

    raw: dict[str, dict[str, Any]] = {}
    sections: dict[str, BaseModel] = {}
    for name in sorted(known):
        node = _subtree(doc.data, name)
        if node is not None and not isinstance(node, Mapping):
            fail(name, f"expected a table, found {_describe(node)}")
            continue
        children = {n.rsplit(".", 1)[1] for n in known if "." in n and n.rsplit(".", 1)[0] == name}
        table = {k: v for k, v in (node or {}).items() if k not in children}
        for key in table:
            sources[f"{name}.{key}"] = label
        model = models.get(name)
        if model is None and node is not None and name in UNBUILT_FEATURE_SECTIONS:
            fail(name, "no enabled plugin provides this feature, so nothing would act on "
                 "this section; remove it, or install and enable the plugin that owns it")
            continue
        if model is None:
            if name in BUILTIN_PLUGIN_SECTIONS:
                # the core reads some keys of these without their plugin (the path sandbox,
                # the egress policy, the overflow store): their overrides apply all the same
                prefix = _env_var(name, "")
                nested = tuple(_env_var(f"{name}.{child}", "") for child in children)
                for var in sorted(env):
                    if var.startswith(prefix) and var != prefix and not var.startswith(nested):
                        table[var[len(prefix):].lower()] = _parse_env_value(env[var])
                        sources[f"{name}.{var[len(prefix):].lower()}"] = f"${var}"
            raw[name] = table
            if node is not None and name not in plugin_tables:
                warnings.append(f"[{name}] is not validated: no enabled plugin owns it")
            continue
        for field in () if issubclass(model, RootModel) else model.model_fields:
            var = _env_var(name, field)
            if var in env:
                table[field] = _parse_env_value(env[var])
                sources[f"{name}.{field}"] = f"${var}"
        raw[name] = table
        try:
            sections[name] = model.model_validate(table)
        except pydantic.ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"])
                dotted = f"{name}.{loc}" if loc else name
                where = sources.get(f"{name}.{err['loc'][0]}", label) if err["loc"] else label
                if err["type"] == "extra_forbidden":
                    parent = tuple(err["loc"][:-1])
                    keys = _keys_at(model, parent) if parent else [*model.model_fields, *children]
                    hint = _did_you_mean(str(err["loc"][-1]), keys)
                    fail(dotted, f"unknown key{hint}", where)
                else:
                    echo = "input" in err and dotted not in _NEVER_ECHOED
                    found = f"; found {_describe(err['input'])}" if echo else ""
                    fail(dotted, f"{err['msg']}{found}", where)

    if errors:
        message = "\n".join(f"{where}: {key}: {msg}" for where, key, msg in errors)
        raise ConfigError(message, path=label, key=errors[0][1])
    core = CoreConfig(
        agent=_typed(sections["agent"], AgentConfig),
        plugins=_typed(sections["plugins"], PluginsConfig),
        tools=_typed(sections["tools"], ToolsConfig),
        audit=_typed(sections["tools.audit"], AuditConfig),
        tafc=_typed(sections["tools.tafc"], TafcConfig),
        retry=_typed(sections["tools.retry"], RetryConfig),
        tool_filter=_typed(sections["agent.tool_filter"], ToolFilterConfig),
        dependencies=_typed(sections["tools.dependencies"], DependencyConfig),
        approvals=_typed(sections["tools.approvals"], ApprovalsConfig),
        storage=_typed(sections["storage"], StorageConfig),
    )
    return Settings(
        core=core,
        sections=sections,
        raw=raw,
        sources=sources,
        warnings=tuple(warnings),
        document=doc,
        files=files if files is not None else PolicyReads(),
    )


def _typed(value: BaseModel, model: type[M]) -> M:
    assert isinstance(value, model)
    return value
