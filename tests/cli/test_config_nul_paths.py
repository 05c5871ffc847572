"""A NUL byte in a configured path is a configuration error naming file and key (exit 2).

It used to pass validation and break the plugin that opened the path: ``[tools.file]
allowed_paths`` left the files plugin "broken" (config check said ok), the shell and audit
paths failed with a bare ``ValueError: embedded null byte`` naming neither file nor key.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.cli import main
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError

NUL = "\\u0000"  # as written in TOML


@pytest.mark.parametrize(("table", "line", "key"), [
    ("tools.file", f'allowed_paths = ["/tmp/a{NUL}b"]', "tools.file.allowed_paths.0"),
    ("tools.file", f'deny_read = ["**/x", "/tmp/a{NUL}b"]', "tools.file.deny_read.1"),
    ("tools.file", f'allow_read = ["/tmp/a{NUL}b"]', "tools.file.allow_read.0"),
    ("tools.file", 'deny_read = ["[abc"]', "tools.file.deny_read.0"),
    ("tools.shell", f'allowed_paths = ["/tmp/a{NUL}b"]', "tools.shell.allowed_paths.0"),
    ("tools.shell", f'sandbox_exempt_paths = ["/dev/null{NUL}"]',
     "tools.shell.sandbox_exempt_paths.0"),
    ("tools.shell", f'policy_dir = "/tmp/a{NUL}b"', "tools.shell.policy_dir"),
    ("tools.audit", f'path = "/tmp/a{NUL}b"', "tools.audit.path"),
])
def test_a_bad_path_setting_is_a_config_error_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, line: str, key: str
) -> None:
    config = tmp_path / "tooldeck.toml"
    config.write_text(f"[{table}]\n{line}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        Deck.from_config(config, environ={})
    assert f"{config}: {key}: Value error" in str(caught.value)
    assert main(["config", "check", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"{config}: {key}:" in err
    assert "broken" not in err
