"""``tooldeck mcp serve``: the deck's tools served over the Model Context Protocol.

Built on the official ``mcp`` SDK (its low-level ``Server``, stdio and streamable-HTTP
transports); every ``tools/call`` runs through :meth:`tooldeck.deck.Deck.call`, so gates,
confirmation, filters, redaction and the audit apply exactly as for any other caller.

This package is a command, not a deck plugin: it registers no hooks. Importing it is cheap;
the SDK is imported only when the server starts.
"""
