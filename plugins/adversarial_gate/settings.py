"""``[tools.adversarial_policy]``: the LLM judge's endpoint, policy and failure mode, validated."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, model_validator

from tooldeck.config import PathSetting, StrictModel

__all__ = ["DEFAULT_EXEMPT_TOOLS", "SECTION", "AdversarialPolicySettings"]

SECTION = "tools.adversarial_policy"

DEFAULT_EXEMPT_TOOLS = ("memory_save", "memory_search", "read_overflow", "load_skill",
                        "invoke_skill", "schedule_deferred", "list_tasks")
"""Zeph's exempt tools: they touch only the agent's own state, so no judge is asked."""

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _http_url(value: str) -> str:
    if value and not value.startswith(("http://", "https://")):
        raise ValueError("expected an http:// or https:// URL (the API root, e.g. "
                         "https://api.openai.com/v1)")
    return value


def _env_name(value: str | None) -> str | None:
    if value is not None and not _ENV_NAME.match(value):
        raise ValueError(f"{value!r} is not an environment variable name")
    return value


class AdversarialPolicySettings(StrictModel):
    """``[tools.adversarial_policy]``: an LLM that may veto tool calls against written policies."""

    enabled: bool = Field(False, description="Ask the judge about every non-exempt call.")
    base_url: Annotated[str, AfterValidator(_http_url)] = Field(
        "", description="Root of an OpenAI-compatible API; the gate POSTs to "
        "<base_url>/chat/completions. Required when enabled.")
    model: str = Field("", description="Model name sent with each request. Required when "
                       "enabled.")
    api_key_env: Annotated[str | None, AfterValidator(_env_name)] = Field(
        None, description="Environment variable holding the API key (sent as a Bearer "
        "token); unset sends no key. The key itself never goes in a file.")
    policy_file: PathSetting | None = Field(
        None, description="Plain-text policy, one rule a line; blank lines and # comments "
        "dropped. Relative: to the config file's directory.")
    fail_open: bool = Field(False, description="On a timeout or endpoint error, let the "
                            "call proceed (default: deny it).")
    timeout_ms: int = Field(3000, ge=1, le=60_000, description="The whole request, "
                            "connection included, must answer within this.")
    exempt_tools: tuple[str, ...] = Field(DEFAULT_EXEMPT_TOOLS, description="Tools never "
                                          "judged.")

    @model_validator(mode="after")
    def _endpoint_when_enabled(self) -> AdversarialPolicySettings:
        if self.enabled and not (self.base_url and self.model):
            raise ValueError("enabled = true needs base_url and model")
        return self
