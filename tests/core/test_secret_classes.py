"""Redaction by class (issue 12, point 11): what is a secret and what only names one.

Precision classes: a name, a type annotation, an attribute path, a parameter, a placeholder,
a filler, prose, a public key is not a value; each line below was redacted before, in the
tune half of ``bench/redaction.py`` (the project it comes from is noted). Recall classes:
URL userinfo, JWT structure, ``NAME=value`` in logs, env dumps, YAML, INI and JSON, vendor
formats (every row of the table), private key blocks, connection strings.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.secret_formats import VENDOR_FORMATS, VendorFormat, vendor_length
from tooldeck.secret_values import (
    BEARER_CHECKS,
    GENERIC_CHECKS,
    URL_CHECKS,
    name_rejection,
    value_rejection,
)
from tooldeck.secrets import find_secrets, redact, rejections

# (a line a project really has, where it is from, the check that now rejects its value)
CODE_VOCABULARY = [
    ("        credentials: GoogleCredentials | None = None,", "anthropic-sdk", "expression"),
    ("def refresh_credentials(credentials: GoogleCredentials, *, extra: str = \"vertex\")",
     "anthropic-sdk", "expression"),
    ("        api_key: _AzureApiKeyT | None,", "openai-python", "expression"),
    ("    private_key: Ed25519PrivateKey | Ed448PrivateKey", "PyJWT", "expression"),
    ("        ClientSecret: oauthClientSecret,", "cli/cli", "plain"),
    ('    request_headers = {"X-Auth-Token": "FooBarBazToken"}', "httpx", "plain"),
    ('    auth = httpx.DigestAuth(username="Mufasa", password="CircleOfLife")', "httpx",
     "plain"),
    ("    token = r\"[-!#$%&'*+.^_`|~0-9a-zA-Z]+\"", "h11", "regex"),
]
EXAMPLES_AND_FILLERS = [
    ('"on the client class, OpenAI(webhook_secret=\'123\'), or passed to this function"',
     "openai-python", "short"),
    ('// Example for binding JSON ({"user": "manu", "password": "123"})', "gin", "short"),
    ('\t\t\tToken:    "abc123",', "cli/cli", "short"),
    ('\t\tServerUrl: "http://localhost:1234?token=1234",', "cli/cli", "short"),
    ('    wantHosts: "github.com:\\n    users:\\n        monalisa:\\n'
     '            oauth_token: abc123\\n"', "cli/cli", "short"),
    ('\tenv: map[string]string{"GH_TOKEN": "gho_abc123"},', "cli/cli", "vendor-shape"),
    ("    - Token: gho_xyz456", "cli/cli", "vendor-shape"),
    ('\t\tactiveToken:  "inactive-user-2-token",', "cli/cli", "placeholder"),
    ('    url = "http://example-username:example-password@example.org/"', "httpx",
     "example-host"),
    ('        "password": "abc123@ %",', "httpx", "sequence"),
    ('    "password": "foo(b%5Dc",', "httpx (WHATWG URL tests)", "placeholder"),
    ('    assert response.json() == {"auth": "Basic dXNlcjpwYXNzd29yZDEyMw=="}', "httpx",
     "basic-placeholder"),
    ('        "authorization": "Basic dXNlcm5hbWU6cGFzc3dvcmQ=",', "httpx",
     "basic-placeholder"),
    ('    assert resp1.json() == {"auth": "Repeat 0"}', "httpx", "prose"),
    ('* Support `httpx.URL("https://www.example.com/", username="tom@gmail.com", '
     'password="123 456")`.', "httpx", "short"),
    ("app.use(cookieSession({ secret: 'manny is cool' }));", "express", "prose"),
    ("  secret: 'keyboard cat'", "express", "prose"),
    ('    "pbkdf2-password": "1.2.1",', "express", "short"),
    ('    "auth0": "types-auth0-python",', "mypy", None),  # auth0 is no secret's name
]
NOT_SECRETS_NAMES = [
    ('        "key": "Linux-node-958aff96db2d75d67787d1e634ae70b659de937b",', "cli/cli"),
    ('\t\t"key": "ssh-rsa AAAABbBB123",', "cli/cli"),
    ('PubKey{ID: "123", Key: "CDjXqf7AJBXWhMczcy+Fs7JlACEptgceysutztHaFQI="}', "cli/cli"),
    ('    sort_key = "created-2024-01-01T00:00:00Z-8f14e45f"', "(a sort key)"),
    ('    next_page_token = "CAUQAA2024x9Zq8Lm3"', "(a pagination token)"),
]
EXAMPLE_HOSTS = [
    "In such case username and password SHOULD be redacted and attribute's value SHOULD be "
    "`https://REDACTED:REDACTED@www.example.com/`",
    "`url.full` MUST NOT contain credentials passed via URL in form of "
    "`https://username:password@www.example.com/`",
    '        "https://user%20name:p%40ssword@example.com",',
    '    assert str(new) == "https://tom%40example.org:abc123%40%20%@example.org"',
]


@pytest.mark.parametrize(("line", "origin", "check"), CODE_VOCABULARY + EXAMPLES_AND_FILLERS,
                         ids=[f"{o}-{i}" for i, (_, o, _) in
                              enumerate(CODE_VOCABULARY + EXAMPLES_AND_FILLERS)])
def test_code_vocabulary_examples_and_fillers_are_not_secrets(
        line: str, origin: str, check: str | None) -> None:
    """Each line was redacted before; the check named is the class that now rejects it."""
    assert find_secrets(line) == [], origin
    assert redact(line) == line
    if check is not None:
        assert check in {r.check for r in rejections(line)}


# a service's name just before a secret's name vouches for a value of random letters ...
SERVICE_LETTERS = [
    ('smartsheet_token = "xkqprmztwvbn"', "xkqprmztwvbn"),
    ("twitch:\n  api_key: prdgwzkvujhyemavmbnaeongkstagaib", "prdgwzkvujhyemavmbnaeongkstagaib"),
    ("mailgun-cli --mailgun-api-key VBQWHXZTKMRPL", "VBQWHXZTKMRPL"),
    ('"sumoSecret": "xkqpRMztwvBN",', "xkqpRMztwvBN"),
    # ... and for a bare key's value of fewer than 16 characters
    ("[INFO] Sending request to the checkvist API\n[DEBUG] Using Key=hrLBEnXODDefY4",
     "hrLBEnXODDefY4"),
]
# ... not for words, identifiers or short values, nor without the service
SERVICE_WORDS = [
    'mailgun_api_key = "ProductionKey"',
    'twitch_token = "clientsecretvalue"',
    'mailgun_token_type = "bearer"',
    'asana_secret_name = "database"',
    'mailgun_api_key = "MAILGUN_API_KEY"',
    'zendesk_token = "xkQpRmZ"',
    'smart_token = "xkqprmztwvbn"',
    'key = "hrLBEnXODDefY4"',  # a bare key under 16 characters needs the service
    'checkvist_key = "abcdefghijkl"',  # the other checks still apply: a filler
]


@pytest.mark.parametrize(("text", "secret"), SERVICE_LETTERS)
def test_a_service_s_name_vouches_for_random_letters(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", SERVICE_WORDS)
def test_a_service_s_name_does_not_vouch_for_words(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(("line", "origin"), NOT_SECRETS_NAMES)
def test_names_that_end_in_key_or_token_but_are_not_secrets(line: str, origin: str) -> None:
    assert find_secrets(line) == [], origin
    assert {"public-name", "public-key"} & {r.check for r in rejections(line)}


@pytest.mark.parametrize("line", EXAMPLE_HOSTS)
def test_credentials_in_documentation_urls_are_examples(line: str) -> None:
    assert find_secrets(line) == []
    assert {r.check for r in rejections(line) if r.rule == "url-password"} <= {
        "example-host", "placeholder"}


@pytest.mark.parametrize(("value", "check"), [
    ("GoogleCredentials", "expression"), ("self.secret_keys[-1]", "expression"),
    ("auth[1]", "expression"), ("settings.SECRET_KEY", "expression"), ("None", "expression"),
    ("'$TOKEN'", "template"), ('"{{ vault_password }}"', "template"), ("'%s'", "template"),
    ('f"{token}"', "template"), ("/etc/app/db.pass", "path"), ("~/.ssh/id_ed25519", "path"),
    ('"********"', "mask"), ('"xxxx1234"', "mask"), ('"changeme1"', "placeholder"),
    ('"my-example-password"', "placeholder"), ("'abc12'", "short"),
    ('"keyboard cat"', "prose"), ('"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG"', "public-key"),
    ('"oauthClientSecret"', "plain"), ('"supersecretvaluehere"', "plain"),
    ('"abcdef123456"', "sequence"),
    ('"a1b2c3d4e5f6"', "sequence"), ('"gho_abc123"', "vendor-shape"),
    ('"(?:[a-z]+)"', "regex"),
])
def test_each_check_names_itself(value: str, check: str) -> None:
    assert value_rejection(value, GENERIC_CHECKS) == check


@pytest.mark.parametrize("value", [
    '"Tr0ub4dor&3x"', "'9c16a547778badcb4aecaabf6a44'", "hunter2hunter2",
    '"suXopSPCNWtvVbqQ"', "b'_5#y2L\"F4Q8z\\n\\xec]/'", "'Xk9 qLm2 Zp8'",
    '"a52a85d1-33c4-4808-8fa0-c375f3c6013a"',
])
def test_credential_shaped_values_pass_every_check(value: str) -> None:
    assert value_rejection(value, GENERIC_CHECKS) is None


def test_bearer_and_url_checks_judge_their_own_values() -> None:
    assert value_rejection("authentication", BEARER_CHECKS) == "plain"
    assert value_rejection("k7Qz93xLmP2vR8tN", BEARER_CHECKS) is None
    assert value_rejection("password", URL_CHECKS) == "placeholder"
    assert value_rejection("s3cr3tP4ss", URL_CHECKS) is None


@pytest.mark.parametrize(("name", "operator", "expected"), [
    ("key", ":", "public-name"), ('"key"', '":', "public-name"), ("Key", ">", "public-name"),
    ("key", "=", None), ("Key", ":=", None), ("sortKey", "=", "public-name"),
    ("public_key", ":", "public-name"), ("page_token", "=", "public-name"),
    ("api_key", ":", None), ("bitfinexKey", ":=", None), ("SECRET_KEY", "=", None),
])
def test_names_that_stand_for_public_things(name: str, operator: str,
                                            expected: str | None) -> None:
    assert name_rejection(name, operator) == expected


# recall classes: (text, the secret it holds)
URL_USERINFO = [
    ("DATABASE_URL=postgres://app:Zx8qLm2pWn7v@db.internal:5432/app", "Zx8qLm2pWn7v"),
    ("redis://:p4ssW0rdXk9@cache.internal:6379/0", "p4ssW0rdXk9"),
    ("amqp://svc:Q9zL2mXk8vRt@mq.internal/vhost", "Q9zL2mXk8vRt"),
    ("mongodb+srv://admin:h7Kq2Wz9Lm@cluster0.mongodb.net/db", "h7Kq2Wz9Lm"),
    ("proxy = http://me:pa55:w0rd9Z@proxy.corp:3128", "pa55:w0rd9Z"),
]
JWTS = [
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    # unsigned (alg none): header and claims only
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLTEyMyIsImFkbWluIjp0cnVlfQ.",
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiSm9lIiwic3RhdHVzIjoiZW1wbG95ZWUifQ",
    # a JWT base64-encoded once more
    "ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUl4TWpNME5UWTNPRGt3SW4wLmFiY2RlZmdoaWprbG1u",
]
NAME_VALUE = [
    ("[DEBUG] Using token=q8Zr2mKx7vLpW3tY for the request", "q8Zr2mKx7vLpW3tY"),
    ("2024-05-01 12:00:01 INFO env: API_KEY=7f3c9a1e5b2d8f4c region=eu", "7f3c9a1e5b2d8f4c"),
    ("GITHUB_TOKEN=ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
     "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("database:\n  password: 'Wq9-mZ2x!Lp8'\n  host: db", "Wq9-mZ2x!Lp8"),
    ("[smtp]\npassword = N8r4Qw2ZpX7v\nport = 587", "N8r4Qw2ZpX7v"),
    ('{"client_secret": "9c16a547778badcb4aecaabf6a44", "id": 4}',
     "9c16a547778badcb4aecaabf6a44"),
    ("config['password'] = 'Zq8mW3nR5tK1'", "Zq8mW3nR5tK1"),
    ("const token = process.env.TOKEN || 'x7Yq2LmN9pQ4rS8t';", "x7Yq2LmN9pQ4rS8t"),
    ("char password[32] = \"Hx7!q2LmZ9vW\";", "Hx7!q2LmZ9vW"),
    ('api_key = os.getenv("API_KEY", "k2Jx9WmQ7zLp4RtV")', "k2Jx9WmQ7zLp4RtV"),
    ("SECRET_KEY_BASE=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
     "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"),
    ("API_KEY_2=Lm3Qz8Wx2Kp9Rv7T", "Lm3Qz8Wx2Kp9Rv7T"),
    # random letters without a digit: mixed case alternates, one case has few vowels
    ("[DEBUG] Using Key=qscgyygcsqwdvvokslklklaasndafafxd", "qscgyygcsqwdvvokslklklaasndafafxd"),
    ('var sumoToken string = "suXopSPCNWtvVb"', "suXopSPCNWtvVb"),
    ('<add key="ClearTextPassword" value="N8r4Qw2ZpX7v" />', "N8r4Qw2ZpX7v"),
    ("curl -u deploy:Xk9fQ2mVb7pL https://ci.internal/api", "Xk9fQ2mVb7pL"),
    ("Authorization: Basic YWRtaW46VjNyeUxvbmdQNHNz", "YWRtaW46VjNyeUxvbmdQNHNz"),
    # an access id is the first half of a key pair (Sumo Logic, Alibaba Cloud)
    ("sumo:\n  accessId: suHVcCOXeYGdHU\n  accessKey: [elided]", "suHVcCOXeYGdHU"),
    ("storage.access_key_id = 'Jq8mZ2xLp9Wv4RtY'", "Jq8mZ2xLp9Wv4RtY"),
]
# a service's name, then a key-shaped value within a few words (trufflehog's keyword proximity)
SERVICE_NEARBY = [
    ("sumologic access key: Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7dEf0hIj3kLm6nOp9qRs2tUv5wXy8z",
     "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7dEf0hIj3kLm6nOp9qRs2tUv5wXy8z"),
    ("[INFO] Sending request to the redhat pyxis API\n"
     "[DEBUG] Using k3j9x2m8q1w7e5r4t6y0u3i9o2p8a1bc",
     "k3j9x2m8q1w7e5r4t6y0u3i9o2p8a1bc"),
    ("api2cart: 0a3bcd4e67ef8901f3abcd4567ef0489", "0a3bcd4e67ef8901f3abcd4567ef0489"),
    # random letters without a digit
    ("[INFO] connecting to twitch\n[DEBUG] Using bimcftxhcmgmzkypmslhgfvmszumrv",
     "bimcftxhcmgmzkypmslhgfvmszumrv"),
    ("sumologic access key: gEeFvqVrLPXZuLrAzIIccRIjQwkT", "gEeFvqVrLPXZuLrAzIIccRIjQwkT"),
]
# ... and what follows a service's name in real outputs without being its key
SERVICE_NOT_NEARBY = [
    "Pulling registry.redhat.io/ubi8/ubi@sha256:"
    "0a3bcd4e67ef8901f3abcd4567ef04890a3bcd4e67ef8901f3abcd4567ef0489",  # an image digest
    "github.com/DataDog/datadog-go v4.8.3+incompatible h1:fNGaYSuObuQb5nzeTQqowRAd9bpDIRRV4/gU"
    "tIBjh8Q=",  # a go.sum hash
    "github.com/DataDog/datadog-go v5.0.2 h1:UFatM2ZkKmXBcVPzOz1lxLYv0pNA5jyY7c7bvh3aGqw=",
    "the datadog agent version 7.45.0 supports python_3_11_compat_mode",  # an identifier
    "twitch.tv/videos/1234567890123456789012",  # a path
    "twitch streamer count 123456789012345678901234",  # a number
    "the twitch plugin supports internationalization",  # a word
    "datadog integration: ContainerOrchestrationMonitor",  # words in camel case
]
# configuration lines: the whole line is NAME=value, so a passphrase of words is a secret
CONFIG_LINES = [
    ("DB_PASSWORD=correcthorsebatterystaple", "correcthorsebatterystaple"),
    ("export SESSION_SECRET='keyboardcatsonkeys'", "keyboardcatsonkeys"),
    ("ENV API_KEY=qwpoeirutyalskdj", "qwpoeirutyalskdj"),
    ("services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=stapledhorses\n",
     "stapledhorses"),
    ("    environment:\n      POSTGRES_PASSWORD: stapledhorses\r\n", "stapledhorses"),
]
# ... and lines of code that look alike are not configuration
CODE_LIKE_CONFIG = [
    "    TOKEN=github_token,",  # a keyword argument
    "PASSWORD = password_value",  # code assigns with spaces
    "SECRET_KEY=settings.SECRET",  # an attribute path
    "GH_TOKEN=$GITHUB_TOKEN",
    "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "PAGE_TOKEN=nextpagecursor",  # a public name
    "DB_PASSWORD=changeme",  # a placeholder
    'SECRET_KEY="development key"',  # prose
    "PASSWORD_FILE=/run/secrets/db",  # the name does not end with the key word
    "db_password=correcthorsebatterystaple",  # lower case: a variable, not the environment
    "DB_PASSWORD=correcthorsebatterystaple  # and more",  # not the whole line
]
CONNECTION_STRINGS = [
    ("jdbc:mysql://db:3306/app?user=app&password=hunterfoxtrot", "hunterfoxtrot"),
    ("jdbc:sqlserver://db.corp:1433;databaseName=app;user=sa;password=correcthorse",
     "correcthorse"),
    ("jdbc:postgresql://admin:correcthorse@db.corp:5432/app", "correcthorse"),
    ("jdbc:oracle:thin:scott/tiger@db.corp:1521:orcl", "tiger"),
    ("Server=db;Database=app;User Id=sa;Password=correcthorse;", "correcthorse"),
    ("Server=db;Database=app;User Id=sa;Password=Qw8zLm2Xk9Rt;", "Qw8zLm2Xk9Rt"),
    ("jdbc:mysql://db:3306/app?user=app&password=Zx8qLm2pWn7v&ssl=true", "Zx8qLm2pWn7v"),
    ("Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;"
     "SharedAccessKey=Xk9fQ2mVb7pL3Wz8Rt5Yq1Nm6Hd4Sa0Gc2Ve7Bx9Jk=",
     "Xk9fQ2mVb7pL3Wz8Rt5Yq1Nm6Hd4Sa0Gc2Ve7Bx9Jk="),
]
PRIVATE_KEYS = [
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oLx2vkW8\n"
    "-----END EC PRIVATE KEY-----",
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0B\n"
    "-----END ENCRYPTED PRIVATE KEY-----",
    "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"rsa-key\"\nP2/56wAAAi4AAAA3aWYt\n"
    "---- END SSH2 ENCRYPTED PRIVATE KEY ----",
    "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key\nPublic-Lines: 1\n"
    "AAAAB3NzaC1yc2EAAAABJQ\nPrivate-Lines: 1\nAAABAQCq3vLm9ZxQ2\nPrivate-MAC: 5f4e3d2c1b",
]


@pytest.mark.parametrize(("text", "secret"),
                         URL_USERINFO + NAME_VALUE + CONNECTION_STRINGS + CONFIG_LINES)
def test_named_values_are_redacted(text: str, secret: str) -> None:
    assert secret in text
    assert secret not in redact(text)


@pytest.mark.parametrize(("text", "secret"), SERVICE_NEARBY)
def test_a_key_a_few_words_after_a_service_s_name(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", SERVICE_NOT_NEARBY)
def test_what_follows_a_service_s_name_without_being_its_key(text: str) -> None:
    assert find_secrets(text) == []


def test_an_encrypted_jenkins_id_is_a_secret_a_plain_one_is_not() -> None:
    assert "bdiODwPukX" not in redact("<id>{bitfinex bdiODwPukXLKUjSLvfeTlKVEwm89zqOhQ2a9}</id>")
    assert find_secrets("<id>jenkins-deploy-key-0123456789abcdef</id>") == []


@pytest.mark.parametrize(("text", "secret"), [
    # docker config.json: base64 of bob:correcthorsebattery, a password of words
    ('{"auths": {"https://index.docker.io/v1/": {"auth": "Ym9iOmNvcnJlY3Rob3JzZWJhdHRlcnk="}}}',
     "Ym9iOmNvcnJlY3Rob3JzZWJhdHRlcnk="),
    ("_auth=Ym9iOmNvcnJlY3Rob3JzZQ==", "Ym9iOmNvcnJlY3Rob3JzZQ=="),  # .npmrc, bob:correcthorse
    # Twitch documents its token validation header as "Authorization: OAuth <token>"
    ("Authorization: OAuth k3j9x2m8q1w7e5r4t6y0u3i9o2p8a1", "k3j9x2m8q1w7e5r4t6y0u3i9o2p8a1"),
])
def test_encoded_and_scheme_prefixed_credentials(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("line", CODE_LIKE_CONFIG)
def test_code_that_looks_like_configuration_is_left_alone(line: str) -> None:
    assert find_secrets(line) == []


@pytest.mark.parametrize("text", [
    "jdbc:oracle:thin:@//db.corp:1521/orcl",  # no user, no password
    "jdbc:mysql://db.corp:3306/app?useSSL=true",
    "jdbc:mysql://db.corp/app?user=app&password=${DB_PASSWORD}",
    "jdbc:mysql://db.corp/app?user=app&password=********",
    'conn = f"Server=db.corp;User Id=app;Password={password};"',  # format fields
    "Server=db.corp;Password={0};",
    "Server=db.corp;Password={db_password!r};",
])
def test_connection_strings_without_a_password_literal(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize("password", ["{Qx7;kL2m}", "{a b;c}", "{Xk92LqWz}"])
def test_a_connection_password_quoted_in_braces_is_hidden_whole(password: str) -> None:
    text = f"Driver={{ODBC Driver 18}};Server=db.corp;Uid=app;Pwd={password};Encrypt=yes"
    redacted = redact(text)
    assert redacted.endswith(";Uid=app;Pwd=[REDACTED:connection-password];Encrypt=yes")


def test_a_long_counting_filler_in_a_key_s_place_is_still_a_key() -> None:
    # short fillers stand in for a key; one as wide as the token format is a test key
    assert redact('twitch_token = "abcdef1234"') == 'twitch_token = "abcdef1234"'
    wide = "abcdefghijklmno123456789012345"
    assert wide not in redact(f"twitch_token = '{wide}'")


@pytest.mark.parametrize(("signature", "head"), [
    ("+ASt", 76), ("+ACR", 42), ("AzFu", 44), ("ACDb", 76), ("APIM", 33), ("+ASb", 33),
])
def test_azure_identifiable_keys_by_their_signature(signature: str, head: int) -> None:
    key = ("Q7xk2LmZp9" * 8)[:head] + signature + "8eneOg" + ("==" if head == 76 else "")
    assert key not in redact(f"value: {key}\n")
    assert key not in redact(f'{{"key":"{key}"}}')


@pytest.mark.parametrize("text", [
    "sha512-" + ("Q7xk2LmZp9" * 8)[:76] + "xASt8eneOg==",  # no signature
    ("Q7xk2LmZp9" * 8)[:20] + "+ASt8eneOg",  # too short to be a key
    "See +ASt in the docs",
])
def test_text_around_azure_signatures_is_not_a_key(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize("token", JWTS)
def test_jwt_structure(token: str) -> None:
    text = f"Cookie: session={token}; Path=/"
    assert [f.rule for f in find_secrets(text)] == ["jwt"]
    assert token.rstrip(".") not in redact(text)


def test_a_rejected_value_may_hold_the_next_name() -> None:
    """``token = process.env.TOKEN`` is code; the search goes on from its value."""
    text = "const token = process.env.TOKEN || 'x7Yq2LmN9pQ4rS8t';"
    assert [r.check for r in rejections(text)] == ["expression"]
    assert redact(text) == "const token = process.env.TOKEN || [REDACTED:assignment];"


def test_offsets_count_characters_not_bytes() -> None:
    text = "héllo wörld\ntoken=q8Zr2mKx7vLp ✓"
    (finding,) = find_secrets(text)
    assert text[finding.start:finding.end] == "q8Zr2mKx7vLp"
    assert finding.line == 2
    assert redact(text) == "héllo wörld\ntoken=[REDACTED:assignment] ✓"


def test_a_jwt_needs_json_in_its_header_and_claims() -> None:
    assert find_secrets("eyJub3QganNvbiBhdCBhbGw.eyJhbHNvIG5vdCBqc29u.c2ln") == []


@pytest.mark.parametrize("block", PRIVATE_KEYS)
def test_private_key_blocks(block: str) -> None:
    text = f"$ cat key\n{block}\n$ "
    assert [f.rule for f in find_secrets(text)] == ["private-key"]
    body = block.splitlines()[1 if "PuTTY" not in block else 5]
    assert body not in redact(text)


def _token(fmt: VendorFormat) -> st.SearchStrategy[str]:
    # the table's RE2 syntax is also Python's; a trailing \b is the text's business
    return st.from_regex(re.compile(fmt.pattern.replace(r"\b", "")), fullmatch=True)


@pytest.mark.parametrize("fmt", VENDOR_FORMATS, ids=[f.vendor for f in VENDOR_FORMATS])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_vendor_format_is_redacted(fmt: VendorFormat, data: st.DataObject) -> None:
    """Any token of the row's shape: its start is what the scan looks for, and it is hidden
    in an env line, in JSON and in prose."""
    token = data.draw(_token(fmt))
    assert re.match(fmt.start, token), (fmt.vendor, token)
    for text in (f"export VENDOR={token}\n", f'{{"value": "{token}"}}', f"Using {token} now"):
        assert token not in redact(text), (fmt.vendor, text)


def test_every_vendor_format_says_where_it_is_documented() -> None:
    assert all(fmt.source.strip() for fmt in VENDOR_FORMATS)
    assert len({fmt.vendor for fmt in VENDOR_FORMATS}) == len(VENDOR_FORMATS)


def test_a_token_ending_in_a_dash_at_the_end_of_a_line() -> None:
    """``\\b`` after ``-`` and before a newline is no boundary (found by the property above)."""
    token = "YC" + "0" * 37 + "-"
    assert token not in redact(f"export VENDOR={token}\n")


def test_a_vendor_prefix_alone_is_not_a_token() -> None:
    assert vendor_length("secret_key") is None
    assert find_secrets("shippo_live_ is the prefix; npm_config_cache=/tmp/x") == []


@pytest.mark.parametrize("token", [
    "AP3zzzzzzzzzzzzz",  # detect-secrets' Artifactory password shape, a filler body
    "SK" + "y" * 32,  # Twilio API key, lowercase alphanumerics
    "AC" + "0a" * 16,  # Twilio account SID
])
def test_a_vendor_shape_with_a_filler_body_is_that_vendor_s(token: str) -> None:
    """The prefix, charset and length say which vendor issued it, whatever the body."""
    assert redact(f"export TWILIO={token}\n") == "export TWILIO=[REDACTED:vendor-token]\n"


@pytest.mark.parametrize("text", [
    "APDUResponseBuilder apdu = APDUResponseBuilder.of(frame);",  # AP + a letter: a word
    "ACcessControlListEntries",  # AC + a capital
    "SK" + "y" * 33,  # one too many
])
def test_words_that_start_like_a_vendor_shape_are_not_it(text: str) -> None:
    assert find_secrets(text) == []


SECRET_TEXTS = st.sampled_from([
    *(text for text, _ in URL_USERINFO + NAME_VALUE + CONNECTION_STRINGS + CONFIG_LINES),
    *JWTS,
    *PRIVATE_KEYS, *(line for line, _, _ in CODE_VOCABULARY + EXAMPLES_AND_FILLERS),
])
JOINERS = st.sampled_from(["", " ", "\n", "=", ":", "'", '"', "[REDACTED:jwt]", "@", "://u:"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(SECRET_TEXTS, JOINERS, st.text(max_size=10)), max_size=6))
def test_redaction_leaves_nothing_to_find_and_is_idempotent(parts: list[str]) -> None:
    text = "".join(parts)
    once = redact(text)
    assert redact(once) == once
    assert find_secrets(once) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(URL_USERINFO + NAME_VALUE + CONNECTION_STRINGS + CONFIG_LINES),
                min_size=1, max_size=4), st.lists(st.text(max_size=30), max_size=4))
def test_redaction_never_increases_the_secrets_visible(
        examples: list[tuple[str, str]], noise: list[str]) -> None:
    """Secrets hidden one by one stay hidden together and among any other lines."""
    lines = [text for text, _ in examples] + noise
    redacted = redact("\n".join(lines))
    assert not [secret for _, secret in examples if secret in redacted]


# Credentials passed the way commands and HTTP clients take them, none of which a name rule
# with an operator sees (found by probing forms, not from a fixture).
_KEY = "q8Vn3Lk2Xz7RtY5pWm9Bc4Hd6Jf1Gs0A"
_UUID = "3f6b9c2e-7a1d-4e8f-b5c0-9d2a6e4f8b1c"


@pytest.mark.parametrize(("text", "secret"), [
    (f'req.Header.Set("Authorization", "Token {_KEY}")', _KEY),
    (f"conn.setRequestProperty('Authorization', 'Basic {_KEY}')", _KEY),
    (f"git clone https://{_KEY}@git.internal.net/org/repo.git", _KEY),
    (f"curl https://api.stripe.com/v1/charges -u {_KEY}:", _KEY),
    (f'curl -u "{_KEY}:" https://api.pay.net/v1/x', _KEY),
    (f"mytool deploy --token {_KEY} --region eu", _KEY),
    ("docker login --password Tr0ub4dor-horse-77 registry.local", "Tr0ub4dor-horse-77"),
    (f"gh secret set X --api-key '{_KEY}'", _KEY),
    (f"https://contoso.webhook.office.com/webhookb2/{_UUID}@{_UUID}/IncomingWebhook/"
     f"9f2c4e6a8b0d1f3e5a7c9b2d4f6e8a0c/{_UUID}", _UUID),
])
def test_credentials_given_to_commands_and_clients(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", [
    '_SIGNING_HEADERS = ("authorization", "x-amz-content-sha256", "x-amz-date")',
    "git clone https://git@github.com/org/repo.git",
    "ssh://deploy-bot-for-the-web-app@host.internal/srv",
    "mytool --token-file ~/.config/tool/token --verbose",
    "mytool --password $DB_PASSWORD",
    "curl -u user:$PASS https://x.org",
    'parser.add_argument("--token", help="the token to use")',
])
def test_what_only_looks_like_a_credential_given_to_a_command(text: str) -> None:
    assert redact(text) == text


# a literal given to a call named after the secret, and the calls that only look one up
SETTER_LITERALS = [
    ('client.setApiKey("Zq7Lk2Pm9Xc4Vb8Nn1Tr6Yw3Ue5Io0As")', "Zq7Lk2Pm9Xc4Vb8Nn1Tr6Yw3Ue5Io0As"),
    ("builder.withToken('9f8e7d6c5b4a39281706f5e4d3c2b1a0')", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ('conn.password("Qw8zLm2Xk9Rt")', "Qw8zLm2Xk9Rt"),
    ('api.set_client_secret(`osh0kjinsc2atoaqntoy1hdj`, region)', "osh0kjinsc2atoaqntoy1hdj"),
    ('auth.set_password(b"Zx8qLm2pWn7v")', "Zx8qLm2pWn7v"),  # a Python bytes literal
]
SETTER_LOOKUPS = [
    'password = get_secret("db-password-7")',
    'token = fetchToken("svc2-prod-account")',
    'assert verify_password("Qw8zLm2Xk9Rt", digest)',
    'digest = hash_password("Zx8qLm2pWn7v")',
    "user = load_credentials(path_2x)",
    "api.set_password(request.form2)",  # no literal: a call's argument
]


@pytest.mark.parametrize(("text", "secret"), SETTER_LITERALS)
def test_a_literal_given_to_a_setter_named_after_the_secret(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", SETTER_LOOKUPS)
def test_calls_that_look_a_secret_up_or_check_it_take_none(text: str) -> None:
    assert find_secrets(text) == []


@pytest.mark.parametrize("line", [
    "--- PASS: TestCmdNameCompletionInGo (0.00s)",  # go test -v
    "    --- PASS: TestRouteMatchers/Host_with_port_8080 (0.00s)",
    "PASS: tests/test_xfrm2.sh",  # automake's test driver
])
def test_a_test_runner_s_pass_line_is_no_password(line: str) -> None:
    assert redact(line) == line


def test_a_password_named_pass_is_still_one() -> None:
    assert "Qw8zLm2Xk9Rt" not in redact("pass: Qw8zLm2Xk9Rt")
    assert "Qw8zLm2Xk9Rt" not in redact("PASS=Qw8zLm2Xk9Rt")


@pytest.mark.parametrize("value", [
    "wvaxrxzyuakasiqxoaegcahalerorgdj",  # vowels like words, pairs like nothing
    "QMZJXKWRTVBPLHSNDYCGFU",
])
def test_random_letters_of_one_case_are_a_key_even_with_vowels(value: str) -> None:
    assert value not in redact(f'api_key = "{value}"')
    assert value not in redact(f"abstract: {{ api_key: {value} }}")


@pytest.mark.parametrize("value", [
    "supersecretpasswordforproduction", "proxyauthorizationvalue", "correcthorsebatterystaple",
    "JSONWEBTOKENSECRETVALUE",
])
def test_words_run_together_are_not_random_letters(value: str) -> None:
    assert redact(f'api_key = "{value}"') == f'api_key = "{value}"'


@pytest.mark.parametrize("text", [
    "the token expired yesterday; pass it to refresh_tokens_2024 later",
    "err_msg += ' To generate valid datetimes, pass `dtype=\"datetime64[ns]\"`'",
    'raise ValueError("invalid token " + token_value_from_request)',
    "secret santa 2024 drawing",
    "password reset_link_expired_after_24h",
])
def test_prose_after_a_secret_s_name_is_not_its_value(text: str) -> None:
    assert find_secrets(text) == []
