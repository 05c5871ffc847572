"""``[tools.summarizer]``: the OpenAI-compatible chat endpoint that writes summaries."""

from __future__ import annotations

from pydantic import Field, model_validator

from tooldeck.config import StrictModel

__all__ = ["SECTION", "SummarizerSettings"]

SECTION = "tools.summarizer"


class SummarizerSettings(StrictModel):
    """``[tools.summarizer]``: where ``compress_context`` gets its summaries.

    The API key is never written in the file: ``api_key_env`` names the environment
    variable that holds it.
    """

    enabled: bool = Field(False, description="Supply a summariser through this endpoint.")
    base_url: str = Field(
        "", pattern=r"^(https?://\S+)?$",
        description="The OpenAI-compatible API root, e.g. https://api.openai.com/v1 or "
        "http://127.0.0.1:8080/v1; POST {base_url}/chat/completions.",
    )
    model: str = Field("", description="The model of every summary request.")
    api_key_env: str | None = Field(
        None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="The environment variable holding the API key (sent as a bearer "
        "token); unset: no key is sent.",
    )
    timeout_s: float = Field(
        60.0, gt=0, le=600, description="How long one summary request may take (seconds).",
    )

    @model_validator(mode="after")
    def _endpoint_when_enabled(self) -> SummarizerSettings:
        if self.enabled and not (self.base_url and self.model):
            raise ValueError("an enabled summarizer needs base_url and model")
        return self
