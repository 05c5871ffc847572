"""``tooldeck check url``: the command object in-process, and the installed console script.

In-process tests plug the command into the real CLI parser (so ``--config`` and ``--json``
come from the global options) and inject a scripted resolver for ``--resolve``. Subprocess
tests run ``tooldeck check url`` itself once the ``tooldeck.checks`` entry point ``url`` is
installed, resolving only ``localhost`` (from the hosts file).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tooldeck.cli import build_parser
from tooldeck.errors import ConfigError
from tooldeck.plugins.web.cli import CheckUrlCommand, check_url_command

TOOLDECK = shutil.which("tooldeck", path=str(Path(sys.executable).parent)) or "tooldeck"
Check = Callable[..., tuple[int, Any]]


def write_config(directory: Path, scrape: str = 'allow_internal = ["127.0.0.2"]') -> Path:
    path = directory / "tooldeck.toml"
    path.write_text(f'[tools.audit]\npath = "{directory / "audit.jsonl"}"\n\n'
                    f"[tools.scrape]\n{scrape}\n")
    return path


@pytest.fixture
def check(tmp_path: Path, capsys: pytest.CaptureFixture[str],
          script_dns: Any) -> Check:
    """Run ``tooldeck check url ARGS`` in-process; returns (exit code, JSON or text output)."""
    resolver = script_dns({
        "site.test": [["127.0.0.2"]],
        "rebind.test": [["93.184.216.34", "10.0.0.1"]],
        "public.test": [["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]],
    })

    def run(*args: str, config: Path | None = None, as_json: bool = True) -> tuple[int, Any]:
        parser = build_parser(commands={}, checks={"url": CheckUrlCommand(resolver)})
        argv = ["check", "url", *args, "--config", str(config or write_config(tmp_path))]
        parsed = parser.parse_args([*argv, "--json"] if as_json else argv)
        code = parsed.extension.run(parsed)
        out = capsys.readouterr().out
        return code, json.loads(out) if as_json else out

    return run


def test_entry_point_object_is_a_command() -> None:
    assert isinstance(check_url_command, CheckUrlCommand)
    assert "nothing is fetched" in check_url_command.help


def test_allowed_ip_literal_shows_its_address(check: Check) -> None:
    code, out = check("https://127.0.0.2:8443/x")
    assert isinstance(out.pop("policy"), str)
    assert (code, out) == (0, {
        "verdict": "allow", "reason": "IP literal passes every rule", "rule": None,
        "url": "https://127.0.0.2:8443/x", "addresses": ["127.0.0.2"], "source": "builtin",
    })


def test_a_domain_list_denial_names_the_file_it_came_from(check: Check, tmp_path: Path) -> None:
    config = tmp_path / "lists.toml"
    config.write_text('[tools.scrape]\ndenied_domains = ["*.evil.com"]\n')
    out = check("https://a.evil.com/", config=config)[1]
    assert (out["verdict"], out["rule"], out["source"]) == ("deny", "denylist", str(config))


def test_host_name_without_resolve_has_no_addresses(check: Check) -> None:
    code, out = check("https://example.com/a?b=c")
    assert code == 0
    policy = out.pop("policy")
    assert out == {"verdict": "allow", "reason": "passes every static rule (not resolved)",
                   "rule": None, "url": "https://example.com/a?b=c", "addresses": None,
                   "source": "builtin"}
    assert isinstance(policy, str) and len(policy) == 16


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("https://169.254.169.254/latest/meta-data/", "cloud-metadata"),
        ("http://example.com/", "scheme"),
        ("https://127.0.0.1/", "loopback"),
        ("https://2130706433/", "loopback"),
        ("https://intranet/", "single-label-host"),
    ],
)
def test_denied_urls_exit_zero_and_name_the_rule(check: Check, url: str, rule: str) -> None:
    code, out = check(url)
    assert code == 0
    assert (out["verdict"], out["rule"], out["url"], out["addresses"]) == ("deny", rule, None,
                                                                          None)
    assert out["reason"].startswith(f"blocked by rule '{rule}': ")


def test_resolve_admits_every_address(check: Check) -> None:
    code, out = check("https://public.test/", "--resolve")
    assert code == 0
    assert out["verdict"] == "allow"
    assert out["addresses"] == ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]
    assert out["reason"] == "passes every static rule and every resolved address is admitted"


def test_resolve_uses_allow_internal_addresses(check: Check) -> None:
    assert check("https://site.test/", "--resolve")[1]["addresses"] == ["127.0.0.2"]


def test_resolve_refuses_a_host_with_one_private_address(check: Check) -> None:
    code, out = check("https://rebind.test/", "--resolve")
    assert code == 0
    assert (out["verdict"], out["rule"], out["addresses"]) == ("deny", "private", None)
    assert "rebind.test resolves to private-use address 10.0.0.1" in out["reason"]


def test_resolution_failure_is_a_deny_without_rule(check: Check) -> None:
    code, out = check("https://unknown.test/", "--resolve")
    assert code == 0
    assert (out["verdict"], out["rule"]) == ("deny", None)
    assert "DNS resolution failed for unknown.test" in out["reason"]


def test_settings_come_from_the_config(check: Check, tmp_path: Path) -> None:
    config = write_config(tmp_path, 'denied_domains = ["*.evil.com"]')
    assert check("https://a.evil.com/", config=config)[1]["rule"] == "denylist"
    assert check("https://127.0.0.2/", config=config)[1]["rule"] == "loopback"


def test_text_output(check: Check) -> None:
    code, out = check("https://127.0.0.2/", as_json=False)
    assert code == 0
    assert out == ("verdict: allow\nreason: IP literal passes every rule\n"
                   "url: https://127.0.0.2/\naddresses: 127.0.0.2\n")
    code, out = check("https://169.254.169.254/", as_json=False)
    assert out == ("verdict: deny\nreason: blocked by rule 'cloud-metadata': cloud metadata "
                   "endpoint 169.254.169.254\n")


def test_invalid_settings_are_a_config_error(check: Check, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"tools\.scrape\.timeout"):
        check("https://example.com/", config=write_config(tmp_path, 'timeout = "soon"'))


def test_disabled_web_plugin_is_a_config_error(check: Check, tmp_path: Path) -> None:
    config = tmp_path / "disabled.toml"
    config.write_text('[plugins]\ndisable = ["web"]\n')
    with pytest.raises(ConfigError, match="the web plugin is disabled"):
        check("https://example.com/", config=config)


# --- the installed command ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def installed() -> None:
    """The installed ``tooldeck`` offers ``check url`` (a broken install fails, never skips)."""
    top = subprocess.run([TOOLDECK, "--help"], capture_output=True, text=True, timeout=60)
    kinds = subprocess.run([TOOLDECK, "check", "--help"], capture_output=True, text=True,
                           timeout=60) if " check " in top.stdout else None
    if kinds is None or "url" not in kinds.stdout:
        pytest.fail("`tooldeck --help` lists no `check url`: the entry point "
                    '`url = "tooldeck.plugins.web.cli:check_url_command"` in group '
                    "`tooldeck.checks` is not installed")


def tooldeck(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLDECK, *args], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


@pytest.mark.usefixtures("installed")
def test_cli_deny_is_exit_zero_json(in_tmp: Path) -> None:
    proc = tooldeck("check", "url", "https://169.254.169.254/", "--json", cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["verdict"], out["rule"], out["addresses"]) == ("deny", "cloud-metadata", None)


@pytest.mark.usefixtures("installed")
def test_cli_allow_text_with_config(in_tmp: Path) -> None:
    config = write_config(in_tmp)
    proc = tooldeck("check", "url", "https://127.0.0.2/", "--config", str(config), cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("verdict: allow\n")
    assert "addresses: 127.0.0.2" in proc.stdout


@pytest.mark.usefixtures("installed")
def test_cli_resolve_uses_the_system_resolver(in_tmp: Path) -> None:
    # localhost comes from the hosts file: no DNS query leaves the machine.
    config = write_config(in_tmp, 'allow_internal = ["localhost"]')
    proc = tooldeck("check", "url", "https://localhost:8443/", "--resolve", "--json",
                    "--config", str(config), cwd=in_tmp)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["verdict"] == "allow"
    assert "127.0.0.1" in out["addresses"]
    unresolved = json.loads(tooldeck("check", "url", "https://localhost:8443/", "--json",
                                     "--config", str(config), cwd=in_tmp).stdout)
    assert unresolved["addresses"] is None


@pytest.mark.usefixtures("installed")
def test_cli_config_error_is_exit_two(in_tmp: Path) -> None:
    config = write_config(in_tmp, "timeout = -1")
    proc = tooldeck("check", "url", "https://example.com/", "--config", str(config), cwd=in_tmp)
    assert proc.returncode == 2
    assert "tools.scrape.timeout" in proc.stderr
