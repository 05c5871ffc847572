"""The tool error taxonomy: twelve categories, their classifiers, and the ``[tool_error]`` block.

Every failure a tool call can end in is a :class:`ToolError` carrying one
:class:`ErrorCategory`. The category decides what the agent is told to do next
(:attr:`ErrorCategory.suggestion`), whether the system retries on its own
(:attr:`ErrorCategory.retryable`) and whether the failure counts against the
model's output quality (:attr:`ErrorCategory.is_quality_failure`).
"""

from __future__ import annotations

import enum
import errno

from tooldeck.safe_json import safe_text

__all__ = [
    "ConfigError",
    "ErrorCategory",
    "ErrorDomain",
    "InvocationPhase",
    "PluginError",
    "ToolError",
    "classify_http_status",
    "classify_io_error",
    "classify_shell_exit",
    "format_feedback",
]


class ErrorDomain(str, enum.Enum):
    """Who acts on an error: the planner, the model's reflection, the action, or the system."""

    PLANNING = "planning"
    REFLECTION = "reflection"
    ACTION = "action"
    SYSTEM = "system"


class InvocationPhase(str, enum.Enum):
    """The phase of a tool invocation in which an error arises."""

    SETUP = "setup"
    PARAM_HANDLING = "param_handling"
    EXECUTION = "execution"
    RESULT_INTERPRETATION = "result_interpretation"


class ErrorCategory(str, enum.Enum):
    """The twelve categories of tool failure; the value is the label shown to the model.

    Zeph's eleven, and ``quota_blocked``: the session's call quota is used up (Zeph names
    that outcome in its spec but files it nowhere).
    """

    TOOL_NOT_FOUND = "tool_not_found"
    INVALID_PARAMETERS = "invalid_parameters"
    TYPE_MISMATCH = "type_mismatch"
    POLICY_BLOCKED = "policy_blocked"
    QUOTA_BLOCKED = "quota_blocked"
    CONFIRMATION_REQUIRED = "confirmation_required"
    PERMANENT_FAILURE = "permanent_failure"
    CANCELLED = "cancelled"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    NETWORK_ERROR = "network_error"
    TIMEOUT = "timeout"

    @property
    def label(self) -> str:
        """The snake_case label used in feedback blocks and audit records."""
        return self.value

    @property
    def suggestion(self) -> str:
        """What the model should do next, in one sentence."""
        return _SUGGESTIONS[self]

    @property
    def domain(self) -> ErrorDomain:
        """Who has to act on this category."""
        return _DOMAINS[self]

    @property
    def phase(self) -> InvocationPhase:
        """The invocation phase this category belongs to."""
        if self in (ErrorCategory.TOOL_NOT_FOUND, ErrorCategory.QUOTA_BLOCKED):
            return InvocationPhase.SETUP
        if self in (ErrorCategory.INVALID_PARAMETERS, ErrorCategory.TYPE_MISMATCH):
            return InvocationPhase.PARAM_HANDLING
        return InvocationPhase.EXECUTION

    @property
    def retryable(self) -> bool:
        """True for transient (system-domain) failures the system may retry on its own."""
        return self.domain is ErrorDomain.SYSTEM

    @property
    def is_quality_failure(self) -> bool:
        """True when the failure is attributable to the model's tool call itself."""
        return self in (
            ErrorCategory.INVALID_PARAMETERS,
            ErrorCategory.TYPE_MISMATCH,
            ErrorCategory.TOOL_NOT_FOUND,
        )

    @property
    def needs_parameter_reformat(self) -> bool:
        """True when the remedy is to resend the call with corrected parameters."""
        return self in (ErrorCategory.INVALID_PARAMETERS, ErrorCategory.TYPE_MISMATCH)


_SUGGESTIONS: dict[ErrorCategory, str] = {
    ErrorCategory.TOOL_NOT_FOUND: (
        "Check the tool name. Use tool_definitions to see available tools."
    ),
    ErrorCategory.INVALID_PARAMETERS: "Review the tool schema and provide correct parameters.",
    ErrorCategory.TYPE_MISMATCH: "Check parameter types against the tool schema.",
    ErrorCategory.POLICY_BLOCKED: (
        "This operation is blocked by security policy. Try an alternative approach."
    ),
    ErrorCategory.QUOTA_BLOCKED: (
        "The tool call quota of this session is used up. Answer with what you have."
    ),
    ErrorCategory.CONFIRMATION_REQUIRED: "This operation requires user confirmation.",
    ErrorCategory.PERMANENT_FAILURE: (
        "This resource is not available. Try an alternative approach."
    ),
    ErrorCategory.CANCELLED: "Operation was cancelled by the user.",
    ErrorCategory.RATE_LIMITED: "Rate limit exceeded. The system will retry if possible.",
    ErrorCategory.SERVER_ERROR: "Server error. The system will retry if possible.",
    ErrorCategory.NETWORK_ERROR: "Network error. The system will retry if possible.",
    ErrorCategory.TIMEOUT: "Operation timed out. The system will retry if possible.",
}

_DOMAINS: dict[ErrorCategory, ErrorDomain] = {
    ErrorCategory.TOOL_NOT_FOUND: ErrorDomain.PLANNING,
    ErrorCategory.INVALID_PARAMETERS: ErrorDomain.REFLECTION,
    ErrorCategory.TYPE_MISMATCH: ErrorDomain.REFLECTION,
    ErrorCategory.POLICY_BLOCKED: ErrorDomain.ACTION,
    ErrorCategory.QUOTA_BLOCKED: ErrorDomain.PLANNING,
    ErrorCategory.CONFIRMATION_REQUIRED: ErrorDomain.ACTION,
    ErrorCategory.PERMANENT_FAILURE: ErrorDomain.ACTION,
    ErrorCategory.CANCELLED: ErrorDomain.ACTION,
    ErrorCategory.RATE_LIMITED: ErrorDomain.SYSTEM,
    ErrorCategory.SERVER_ERROR: ErrorDomain.SYSTEM,
    ErrorCategory.NETWORK_ERROR: ErrorDomain.SYSTEM,
    ErrorCategory.TIMEOUT: ErrorDomain.SYSTEM,
}


def _one_line(text: str) -> str:
    return "; ".join(line for line in safe_text(text).splitlines() if line.strip())


def format_feedback(category: ErrorCategory, message: str, *, retryable: bool | None = None,
                    suggestion: str | None = None) -> str:
    r"""Render the five-line ``[tool_error]`` block given back to the model.

    :param category: the failure's category.
    :param message: the human-readable error message; its line breaks become ``"; "`` so that
        text from a tool's output can neither add lines to the block nor forge its fields, and
        lone surrogates become ``\udcxx`` escapes so that the block is valid UTF-8.
    :param retryable: overrides the category's own retryability (for a tool that is not retried).
    :param suggestion: replaces the category's suggestion (one line, like ``message``).
    :returns: the block: five lines, no trailing newline.
    """
    retry = category.retryable if retryable is None else retryable
    advice = category.suggestion if suggestion is None else _one_line(suggestion)
    return (
        f"[tool_error]\ncategory: {category.label}\nerror: {_one_line(message)}\n"
        f"suggestion: {advice}\nretryable: {'true' if retry else 'false'}"
    )


class ToolError(Exception):
    """A classified tool failure; executors and gates raise it, the pipeline reports it.

    :param category: the taxonomy category.
    :param message: what went wrong, for the model and the audit log.
    :param exit_code: the process exit code, for shell failures.
    :param retryable: overrides the category's retryability when the tool is never retried.
    :param suggestion: what the model should do next, instead of the category's suggestion.
    """

    def __init__(
        self,
        category: ErrorCategory,
        message: str,
        *,
        exit_code: int | None = None,
        retryable: bool | None = None,
        suggestion: str | None = None,
    ) -> None:
        super().__init__(message)
        self.category = category
        self.message = message
        self.exit_code = exit_code
        self._retryable = retryable
        self.suggestion = suggestion

    @property
    def retryable(self) -> bool:
        """Whether the system may retry this failure automatically."""
        return self.category.retryable if self._retryable is None else self._retryable

    def feedback(self) -> str:
        """The ``[tool_error]`` block for this error."""
        return format_feedback(self.category, self.message, retryable=self.retryable,
                               suggestion=self.suggestion)

    def __repr__(self) -> str:
        return f"ToolError({self.category.label!r}, {self.message!r})"


class ConfigError(Exception):
    """A configuration that cannot be used; the message names the file, the key and the problem.

    :param message: the full explanation.
    :param path: the file the error is in, when there is one.
    :param key: the dotted key at fault, when there is one.
    """

    def __init__(self, message: str, *, path: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.key = key


class PluginError(Exception):
    """A plugin that cannot be loaded or registered; the message names the plugin.

    :param plugin: the plugin's entry-point name.
    :param message: what went wrong.
    """

    def __init__(self, plugin: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}: {message}")
        self.plugin = plugin


def classify_http_status(status: int) -> ErrorCategory:
    """Map an HTTP status code to a category (400/422, 401/403, 429, 5xx, everything else)."""
    if status in (400, 422):
        return ErrorCategory.INVALID_PARAMETERS
    if status in (401, 403):
        return ErrorCategory.POLICY_BLOCKED
    if status == 429:
        return ErrorCategory.RATE_LIMITED
    if 500 <= status <= 599:
        return ErrorCategory.SERVER_ERROR
    return ErrorCategory.PERMANENT_FAILURE


_NETWORK_ERRNOS = frozenset(
    {errno.ECONNREFUSED, errno.ECONNRESET, errno.ECONNABORTED, errno.EPIPE}
)
_TRANSIENT_ERRNOS = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR})


def classify_io_error(exc: BaseException) -> ErrorCategory:
    """Map an operating-system or I/O exception to a category.

    Timeouts are ``timeout``; refused, reset, aborted connections and broken pipes are
    ``network_error``; would-block and interrupted calls are ``server_error`` (transient);
    permission errors are ``policy_blocked``; everything else, file-not-found included, is
    ``permanent_failure`` (``tool_not_found`` is reserved for unknown tool names).
    """
    if isinstance(exc, TimeoutError):
        return ErrorCategory.TIMEOUT
    if isinstance(exc, (ConnectionError, BrokenPipeError)):
        return ErrorCategory.NETWORK_ERROR
    if isinstance(exc, (BlockingIOError, InterruptedError)):
        return ErrorCategory.SERVER_ERROR
    if isinstance(exc, PermissionError):
        return ErrorCategory.POLICY_BLOCKED
    if isinstance(exc, OSError) and exc.errno is not None:
        if exc.errno in _NETWORK_ERRNOS:
            return ErrorCategory.NETWORK_ERROR
        if exc.errno in _TRANSIENT_ERRNOS:
            return ErrorCategory.SERVER_ERROR
        if exc.errno == errno.ETIMEDOUT:
            return ErrorCategory.TIMEOUT
        if exc.errno in (errno.EACCES, errno.EPERM):
            return ErrorCategory.POLICY_BLOCKED
    return ErrorCategory.PERMANENT_FAILURE


def classify_shell_exit(exit_code: int) -> ErrorCategory | None:
    """Classify a finished shell command; ``None`` means an ordinary result, not an error.

    Only the shell's own verdicts are errors: 126 (the command could not be executed) is
    ``policy_blocked`` and 127 (command not found) is ``permanent_failure``. Any other exit is
    the program's result, returned with its output and exit code: what a program prints
    ("No such file or directory" in a failing test) is never read as the tool failing.

    :param exit_code: the shell's exit code.
    :returns: the category, or ``None`` for an ordinary result.
    """
    if exit_code == 126:
        return ErrorCategory.POLICY_BLOCKED
    if exit_code == 127:
        return ErrorCategory.PERMANENT_FAILURE
    return None
