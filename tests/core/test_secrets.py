"""Secret detection and redaction (core/secrets.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.secrets import SECRET_RULES, find_secrets, redact

PEM_BODY = (
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDg3Ud0pPkZ8DfyNP0x2e1Z6Kk0Yb4J7lI2xR9Qm1vBxwAAAJgK9eX9CvXl\n"
)
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ikpv"
    "aG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

# rule, text around the secret, the secret itself
EXAMPLES: list[tuple[str, str, str]] = [
    ("private-key", "cat ~/.ssh/id_ed25519\n{}\n$ ",
     "-----BEGIN OPENSSH PRIVATE KEY-----\n" + PEM_BODY + "-----END OPENSSH PRIVATE KEY-----"),
    ("private-key", "key.pem:\n{}",
     "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9\n-----END RSA PRIVATE KEY-----"),
    ("private-key", "{}",
     "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0\n-----END PGP PRIVATE KEY BLOCK-----"),
    ("aws-access-key-id", "aws configure set aws_access_key_id {} --profile ci",
     "AKIAIOSFODNN7EXAMPLE"),
    ("github-token", "git clone https://{}@github.com/acme/infra.git",
     "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("github-token", "gh auth login --with-token < {}",
     "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"),
    ("gitlab-token", "curl --header \"PRIVATE-TOKEN {}\" https://gitlab.example.com/api/v4",
     "glpat-xY7zQ2wR9tV4uS1pK8mN"),
    ("slack-token", "SLACK says: invalid_auth for {}",
     "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("anthropic-key", "using key {} for claude",
     "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_aBcD"),
    ("openai-key", "openai.api_key set from env: {}",
     "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"),
    ("google-api-key", "https://maps.googleapis.com/maps/api/geocode/json?key {}",
     "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
    ("stripe-key", "stripe login --api-key {}", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("jwt", "Set-Cookie: session {}; HttpOnly", JWT),
    ("bearer-token", "curl -H 'Authorization: Bearer {}' https://api.example.com",
     "abc123456789"),
    ("url-password", "psql postgres://admin:{}@db.internal:5432/app", "s3cr3tP4ss"),
    ("assignment", "export DB_PASSWORD={}", "hunter2hunter2"),
    ("assignment", "client_secret: {}", "'6f1e0c9b-ab12-4d3e'"),
    ("assignment", 'DB_PASSWORD="{}"', "correct horse battery staple"),
    ("assignment", "{{\"api_key\": \"{}\", \"region\": \"eu\"}}", "k3y with spaces"),
]


def test_every_rule_has_an_example() -> None:
    assert {rule for rule, _, _ in EXAMPLES} == {name for name, _ in SECRET_RULES}


@pytest.mark.parametrize(("rule", "context", "secret"), EXAMPLES,
                         ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(EXAMPLES)])


def test_rule_finds_and_hides_its_secret(rule: str, context: str, secret: str) -> None:
    text = context.format(secret)
    findings = find_secrets(text)
    assert [f.rule for f in findings] == [rule]
    redacted = redact(text)
    assert secret not in redacted
    assert secret.strip("'\"").split()[0] not in redacted
    assert f"[REDACTED:{rule}]" in redacted
    # the readable part (a key name, a scheme) stays
    assert redacted.startswith(context.split("{")[0][:8])


def test_findings_have_offsets_and_line_numbers() -> None:
    text = "line one\nexport TOKEN=abcdef123456\nx"
    (finding,) = find_secrets(text)
    assert text[finding.start:finding.end] == "abcdef123456"
    assert finding.line == 2


def test_a_private_key_cut_before_its_end_line_is_hidden_to_the_end() -> None:
    text = "$ head -3 id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9\nqT0x"
    redacted = redact(text)
    assert redacted == "$ head -3 id_rsa\n[REDACTED:private-key]"


def test_overlapping_findings_hide_their_union() -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    text = f"TOKEN={token}.Zq9-tail rest"
    redacted = redact(text)
    assert "Zq9-tail" not in redacted and token not in redacted
    assert redacted.endswith(" rest")


def test_several_secrets_in_one_text() -> None:
    text = "a=1 password=hunter2hunter2 b=2 Bearer abcdefgh12345678 c=3"
    assert redact(text) == (
        "a=1 password=[REDACTED:assignment] b=2 Bearer [REDACTED:bearer-token] c=3"
    )


ORDINARY = [
    "git status --short",
    "ls -la /home/user/projects/tooldeck",
    "cargo test --workspace -- --nocapture",
    "git log --oneline -n 2\n8715a0d core: hookspecs, models, taxonomy\n3f2a1b9 fix: refresh race",
    "commit 8715a0d533beb793eaa5bfdee841c969acd14b5f\nAuthor: Dev <dev@example.com>",
    "diff --git a/core/secrets.py b/core/secrets.py\nindex e9af06c..d2dc946 100644",
    "docker run -e PORT=8080 -p 8080:8080 registry.example.com/app:1.2.3",
    "curl -fsSL https://example.com/install.sh | sh",
    "ssh git@github.com -p 22",
    "pip install scikit-learn==1.4.0 'requests>=2.31'",
    "export PATH=/usr/local/bin:$PATH",
    "grep -rn 'TODO' src/ | head -20",
    "pytest -k 'test_token_expiry' -q",
    "kubectl get pods -n kube-system -o wide",
    "sha256sum dist/tooldeck-0.1.0.tar.gz",
    "https://user@example.com/path?page=2",
    "if token is None: raise ValueError('missing token')",
    "/var/lib/secrets/README.md",
    "secret=\"\"",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_developer_text_is_left_alone(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == text


SECRETISH = st.sampled_from([
    *(context.format(secret) for _, context, secret in EXAMPLES),
    "password", "=", ":", "\"", "'", " ", "\n", "Bearer ", "://u:", "@", "sk-", "ghp_",
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "eyJ", ".",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(SECRETISH, st.text(max_size=12)), max_size=8).map("".join))
def test_redact_never_raises_and_is_idempotent(text: str) -> None:
    once = redact(text)
    assert redact(once) == once


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_redact_of_arbitrary_text(text: str) -> None:
    once = redact(text)
    assert redact(once) == once
    assert (once == text) is (find_secrets(text) == [])


SEPARATOR = st.sampled_from([" ", "\n", "\t", " ; "])
NOISE = st.text(alphabet=st.characters(codec="ascii", exclude_characters="\"'=:"), max_size=20)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(EXAMPLES), NOISE, SEPARATOR, SEPARATOR, NOISE)
def test_a_known_secret_is_hidden_in_any_surroundings(
    example: tuple[str, str, str], before: str, sep1: str, sep2: str, after: str
) -> None:
    _rule, context, secret = example
    text = before + sep1 + context.format(secret) + sep2 + after
    redacted = redact(text)
    core = secret.strip("'\"").split()[0]
    assert core not in redacted
