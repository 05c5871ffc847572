"""The web tools' engine: SSRF guard, pinned HTTPS client, and page extraction.

Three layers stand between a URL and a socket. Layer 1 (:mod:`.urlguard`) judges the URL
text alone; layer 2 (:mod:`.resolve`, :mod:`.transport`) resolves the host once, judges every
address, and connects to the judged address only; layer 3 (:mod:`.client`) follows redirects
by hand, sending each hop through layers 1 and 2 again. :class:`.client.WebClient` is the
entry point; :func:`.check.check_url` explains a verdict without fetching anything.
"""
