"""Changing trust levels at run time from Python; each change is audited.

::

    from tooldeck.plugins.trust_gate.api import reset_trust, set_trust
    from tooldeck.trust_state import Subject

    set_trust(deck, Subject.source("mcp:github"), "verified", by="alice")
    reset_trust(deck, Subject.caller("nightly-job"), by="alice")

A change is a row in the user's trust state (:mod:`tooldeck.trust_state`): it applies to the
next call of every deck of the user, survives reloads and restarts, and replaces what
``[tools.trust]`` says for that subject until it is reset. ``tooldeck trust set`` and
``tooldeck trust reset`` do the same from a terminal. Each change writes a ``trust.set`` or
``trust.reset`` audit event naming the subject, the old and new level and who changed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldeck.audit import runtime_event
from tooldeck.deck import Deck
from tooldeck.runtime import Runtime
from tooldeck.trust_levels import TrustLevel, parse_trust_level
from tooldeck.trust_state import Override, Subject, session_trust_state

__all__ = ["reset_trust", "set_trust", "trust_overrides"]


def _runtime(target: Deck | Runtime) -> Runtime:
    return target.runtime if isinstance(target, Deck) else target


def _subject_fields(subject: Subject) -> dict[str, str]:
    """The audit fields naming ``subject``: ``subject`` (its kind) and ``name``."""
    return {"subject": subject.kind, "name": subject.name}


def _previous(row: Override | None) -> dict[str, Any]:
    if row is None:
        return {"previous": None}
    return {"previous": str(row.level), "previous_by": row.by, "previous_reason": row.reason}


def set_trust(target: Deck | Runtime, subject: Subject, level: TrustLevel | str, *,
              by: str = "api", reason: str = "") -> Override | None:
    """Set the trust level of a caller or tool source, for every deck of the user.

    :param target: a deck, or any runtime of one.
    :param subject: :meth:`Subject.caller` or :meth:`Subject.source`.
    :param level: the level, or its name.
    :param by: who makes the change (recorded with the row and in the audit event).
    :param reason: why (recorded likewise).
    :returns: the row it replaced, if any.
    :raises ValueError: an unknown level or an unacceptable subject name.
    :raises tooldeck.trust_state.TrustStateError: the state cannot be written.
    """
    new = parse_trust_level(level) if isinstance(level, str) else TrustLevel(level)
    runtime = _runtime(target)
    previous = session_trust_state(runtime).set(subject, new, by=by, reason=reason)
    runtime.hooks.audit(runtime_event("trust.set", {
        **_subject_fields(subject), "level": str(new), "by": by, "reason": reason,
        **_previous(previous)}), runtime)
    return previous


def reset_trust(target: Deck | Runtime, subject: Subject, *, by: str = "api") -> Override | None:
    """Drop the run-time level of a caller or source (a block included): configuration decides.

    :param target: a deck, or any runtime of one.
    :param subject: whom to reset.
    :param by: who resets it (recorded in the audit event).
    :returns: the row removed, or ``None`` when there was none (nothing is audited then).
    :raises ValueError: an unacceptable subject name.
    :raises tooldeck.trust_state.TrustStateError: the state cannot be written.
    """
    runtime = _runtime(target)
    previous = session_trust_state(runtime).reset(subject)
    if previous is not None:
        runtime.hooks.audit(runtime_event("trust.reset", {
            **_subject_fields(subject), "by": by, **_previous(previous)}), runtime)
    return previous


def trust_overrides(target: Deck | Runtime) -> Mapping[Subject, Override]:
    """Every run-time level of the user, as of now.

    :param target: a deck, or any runtime of one.
    :raises tooldeck.trust_state.TrustStateError: the state cannot be read.
    """
    return session_trust_state(_runtime(target)).overrides()
