"""The built-in plugin ``web``: the ``web_scrape`` and ``fetch`` tools behind an SSRF guard.

Three layers stand between a URL and a socket. Layer 1 (:mod:`.urlguard`) judges the URL
text alone; layer 2 (:mod:`.resolve`, :mod:`.transport`) resolves the host once, judges every
address, and connects to the judged address only; layer 3 (:mod:`.client`) follows redirects
by hand, sending each hop through layers 1 and 2 again. :class:`.client.WebClient` is the
engine, :mod:`.executor` runs the tools of :mod:`.tools` on it, :mod:`.plugin` holds the
hooks (re-exported here, since this package is the entry point), and :func:`.check.check_url`
explains a verdict without fetching anything (``tooldeck check url``, :mod:`.cli`).

Importing this package stays cheap: the HTTP stack is imported on the first fetch.
"""

from tooldeck.plugins.web.plugin import (
    tooldeck_configure,
    tooldeck_register_executors,
    tooldeck_register_settings,
    tooldeck_register_tools,
)

__all__ = ["tooldeck_configure", "tooldeck_register_executors", "tooldeck_register_settings",
           "tooldeck_register_tools"]
