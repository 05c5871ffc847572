"""The two web tools as the model sees them: ``web_scrape`` and ``fetch``.

Both run on the ``web`` executor, read the network and change nothing, and name their
``url`` as the input that permission rules match. ``web_scrape`` keeps Zeph's legacy
invocation, a fenced ``scrape`` block whose body is a JSON object of the parameters;
:func:`parse_scrape_block` turns such a body into the parameters of a call.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolDef

__all__ = [
    "EXECUTOR",
    "FETCH",
    "MAX_SCRAPE_LIMIT",
    "TOOLS",
    "WEB_SCRAPE",
    "FetchParams",
    "ScrapeParams",
    "parse_scrape_block",
]

EXECUTOR = "web"
"""The name of the executor that runs both tools."""

_ONLY_GIVEN_URLS = (
    "Only call it for an https URL the user explicitly provided; never construct or guess URLs."
)
_URL = "The https URL the user gave, exactly as given."
MAX_SCRAPE_LIMIT = 1000
"""The largest ``limit`` of ``web_scrape``."""
_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "a boolean", type(None): "null"}


class ScrapeParams(BaseModel):
    """Parameters of ``web_scrape``; unknown parameters are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(description=_URL)
    select: str = Field(min_length=1, description="CSS selector of the elements to extract.")
    extract: str = Field(
        "text",
        pattern=r"^(?:text|html|attr:\S+)$",
        description="What to take from each element: text, html (inner HTML) or attr:NAME "
        "(an attribute's value).",
    )
    limit: int = Field(10, ge=1, le=MAX_SCRAPE_LIMIT,
                       description="How many matching elements to take, at most.")


class FetchParams(BaseModel):
    """Parameters of ``fetch``; unknown parameters are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(description=_URL)


WEB_SCRAPE = ToolDef(
    id="web_scrape",
    description="Scrape data from a web page with a CSS selector and return the matching "
    f"elements' text, inner HTML or an attribute, one per line. {_ONLY_GIVEN_URLS}",
    params=ScrapeParams,
    executor=EXECUTOR,
    invocation="fenced:scrape",
    capabilities={"read", "network"},
    input_param="url",
)
"""``web_scrape``: CSS-selector extraction from an HTML page."""

FETCH = ToolDef(
    id="fetch",
    description="Fetch a web page and return its content as text (HTML as Markdown, JSON "
    f"indented); no selector needed. {_ONLY_GIVEN_URLS}",
    params=FetchParams,
    executor=EXECUTOR,
    capabilities={"read", "network"},
    input_param="url",
)
"""``fetch``: a whole page as readable text."""

TOOLS = (WEB_SCRAPE, FETCH)
"""Every tool of the web plugin, in registration order."""


def parse_scrape_block(text: str) -> dict[str, Any]:
    """Read the body of a fenced ``scrape`` block: a JSON object of ``web_scrape`` parameters.

    The parameters are returned as written; the pipeline validates them like any call's.

    :param text: the text between the opening fence line and the closing fence.
    :returns: the parameters.
    :raises ToolError: ``invalid_parameters`` when the body is not JSON or not a JSON object.
    """
    try:
        params = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolError(
            ErrorCategory.INVALID_PARAMETERS,
            f"invalid scrape block: not valid JSON ({exc.msg} at line {exc.lineno} column "
            f"{exc.colno}); expected an object such as "
            '{"url": "https://example.com", "select": "h1"}',
        ) from None
    except (RecursionError, ValueError) as exc:  # nested too deep, or a number too long
        problem = "nested too deeply" if isinstance(exc, RecursionError) else "a number too long"
        raise ToolError(ErrorCategory.INVALID_PARAMETERS,
                        f"invalid scrape block: unusable JSON ({problem})") from None
    if not isinstance(params, dict):
        raise ToolError(
            ErrorCategory.INVALID_PARAMETERS,
            f"invalid scrape block: expected a JSON object, found {_JSON_KINDS[type(params)]}",
        )
    return params
