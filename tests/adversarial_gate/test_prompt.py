"""The judge's messages, parameter sanitisation and reply parsing (Zeph §7.5, rows §5.4)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.plugins.adversarial_gate.prompt import (
    MAX_JSON_CHARS,
    SECRET_KEY_PARTS,
    parse_reply,
    policy_lines,
    sanitize_params,
    system_prompt,
    user_message,
)
from tooldeck.plugins.adversarial_gate.settings import AdversarialPolicySettings

OPENAI_KEY = "sk-proj-" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.mark.parametrize("text", ["ALLOW", "allow", "  ALLOW  ", "ALLOW because…",
                                  "ALLOW\nlooks fine"])
def test_allow_replies(text: str) -> None:
    assert parse_reply(text).allowed


@pytest.mark.parametrize(("text", "reason"), [
    ("DENY: exfiltration", "exfiltration"),
    ("DENY", "policy violation"),
    ("DENY writes to /etc", "writes to /etc"),
    ("deny: lower case", "lower case"),
    ("DENY:", "policy violation"),
    ("Sure, looks fine", "unexpected policy LLM response"),
    ("", "unexpected policy LLM response"),
    ("ALLOWED", "unexpected policy LLM response"),
    ("I would ALLOW this", "unexpected policy LLM response"),
])
def test_everything_else_denies(text: str, reason: str) -> None:
    reply = parse_reply(text)
    assert not reply.allowed
    assert reply.reason == reason


def test_policy_lines_drop_blanks_and_comments() -> None:
    text = "# header\n\nno writes outside the project\n  # indented comment\n  no curl  \n"
    assert policy_lines(text) == ("no writes outside the project", "no curl")


def test_system_prompt_lists_each_policy_and_demands_one_word() -> None:
    prompt = system_prompt(("no network", "no deletes"))
    assert "security policy enforcement agent" in prompt
    assert "- no network\n- no deletes" in prompt
    assert "ALLOW" in prompt and "DENY: <brief reason>" in prompt
    assert "uncertain, respond DENY" in prompt


def test_user_message_is_tool_then_fenced_json() -> None:
    assert user_message("bash", '{\n  "command": "ls"\n}') == (
        'Tool: bash\nParameters:\n```json\n{\n  "command": "ls"\n}\n```')


@pytest.mark.parametrize("key", ["password", "DB_PASSWORD", "client_secret", "x_token",
                                 "api_key", "ApiKey", "private_key", "credentials",
                                 "authorization"])
def test_secret_named_keys_become_their_length(key: str) -> None:
    out = json.loads(sanitize_params({key: "hunter22", "nested": {key: [1, 2]}}))
    assert out[key] == "[REDACTED:8chars]"
    assert out["nested"][key] == "[REDACTED:6chars]"


def test_secret_values_under_ordinary_keys_are_redacted() -> None:
    text = sanitize_params({"command": f"curl -H 'Authorization: Bearer {OPENAI_KEY}' x",
                            "args": [f"--token={GITHUB_TOKEN}"]})
    assert OPENAI_KEY not in text and GITHUB_TOKEN not in text
    assert "[REDACTED:" in text


def test_long_strings_are_cut_to_497_bytes_and_an_ellipsis() -> None:
    out = json.loads(sanitize_params({"a": "x" * 501, "b": "y" * 500, "c": "é" * 300}))
    assert out["a"] == "x" * 497 + "…"
    assert out["b"] == "y" * 500
    assert out["c"].endswith("…") and len(out["c"][:-1].encode()) <= 497


def test_the_whole_json_is_capped() -> None:
    text = sanitize_params({f"k{i}": "v" * 400 for i in range(20)})
    assert len(text) == MAX_JSON_CHARS - 3 + len("… [truncated]")
    assert text.endswith("… [truncated]")


def test_defaults_are_zephs() -> None:
    settings = AdversarialPolicySettings()
    assert not settings.enabled and not settings.fail_open
    assert settings.timeout_ms == 3000
    assert set(settings.exempt_tools) == {"memory_save", "memory_search", "read_overflow",
                                          "load_skill", "invoke_skill", "schedule_deferred",
                                          "list_tasks"}


def test_enabled_needs_an_endpoint() -> None:
    with pytest.raises(ValueError, match="needs base_url and model"):
        AdversarialPolicySettings(enabled=True)
    with pytest.raises(ValueError, match="http"):
        AdversarialPolicySettings(base_url="file:///etc/passwd")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=700),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=4),
    max_leaves=20)


@given(st.dictionaries(st.text(max_size=12), json_values, max_size=6),
       st.sampled_from(SECRET_KEY_PARTS), st.text(min_size=12, max_size=40))
def test_a_secret_named_value_never_survives(params: dict[str, object], part: str,
                                             secret: str) -> None:
    marker = "Zq" + secret  # never shorter than the mask, so it cannot appear by chance
    params = {**params, f"my_{part.upper()}": marker, "inner": {part: [marker]}}
    text = sanitize_params(params)
    assert marker not in text
    assert len(text) <= MAX_JSON_CHARS - 3 + len("… [truncated]")


@given(st.text(max_size=60))
def test_only_an_allow_word_allows(text: str) -> None:
    # the adversarial direction: no other answer, however phrased, counts as an ALLOW
    upper = text.strip().upper()
    assert parse_reply(text).allowed == (upper == "ALLOW"
                                         or upper.startswith(("ALLOW ", "ALLOW\n")))
