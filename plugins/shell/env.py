"""Credential scrubbing: the environment a command runs with.

========================  ===============================================================
rule                      a variable is removed when
========================  ===============================================================
``prefix``                its name starts with an ``env_blocklist`` prefix (any case)
``secret-marker``         its name contains an ``env_secret_markers`` entry (any case):
                          ``KEY``, ``SECRET``, ``TOKEN``, ``PASSWORD`` by default
``allowlist``             (exception) its exact name is in ``env_allowlist``: it is kept
========================  ===============================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["EnvironmentScrubber", "scrub_environment", "scrubbed_by"]


def scrubbed_by(name: str, prefixes: Iterable[str], markers: Iterable[str]) -> str | None:
    """Say which rule removes a variable.

    :param name: the variable name.
    :param prefixes: ``env_blocklist`` prefixes, upper case.
    :param markers: ``env_secret_markers`` substrings, upper case.
    :returns: ``prefix`` or ``secret-marker``, or ``None`` when the variable is kept.
    """
    upper = name.upper()
    if upper.startswith(tuple(prefixes)):
        return "prefix"
    if any(m in upper for m in markers):
        return "secret-marker"
    return None


class EnvironmentScrubber:
    """Scrubs environments with fixed rules, remembering each name's verdict.

    An agent's environment holds the same few dozen names call after call; judging each
    name once keeps scrubbing to a dictionary copy on the hot path of every command.

    :param prefixes: ``env_blocklist`` prefixes.
    :param markers: ``env_secret_markers`` substrings.
    :param allow: ``env_allowlist`` names, kept whatever the other rules say.
    """

    def __init__(self, *, prefixes: Iterable[str], markers: Iterable[str],
                 allow: Iterable[str] = ()) -> None:
        self._prefixes = tuple(p.upper() for p in prefixes)
        self._markers = tuple(m.upper() for m in markers)
        self._allow = frozenset(allow)
        self._kept: dict[str, bool] = {}

    def _keeps(self, name: str) -> bool:
        kept = self._kept.get(name)
        if kept is None:
            kept = name in self._allow or scrubbed_by(name, self._prefixes, self._markers) is None
            self._kept[name] = kept
        return kept

    def __call__(self, environ: Mapping[str, str]) -> dict[str, str]:
        """Copy ``environ`` without its credentials."""
        keeps = self._keeps
        return {name: value for name, value in environ.items() if keeps(name)}


def scrub_environment(
    environ: Mapping[str, str],
    *,
    prefixes: Iterable[str],
    markers: Iterable[str],
    allow: Iterable[str] = (),
) -> dict[str, str]:
    """Copy an environment without its credentials (one-off form of :class:`EnvironmentScrubber`).

    :param environ: the agent's environment.
    :param prefixes: ``env_blocklist`` prefixes.
    :param markers: ``env_secret_markers`` substrings.
    :param allow: ``env_allowlist`` names, kept whatever the other rules say.
    :returns: the environment for the child process.
    """
    return EnvironmentScrubber(prefixes=prefixes, markers=markers, allow=allow)(environ)
