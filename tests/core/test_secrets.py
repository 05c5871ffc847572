"""Secret detection and redaction (core/secrets.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.secrets import SECRET_RULES, find_secrets, redact, redact_found

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
    ("aws-secret-access-key", "[default]\naws_secret_access_key = {}\nregion = eu-west-1",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("github-token", "git clone https://{}@github.com/acme/infra.git",
     "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("github-token", "gh auth login --with-token < {}",
     "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"),
    ("gitlab-token", "curl --header \"PRIVATE-TOKEN {}\" https://gitlab.example.com/api/v4",
     "glpat-xY7zQ2wR9tV4uS1pK8mN"),
    ("slack-token", "SLACK says: invalid_auth for {}",
     "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("slack-webhook", "curl -X POST -d @msg.json {}",
     "https://hooks.slack.com/services/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"),
    ("huggingface-token", "huggingface-cli login --token {}",
     "hf_" + "AbCdEfGhIj" * 3 + "KlMn"),
    ("npm-token", "//registry.npmjs.org/:_authToken={}", "npm_" + "a1b2C3d4E5" * 3 + "f6g7h8"),
    ("pypi-token", "twine upload -u __token__ -p {} dist/*",
     "pypi-AgEIcHlwaS5vcmcCJGE3ZmFkNTI0LTk4ZTUtNDNkZC05YzA1LWQxNTk4MmE3NGUxYwACKlsz"),
    ("sendgrid-api-key", "SENDGRID_API_KEY={}",
     "SG." + "ngeVfQFYQlKU0ufo8x5d1A" + "." + "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"),
    ("twilio-api-key", "twilio api:core:keys:create -> sid {}", "SK" + "0123456789abcdef" * 2),
    ("digitalocean-token", "doctl auth init -t {}", "dop_v1_" + "0123456789abcdef" * 4),
    ("shopify-token", "curl -H 'X-Shopify-Access-Token: {}' https://shop.example/admin",
     "shpat_" + "0123456789abcdef" * 2),
    ("azure-storage-key",
     "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={};"
     "EndpointSuffix=core.windows.net",
     "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq"
     "/K1SZFPTOtr/KBHBeksoGMGw=="),
    ("azure-identifiable-key", "docker login acme.azurecr.io -u acme -p {}",
     "Zk3mQx9Lp2Wr8Tn4Vb6Yc1Hd5Js7Gf0Ka2Qm8Xr4Lp+ACRbD7kQ2"),
    ("azure-identifiable-key", '"primaryKey": "{}"',
     "gJWrPjRsHLHYvKsDMUcUg6OMvxiltlOax3LbYdTqKPicEaTb31toX6KfGlITPCOwChDqio1UyIAtAzFu8eneOg=="),
    ("anthropic-key", "using key {} for claude",
     "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_aBcD"),
    ("openai-key", "openai.api_key set from env: {}",
     "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"),
    ("google-api-key", "https://maps.googleapis.com/maps/api/geocode/json?key {}",
     "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
    ("stripe-key", "stripe login --api-key {}", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("stripe-key", "export STRIPE_KEY={}", "sk_test_" + "51HqLyjWDarjtT1zdp7dcABC"),
    ("jwt", "Set-Cookie: session {}; HttpOnly", JWT),
    ("bearer-token", "curl -H 'Authorization: Bearer {}' https://api.example.com",
     "k7Qz93xLmP2vR8tN"),
    ("authorization-header", "Authorization: Basic {}", "YWRtaW46VjNyeUxvbmdQNHNz"),
    ("curl-user", "curl -u deploy:{} https://ci.internal/api", "Xk9fQ2mVb7pL"),
    ("authorization-argument", 'req.Header.Set("Authorization", "Token {}")',
     "k7Qz93xLmP2vR8tN"),
    ("curl-user-token", "curl https://api.pay.net/v1/charges -u {}:",
     "rk9Qz3xLmP2vR8tNw4Yb6Hc1"),
    ("url-token", "git clone https://{}@git.corp.net/org/app.git", "q8Vn3Lk2Xz7RtY5pWm9Bc4Hd"),
    ("teams-webhook", "curl -d @msg.json https://corp.webhook.office.com/webhookb2/{}",
     "3f6b9c2e-7a1d-4e8f-b5c0-9d2a6e4f8b1c@3f6b9c2e-7a1d-4e8f-b5c0-9d2a6e4f8b1c"),
    ("option-value", "mytool deploy --api-token {} --region eu", "Xk9fQ2mVb7pLw3"),
    ("xml-setting", '<add key="ClearTextPassword" value="{}" />', "N8r4Qw2ZpX7v"),
    ("service-assignment", "railway = '{}'", "a52a85d1-33c4-4808-8fa0-c375f3c6013a"),
    ("vendor-prefix", "PLANETSCALE_PW={}", "pscale_pw_" + "X9Z8Y7W6V5U4T3S2"),
    ("url-password", "psql postgres://admin:{}@db.internal:5432/app", "s3cr3tP4ss"),
    ("connection-password", "jdbc:sqlserver://db.corp:1433;user=sa;password={};encrypt=true",
     "tigerlily"),
    ("connection-password", "Server=db.corp;User Id=sa;Password={};", "{Qx7;kL2m!}"),
    ("connection-userinfo", "jdbc:oracle:thin:scott/{}@db.corp:1521:orcl", "tiger"),
    ("spaced-value", "[INFO] connecting to agora with api-key {}\n",
     "t4fvhjrxugpzulenpf4afd0f8emb4cy3"),
    ("spaced-value", "export: using token {} for the upload", "ghx9Kq2LmZp8Wr4Tn6Vb"),
    ("config-line", "export DB_PASSWORD={}\n", "correcthorsebatterystaple"),
    ("assignment", "export DB_PASSWORD={}", "hunter2hunter2"),
    ("assignment", "password = '{}'", "Tr0ub4dor&3x"),
    ("assignment", "SECRET_KEY = {}", "django-insecure-8x#k2m9q"),
    ("assignment", "client_secret: {}", "'6f1e0c9b-ab12-4d3e'"),
    ("assignment", 'DB_PASSWORD="{}"', "k9$Qm2 Lx7!pW"),
    ("assignment", "{{\"api_key\": \"{}\", \"region\": \"eu\"}}", "7f3c9a1e5b2d8f4c"),
    ("assignment", "config['password'] = {}", "'Zq8mW3nR5tK1'"),
    ("assignment", "  secret_key_base: {}", "9f86d081884c7d659a2feaa0c55ad015a3"),
    ("assignment", "app.secret_key = {}", "b'_5#y2L\"F4Q8z\\n\\xec]/'"),
    ("assignment", 'adafruitToken := "{}"', "9-esefvt7k7uz-upn25w30xju_em153w"),
    ("assignment", 'var lookerToken string = "{}"', "ar6ybta3zazwxpv0gtoty76f"),
    ("assignment", "<facebookToken>\n    {}\n</facebookToken>", "9c16a547778badcb4aecaabf6a44"),
    ("assignment", 'bittrex_TOKEN ?= "{}"', "gxxtjvrdyvqrdv3p012hmh4se417wsk3"),
    ("key-assignment", 'bitfinexKey := "{}"', "HxfuG198amaeCcYkASkto5VuIO-oXcplDV6"),
    ("key-assignment", "[DEBUG] Using Key={}", "qscgyygcsq-wdvvok7slklklaasnd8afafxd"),
    ("jenkins-credential", "<password>{{{}}}</password>",
     "AQAAABAAAAAQrJ1c3V0Zmx5cG9ydDEyMzQ1Njc4OTA="),
    ("property-call", 'System.setProperty("FASTLY_TOKEN", {})', '"oj5fejtc0i857lulpz7nl3p0k"'),
    ("property-call", "os.environ.setdefault('OPENAI_API_KEY', {})", "'x7Yq2LmN9pQ4rS8t'"),
    ("webex-bot-token", "WEBEX_BOT={}",
     "Zm9vYmFyYmF6" * 5 + "Qx7k_Ab3d_9f8e7d6c-1a2b-3c4d-5e6f-0a1b2c3d4e5f"),
    ("cloudinary-url", "CLOUDINARY_URL=cloudinary://{}@acme-media",
     "483726159204857:Xk2_v9Lq-Pz7mR4tY8uW1sD6fG0"),
    ("cloudinary-key", "[DEBUG] cloudinary api key {} (cloud acme)", "483726159204857"),
    ("npmrc-token", "//npm.pkg.github.com/:_authToken={}\n", "npm_xxxxxxxxxxxx"),
    ("service-nearby", "[INFO] sending request to the twitch API with {}\n",
     "k3j9x2m8q1w7e5r4t6y0u3i9o2p8a1"),
    ("discord-bot-token", "client.run('{}')",
     "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs"),
    ("vendor-token", "docker login -u me -p {}", "dckr_pat_2b3e36beeb386dfdaacb9b46004"),
    ("vendor-token", "export VAULT_TOKEN={}", "hvs.CAESIJ1bQ3l2a0x5Z0t9ZXhhbXBsZTk"),
    ("vendor-token", "mailgun: {}", "key-4eee348468ced3aeb96b3b04d9b97ba7"),
    ("vendor-token", "square {}", "sq0atp-X7JY-kjXSrH1OLy7X-7Cnm53"),
    ("vendor-token", "telegram bot: {} (BotFather)",
     "7213808860:AAH1bjqpKKW3maRSPAxzIU-0v6xNuq2-NjM"),
    ("vendor-token", "mailchimp {}", "343ea45721923ed956e2b38c31db76aa-us30"),
]


def test_every_rule_has_an_example() -> None:
    assert {rule for rule, _, _ in EXAMPLES} == {rule.rule_id for rule in SECRET_RULES}


def test_every_rule_id_is_unique() -> None:
    ids = [rule.rule_id for rule in SECRET_RULES]
    assert len(ids) == len(set(ids))


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
    text = "line one\nexport TOKEN=q8Zr2mKx7vLp\nx"
    (finding,) = find_secrets(text)
    assert text[finding.start:finding.end] == "q8Zr2mKx7vLp"
    assert finding.line == 2


@pytest.mark.parametrize(("rule", "context", "secret"), EXAMPLES,
                         ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(EXAMPLES)])
def test_the_warning_names_kind_and_line_never_the_value(
    rule: str, context: str, secret: str
) -> None:
    text = "config loaded\n" + context.format(secret)
    (finding,) = find_secrets(text)
    warning = finding.warning()
    assert warning.startswith(f"possible secret on line {finding.line}: ")
    assert warning.endswith(f"({rule}); the value is redacted")
    core = secret.strip("'\"").split()[0]
    assert core not in warning and core not in repr(finding)


def test_a_value_cut_out_of_its_context_is_still_hidden() -> None:
    raw = ("writing key\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4UbaDzY5xjW9Jz0\n"
           "-----END RSA PRIVATE KEY-----\ndone")
    body_only = "... (1 lines omitted) ...\nMIIEowIBAAKCAQEAx4UbaDzY5xjW9Jz0\ndone"
    assert find_secrets(body_only) == []
    assert redact_found(body_only, raw, find_secrets(raw)) == (
        "... (1 lines omitted) ...\n[REDACTED:private-key]\ndone"
    )


def test_lone_surrogates_do_not_break_detection() -> None:
    text = "bad byte \udc80 then token=q8Zr2mKx7vLp"
    assert redact(text) == "bad byte \udc80 then token=[REDACTED:assignment]"


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
    text = "a=1 password=hunter2hunter2 b=2 Bearer k7Qz93xLmP2vR8tN c=3"
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
    # false positives seen on source code and command lines the agent reads
    "python train.py --max_tokens=4096 --lr=3e-4",
    "def login(user: str, password: str) -> bool:",
    "password_file = /etc/app/db.pass",
    "token: Optional[str] = None",
    "SECRET_KEY = os.environ['SECRET_KEY']",
    "password = get_password(user_id)",
    "api_key=os.getenv('OPENAI_API_KEY')",
    "tokens = tokenizer(text, max_length=512)",
    "Bearer authentication is required (RFC 6750)",
    "secret: Permission denied",
    # code read from real projects (issue 12, point 11): expressions, attribute paths,
    # annotations, placeholders in docs, PEM markers without a key
    "        return self.secret_keys[-1]",
    "    secret_key = self.secret_keys[-1]",
    "    return BasicAuth(username=auth[0], password=auth[1])",
    "    token = b64encode(userpass).decode()",
    "    token = token[:-1]",
    "        secret = keypair[:32]",
    "    private_key: PKCS7PrivateKeyTypes,",
    "    AttributeOID.CHALLENGE_PASSWORD: \"challengePassword\",",
    "    user = User(username='scolvin', password='password1')",
    '    url = httpx.URL("https://jo%40email.com:a%20secret@example.org:1234/path")',
    "e.g. `pass` in `https://user:pass@host:port/path?query#fragment`",
    "m = MyDatabaseModel(db='postgres://user:pass@localhost:5432/foobar')",
    "mhu = MultiHostUrl('https://foo.com:123,foo:bar@bar.com/path')",
    '_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"',
    "#   token          = 1*tchar",
    '    Token:                     "#f8f8f2", # class:  \'\'',
    'username="jo@gmail.com", password="a secret"',
    # a key word ending one line is not assigned the next line (grep -n output)
    "src/requests/sessions.py:365:        if username and password:\n"
    "src/requests/sessions.py:366:            headers[\"Proxy-Authorization\"] = x",
    "if token:\n    return a1b2c3d4e5",
    # placeholders and paths
    "password: ********",
    "token=$GITHUB_TOKEN",
    "api_key=<your key>",
    "password={{ vault_password }}",
    "client_secret: %s",
    "private_key: ~/.ssh/id_ed25519",
    # near misses of the prefixed families
    "AKIA1234 is too short",
    "ghp_short",
    "pip install sk-learn hf_transfer",
    "eyJhbGciOiJIUzI1NiJ9 alone is a header, not a token",
    "SKU 12 in stock",
    "https://hooks.slack.com/services/",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    "npm_config_cache=/tmp/npm-cache npm ci",
    "pypi-AgEshort is not a token",
    "SG.abc.def",
    "AccountKey=abc==",
    "doctl auth init --context dop_v1_short",
    "shpat_xyz",
    "hf_hub_download(repo_id='gpt2')",
    "aws_secret_access_key = ${AWS_SECRET}",
    "Authorization: Bearer $TOKEN",
    "postgres://app@localhost:5432/app",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx (a header and the start of a payload)",
    "xoxb-short",
    "glpat-short",
    "AIzaShort",
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
@given(st.sampled_from([e for e in EXAMPLES if e[0] != "config-line"]), NOISE, SEPARATOR,
       SEPARATOR, NOISE)
def test_a_known_secret_is_hidden_in_any_surroundings(
    example: tuple[str, str, str], before: str, sep1: str, sep2: str, after: str
) -> None:
    _rule, context, secret = example
    text = before + sep1 + context.format(secret) + sep2 + after
    redacted = redact(text)
    core = secret.strip("'\"").split()[0]
    assert core not in redacted


@settings(max_examples=100, deadline=None)
@given(st.lists(NOISE, max_size=3), st.lists(NOISE, max_size=3), st.sampled_from(["\n", "\r\n"]))
def test_a_configuration_line_is_hidden_among_any_lines(
    above: list[str], below: list[str], newline: str
) -> None:
    """``config-line`` takes whole lines only (see the property above for the other rules)."""
    line = "export DB_PASSWORD=correcthorsebatterystaple"
    text = newline.join([*above, line, *below])
    assert "correcthorsebatterystaple" not in redact(text)
