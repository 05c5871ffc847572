"""classify_http_status, classify_io_error (on real OS errors) and classify_shell_exit."""

from __future__ import annotations

import errno
import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tooldeck.errors import (
    ErrorCategory,
    classify_http_status,
    classify_io_error,
    classify_shell_exit,
)

C = ErrorCategory


@pytest.mark.parametrize(
    ("status", "category"),
    [
        (400, C.INVALID_PARAMETERS),
        (422, C.INVALID_PARAMETERS),
        (401, C.POLICY_BLOCKED),
        (403, C.POLICY_BLOCKED),
        (429, C.RATE_LIMITED),
        (500, C.SERVER_ERROR),
        (503, C.SERVER_ERROR),
        (599, C.SERVER_ERROR),
        (404, C.PERMANENT_FAILURE),
        (410, C.PERMANENT_FAILURE),
        (200, C.PERMANENT_FAILURE),
        (302, C.PERMANENT_FAILURE),
        (499, C.PERMANENT_FAILURE),
        (600, C.PERMANENT_FAILURE),
    ],
)


def test_classify_http_status(status: int, category: ErrorCategory) -> None:
    assert classify_http_status(status) is category


def _caught(action: Callable[[], object]) -> OSError:
    try:
        action()
    except OSError as exc:
        return exc
    raise AssertionError("the operation was expected to fail")


def test_connection_refused_on_a_closed_local_port_is_network_error() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The port was bound and released: nothing listens on it now.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as client:
        exc = _caught(lambda: client.connect(("127.0.0.1", port)))
    assert isinstance(exc, ConnectionRefusedError)
    assert classify_io_error(exc) is C.NETWORK_ERROR


def test_missing_file_is_permanent_failure_not_tool_not_found(tmp_path: Path) -> None:
    exc = _caught(lambda: (tmp_path / "missing.txt").open())
    assert isinstance(exc, FileNotFoundError)
    assert classify_io_error(exc) is C.PERMANENT_FAILURE


def test_unreadable_file_is_policy_blocked(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("x")
    secret.chmod(0)
    try:
        if os.geteuid() == 0:  # root bypasses permission checks: build the error the OS gives
            exc: OSError = PermissionError(errno.EACCES, "Permission denied", str(secret))
        else:
            exc = _caught(lambda: secret.open())
    finally:
        secret.chmod(0o600)
    assert isinstance(exc, PermissionError)
    assert classify_io_error(exc) is C.POLICY_BLOCKED


def test_receive_timeout_is_timeout() -> None:
    left, right = socket.socketpair()
    with left, right:
        left.settimeout(0.01)
        exc = _caught(lambda: left.recv(1))
    assert isinstance(exc, TimeoutError)
    assert classify_io_error(exc) is C.TIMEOUT


def test_writing_to_a_closed_peer_is_network_error() -> None:
    left, right = socket.socketpair()
    right.close()
    with left:
        exc = _caught(lambda: [left.send(b"x" * 65536) for _ in range(64)])
    assert isinstance(exc, (BrokenPipeError, ConnectionResetError))
    assert classify_io_error(exc) is C.NETWORK_ERROR


def test_would_block_is_transient_server_error() -> None:
    left, right = socket.socketpair()
    with left, right:
        left.setblocking(False)
        exc = _caught(lambda: left.recv(1))
    assert isinstance(exc, BlockingIOError)
    assert classify_io_error(exc) is C.SERVER_ERROR


def test_reading_a_directory_is_permanent_failure(tmp_path: Path) -> None:
    exc = _caught(lambda: tmp_path.open())
    assert isinstance(exc, IsADirectoryError)
    assert classify_io_error(exc) is C.PERMANENT_FAILURE


@pytest.mark.parametrize(
    ("exc", "category"),
    [
        (TimeoutError("timed out"), C.TIMEOUT),
        (OSError(errno.ETIMEDOUT, "Connection timed out"), C.TIMEOUT),
        (BrokenPipeError(errno.EPIPE, "Broken pipe"), C.NETWORK_ERROR),
        (ConnectionResetError(errno.ECONNRESET, "reset"), C.NETWORK_ERROR),
        (ConnectionAbortedError(errno.ECONNABORTED, "aborted"), C.NETWORK_ERROR),
        (OSError(errno.ECONNREFUSED, "refused"), C.NETWORK_ERROR),
        (BlockingIOError(errno.EAGAIN, "again"), C.SERVER_ERROR),
        (InterruptedError(errno.EINTR, "interrupted"), C.SERVER_ERROR),
        (PermissionError(errno.EPERM, "not permitted"), C.POLICY_BLOCKED),
        (OSError(errno.EACCES, "denied"), C.POLICY_BLOCKED),
        (OSError(errno.ENOSPC, "No space left on device"), C.PERMANENT_FAILURE),
        (OSError("no errno"), C.PERMANENT_FAILURE),
        (ValueError("not an OS error"), C.PERMANENT_FAILURE),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else str(v),
)


def test_classify_io_error_table(exc: BaseException, category: ErrorCategory) -> None:
    assert classify_io_error(exc) is category


@pytest.mark.parametrize(
    ("exit_code", "output", "category"),
    [
        (126, "bash: ./run.sh: cannot execute", C.POLICY_BLOCKED),
        (127, "bash: frobnicate: command not found", C.PERMANENT_FAILURE),
        # what a program prints is its result, not the tool failing
        (1, "cat: /etc/shadow: Permission denied", None),
        (2, "ls: cannot access 'nope': No such file or directory", None),
        (1, "PERMISSION DENIED", None),
        (1, "test failed: 3 of 10", None),
        (2, "", None),
        (0, "chmod: changing permissions: Permission denied", None),
        (0, "No such file or directory", None),
        (0, "", None),
    ],
)


def test_classify_shell_exit(exit_code: int, output: str, category: ErrorCategory | None) -> None:
    del output  # the text plays no part
    assert classify_shell_exit(exit_code) is category
