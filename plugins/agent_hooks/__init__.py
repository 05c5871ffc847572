"""Policy hooks for coding agents people already run: ``tooldeck hook`` and ``tooldeck serve``.

``tooldeck hook AGENT`` reads one hook event (JSON on stdin) from Claude Code, Codex or
Gemini CLI, asks the deck's gates about the matching tooldeck call and answers in that
agent's documented hook format. ``tooldeck serve`` keeps a deck warm on a user-only Unix
socket so each hook call costs a round trip instead of a deck build; see
``docs/integrations/``.
"""
