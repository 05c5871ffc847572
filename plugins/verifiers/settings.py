"""``[tools.verifiers]``: the pre-execution verifiers, each with its own switch, validated."""

from __future__ import annotations

from pydantic import Field

from tooldeck.config import PathSetting, StrictModel

__all__ = [
    "SECTION",
    "DestructiveSettings",
    "FirewallSettings",
    "InjectionSettings",
    "UrlGroundingSettings",
    "VerifierSettings",
]

SECTION = "tools.verifiers"



class DestructiveSettings(StrictModel):
    """``[tools.verifiers.destructive]``: disk- and system-wrecking shell commands."""

    enabled: bool = Field(True, description="Run this verifier.")
    shell_tools: tuple[str, ...] = Field(
        ("bash", "shell", "terminal"), description="Tools whose command is checked "
        "(compared case-insensitively).")
    extra_patterns: tuple[str, ...] = Field(
        (), description="More substrings (lowercase) that mark a command destructive.")
    allowed_paths: tuple[PathSetting, ...] = Field(
        (".",), description="A destructive command runs anyway when every path it names "
        "lies below one of these (relative: to the working directory the deck started in).")


class InjectionSettings(StrictModel):
    """``[tools.verifiers.injection]``: SQL, command and traversal injection in arguments."""

    enabled: bool = Field(True, description="Run this verifier.")
    exempt_fields: tuple[str, ...] = Field(
        ("query", "q", "search", "text", "message", "content", "old_string", "new_string",
         "pattern", "select"),
        description="Free-text fields never checked (Zeph's six plus tooldeck's edit, grep "
        "and scrape fields).")
    shell_tools: tuple[str, ...] = Field(
        ("bash",), description="Tools whose command is shell code: its `command` is left "
        "to the shell gate (; rm and | curl are what commands are made of).")
    extra_patterns: tuple[str, ...] = Field(
        (), description="More RE2 expressions (case-insensitive) that block a field.")
    allowlisted_urls: tuple[str, ...] = Field(
        (), description="A URL field containing one of these does not warn about a "
        "private host.")


class UrlGroundingSettings(StrictModel):
    """``[tools.verifiers.url_grounding]``: fetch only URLs the user gave."""

    enabled: bool = Field(
        False, description="Off by default: it needs the agent to hand user messages to "
        "deck.note_user_message(); with it on and no user URL, every fetch is blocked.")
    tools: tuple[str, ...] = Field(
        ("fetch", "web_scrape"), description="Tools checked (and every id ending in _fetch).")


class FirewallSettings(StrictModel):
    """``[tools.verifiers.firewall]``: sensitive paths, traversal, secret env references."""

    enabled: bool = Field(True, description="Run this verifier.")
    exempt_tools: tuple[str, ...] = Field((), description="Tools never checked.")
    blocked_paths: tuple[str, ...] = Field(
        (), description="More path globs to block (added to the built-in list).")
    blocked_env_vars: tuple[str, ...] = Field(
        (), description="More variable names whose $V, ${V} or %V% reference is blocked.")


class VerifierSettings(StrictModel):
    """``[tools.verifiers]``: the master switch and one table per verifier."""

    enabled: bool = Field(True, description="Master switch: false turns every verifier off.")
    exempt_tools: tuple[str, ...] = Field(
        (), description="More tools the destructive, injection and firewall verifiers skip. "
        "URL grounding ignores it.")
    check_own_tools: bool = Field(
        False, description="Also check tooldeck's own tools (Zeph's behaviour). By default "
        "they are skipped: each is judged by a gate that understands it (the shell gate on a "
        "parse tree, the path sandbox on canonical paths, the SSRF guard on resolved "
        "addresses), where substring checks only add false positives (a commit message that "
        "mentions rm -rf /). An MCP server's, a skill's or a third-party plugin's tools are "
        "always checked.")
    destructive: DestructiveSettings = DestructiveSettings.model_validate({})
    injection: InjectionSettings = InjectionSettings.model_validate({})
    url_grounding: UrlGroundingSettings = UrlGroundingSettings.model_validate({})
    firewall: FirewallSettings = FirewallSettings.model_validate({})
