"""Approvals as data: pending ``ask`` decisions and scoped grants, kept in one SQLite file.

A call whose decision is ``ask``, made with ``confirm=DEFER``, becomes a pending approval: a
row any process of the user can list, approve or deny (``tooldeck approvals``), and that the
deck later resumes (:meth:`tooldeck.deck.Deck.resume`). Approving with a wider scope also
writes a *grant*, which the deck consults whenever an ``ask`` arises.

======================  ===================================================================
rule                    behaviour
======================  ===================================================================
one file per user       ``approvals.sqlite3`` in the user data directory unless
                        ``[tools.approvals] path`` says otherwise (folder 0700, file 0600,
                        created without following a symlink), WAL journal, writers wait for
                        each other (``BEGIN IMMEDIATE``, busy timeout)
exact call kept         the validated parameters are stored exactly (to re-run the call);
                        what is shown (``display``) is redacted
resolve once            approve/deny only a pending, unexpired row, in one transaction
run once                :meth:`ApprovalStore.claim` marks a resolved row resumed in one
                        transaction; a second claim, from any process, is an error
fail closed             an unknown or malformed id, an expired row, a row still pending, a
                        database that cannot be read: :class:`ApprovalError`
grants                  ``command``: the same caller, tool and exact parameters;
                        ``rule``: the same caller, tool and ask rule (gate, rule id,
                        source, pattern). Each has a TTL and names the approval it came from
======================  ===================================================================
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.safe_json import safe_repr, safe_text
from tooldeck.secrets import redact

__all__ = [
    "SCOPES",
    "STORE_FILE",
    "ApprovalError",
    "ApprovalRecord",
    "ApprovalStore",
    "Grant",
    "Scope",
    "exact_params",
    "parse_approval_id",
]

STORE_FILE = "approvals.sqlite3"
Scope = Literal["call", "command", "rule"]
SCOPES: tuple[Scope, ...] = ("call", "command", "rule")
"""What an approval covers: this exact call; this exact command again for the caller; any
call the same ask rule catches for the caller."""

_DISPLAY_CHARS = 500
_BUSY_TIMEOUT_S = 10.0
_KEEP_S = 7 * 86400  # rows this long past their expiry are deleted on the next write
_SCHEMA = """
CREATE TABLE IF NOT EXISTS approvals (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    tool TEXT NOT NULL,
    caller BLOB NOT NULL,
    call_id TEXT NOT NULL,
    turn INTEGER,
    params TEXT NOT NULL,
    display TEXT NOT NULL,
    decision TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL,
    resolved_by TEXT,
    resolved_at REAL,
    reason TEXT,
    scope TEXT,
    resumed_at REAL
);
CREATE TABLE IF NOT EXISTS grants (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    caller BLOB NOT NULL,
    tool TEXT NOT NULL,
    match TEXT NOT NULL,
    approval TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS grants_by_match ON grants(caller, tool, scope, match);
"""


class ApprovalError(Exception):
    """An approval cannot be resolved or resumed (unknown, expired, already used, …)."""


def parse_approval_id(text: str) -> str:
    """The canonical form of an approval id (a UUID).

    :raises ApprovalError: ``text`` is not an approval id.
    """
    if not isinstance(text, str) or len(text.strip()) not in (32, 36):
        raise ApprovalError(f"not an approval id: {safe_repr(text)}")
    try:
        return str(uuid.UUID(text.strip()))
    except ValueError:
        raise ApprovalError(f"not an approval id: {safe_repr(text)}") from None


def exact_params(params: Mapping[str, Any]) -> str:
    """The parameters as canonical JSON: what "the exact call" is compared by.

    :raises TypeError: a value has no JSON form (such a call cannot be deferred).
    """
    return json.dumps(params, sort_keys=True, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))


def _rule_key(tool_id: str, decision: Decision) -> str | None:
    """What identifies the ask rule behind ``decision``, or ``None`` when it names none.

    A configured rule is its file and pattern (the permissions gate and the shell gate both
    vote by the same ``[[tools.permissions.bash]]`` rule); a rule of a gate's own is the gate
    and the rule id.
    """
    if decision.rule is None or decision.rule == "no-vote":
        return None
    if decision.pattern is not None:
        return json.dumps({"tool": tool_id, "source": decision.source,
                           "pattern": decision.pattern}, sort_keys=True)
    return json.dumps({"tool": tool_id, "gate": decision.gate, "rule": decision.rule,
                       "source": decision.source}, sort_keys=True)


def _caller(caller_id: str | None) -> bytes:
    return (caller_id or "").encode("utf-8", "surrogatepass")


def _display(call: ToolCall, tool: ToolDef | None) -> str:
    text = call.input_text(tool) or exact_params(call.params)
    text = redact(text)
    return text if len(text) <= _DISPLAY_CHARS else text[:_DISPLAY_CHARS] + "…"


@attrs.frozen
class ApprovalRecord:
    """One deferred ``ask``: the call, the decision that asked, and what became of it.

    :param id: the approval id (a UUID).
    :param status: ``pending``, ``approved`` or ``denied``.
    :param tool: the tool called.
    :param caller_id: the caller (``None`` for calls without one).
    :param call_id: the id of the call that asked.
    :param turn: the call's turn, when it had one.
    :param params: the validated parameters, exactly (for re-running; may hold secrets).
    :param display: the call's input, redacted and cut, for showing to a person.
    :param decision: the ``ask`` decision: verdict, reason and provenance.
    :param created: when it was created (epoch seconds).
    :param expires: after this it can be neither resolved nor resumed.
    :param resolved_by: who approved or denied it.
    :param resolved_at: when.
    :param reason: the reason given with a denial.
    :param scope: the scope it was approved with.
    :param resumed_at: when a deck claimed it to run (it runs at most once).
    """

    id: str
    status: str
    tool: str
    caller_id: str | None
    call_id: str
    turn: int | None
    params: Mapping[str, Any]
    display: str
    decision: Mapping[str, Any]
    created: float
    expires: float
    resolved_by: str | None = None
    resolved_at: float | None = None
    reason: str | None = None
    scope: str | None = None
    resumed_at: float | None = None

    def call(self) -> ToolCall:
        """The call to run again: same tool, exact parameters, caller, call id and turn."""
        return ToolCall(self.tool, dict(self.params), call_id=self.call_id,
                        caller_id=self.caller_id, turn=self.turn)

    def public(self) -> dict[str, Any]:
        """The record for display and ``--json``: everything but the exact parameters."""
        return {"id": self.id, "status": self.status, "tool": self.tool,
                "caller_id": None if self.caller_id is None else safe_text(self.caller_id),
                "call_id": self.call_id, "input": safe_text(self.display),
                "decision": dict(self.decision), "created": self.created,
                "expires": self.expires, "resolved_by": self.resolved_by,
                "reason": self.reason, "scope": self.scope, "resumed": self.resumed_at is not None}


@attrs.frozen
class Grant:
    """A standing approval found for a call: which one, and what it covers.

    :param id: the grant id.
    :param scope: ``command`` or ``rule``.
    :param approval: the approval it was granted with.
    :param granted_by: who approved that.
    """

    id: str
    scope: str
    approval: str
    granted_by: str

    @property
    def approved_by(self) -> str:
        """The ``approved_by`` of a call this grant let through."""
        return f"grant:{self.scope}:{self.id} ({self.granted_by})"


_COLUMNS = ("id, status, tool, caller, call_id, turn, params, display, decision, created, "
            "expires, resolved_by, resolved_at, reason, scope, resumed_at")


class ApprovalStore:
    """Pending approvals and grants of one user, in SQLite, shared by every process.

    :param path: the database file (created 0600, its folder 0700).
    :param expiry_secs: how long a new approval can be resolved and resumed.
    :param grant_ttl_secs: how long a ``command`` or ``rule`` grant lasts.
    :param clock: the time source (epoch seconds); tests pass a fake one.
    """

    def __init__(self, path: Path, *, expiry_secs: float, grant_ttl_secs: float,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.expiry_secs = expiry_secs
        self.grant_ttl_secs = grant_ttl_secs
        self._clock = clock
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    # ------------------------------------------------------------------ connection

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        if not create and not self.path.exists():
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600))
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                 timeout=_BUSY_TIMEOUT_S)
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise ApprovalError(f"cannot open the approval store {self.path}: {exc}") from None
        self._db = db
        return db

    def _write(self, body: Callable[[sqlite3.Connection, float], Any]) -> Any:
        """Run ``body`` in one ``BEGIN IMMEDIATE`` transaction; errors roll it back."""
        with self._lock:
            db = self._connect(create=True)
            assert db is not None
            now = self._clock()
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    out = body(db, now)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise ApprovalError(f"the approval store {self.path} failed: {exc}") from None
            return out

    def close(self) -> None:
        """Close the connection (it reopens on the next use)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # ------------------------------------------------------------------ approvals

    def create(self, call: ToolCall, tool: ToolDef | None, decision: Decision) -> str:
        """Keep a deferred ``ask`` as a pending approval.

        :raises ApprovalError: the store cannot be written.
        :raises TypeError: the parameters have no exact JSON form.
        :returns: the new approval id.
        """
        params = exact_params(call.params)
        ident = str(uuid.uuid4())
        shown = {"verdict": decision.verdict.value, "reason": redact(decision.reason),
                 **decision.provenance()}

        def insert(db: sqlite3.Connection, now: float) -> None:
            db.execute("DELETE FROM approvals WHERE expires < ?", (now - _KEEP_S,))
            db.execute("DELETE FROM grants WHERE expires < ?", (now,))
            db.execute(
                f"INSERT INTO approvals ({_COLUMNS}) VALUES "
                "(?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL)",
                (ident, call.tool_id, _caller(call.caller_id), call.call_id, call.turn, params,
                 _display(call, tool), json.dumps(shown), now, now + self.expiry_secs))

        self._write(insert)
        return ident

    def get(self, approval_id: str) -> ApprovalRecord:
        """The approval ``approval_id``.

        :raises ApprovalError: malformed or unknown id, or an unreadable store.
        """
        ident = parse_approval_id(approval_id)
        with self._lock:
            db = self._connect(create=False)
            row = None if db is None else _read(db, ident)
        if row is None:
            raise ApprovalError(f"no approval {ident}")
        return row

    def pending(self) -> list[ApprovalRecord]:
        """Approvals waiting for a decision and not expired, oldest first."""
        return [r for r in self.records() if r.status == "pending" and r.expires > self._clock()]

    def records(self) -> list[ApprovalRecord]:
        """Every approval kept, oldest first (resolved and expired ones too)."""
        with self._lock:
            db = self._connect(create=False)
            if db is None:
                return []
            try:
                rows = db.execute(
                    f"SELECT {_COLUMNS} FROM approvals ORDER BY created, rowid").fetchall()
            except sqlite3.Error as exc:
                raise ApprovalError(f"cannot read the approval store: {exc}") from None
        return [_record(row) for row in rows]

    def approve(self, approval_id: str, *, by: str, scope: Scope = "call") -> ApprovalRecord:
        """Approve a pending approval; a ``command`` or ``rule`` scope also writes a grant.

        :param by: who approves (kept, and recorded as ``approved_by`` when it runs).
        :param scope: ``call`` (this exact call), ``command`` (the same tool and parameters
            for this caller until the grant's TTL ends) or ``rule`` (calls the same ask rule
            catches, for this caller, until then).
        :raises ApprovalError: unknown, malformed, expired or already resolved; a ``rule``
            scope for a decision that names no rule.
        """
        if scope not in SCOPES:
            raise ApprovalError(f"unknown scope {safe_repr(scope)}: use call, command or rule")
        ident = parse_approval_id(approval_id)

        def resolve(db: sqlite3.Connection, now: float) -> ApprovalRecord:
            record = _resolvable(db, ident, now)
            match = None
            if scope == "command":
                match = exact_params(record.params)
            elif scope == "rule":
                decision = record.decision
                match = _rule_key(record.tool, Decision(
                    Verdict.ASK, "", gate=str(decision.get("gate", "")),
                    rule=decision.get("rule"),
                    source=None if decision.get("source") == "builtin" else decision.get("source"),
                    pattern=decision.get("pattern")))
                if match is None:
                    raise ApprovalError(f"approval {ident}: its decision names no rule to "
                                        "grant; approve it with scope call or command")
            db.execute("UPDATE approvals SET status='approved', resolved_by=?, resolved_at=?, "
                       "scope=? WHERE id=?", (by, now, scope, ident))
            if match is not None:
                db.execute("INSERT INTO grants VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (str(uuid.uuid4()), scope, _caller(record.caller_id), record.tool,
                            match, ident, by, now, now + self.grant_ttl_secs))
            return attrs.evolve(record, status="approved", resolved_by=by, resolved_at=now,
                                scope=scope)

        result: ApprovalRecord = self._write(resolve)
        return result

    def deny(self, approval_id: str, *, by: str, reason: str = "") -> ApprovalRecord:
        """Deny a pending approval; resuming it then returns a ``cancelled`` result.

        :raises ApprovalError: unknown, malformed, expired or already resolved.
        """
        ident = parse_approval_id(approval_id)

        def resolve(db: sqlite3.Connection, now: float) -> ApprovalRecord:
            record = _resolvable(db, ident, now)
            db.execute("UPDATE approvals SET status='denied', resolved_by=?, resolved_at=?, "
                       "reason=? WHERE id=?", (by, now, reason, ident))
            return attrs.evolve(record, status="denied", resolved_by=by, resolved_at=now,
                                reason=reason)

        result: ApprovalRecord = self._write(resolve)
        return result

    def claim(self, approval_id: str) -> ApprovalRecord:
        """Take a resolved approval to resume it: at most once, across every process.

        :raises ApprovalError: malformed or unknown id, still pending, expired, or resumed
            already.
        """
        ident = parse_approval_id(approval_id)

        def take(db: sqlite3.Connection, now: float) -> ApprovalRecord:
            record = _read(db, ident)
            if record is None:
                raise ApprovalError(f"no approval {ident}")
            if record.resumed_at is not None:
                raise ApprovalError(f"approval {ident} was resumed already; it runs once")
            if record.status == "pending":
                raise ApprovalError(f"approval {ident} is still pending: approve or deny it "
                                    "first")
            if record.status == "approved" and record.expires <= now:
                raise ApprovalError(f"approval {ident} expired before it was resumed")
            db.execute("UPDATE approvals SET resumed_at=? WHERE id=? AND resumed_at IS NULL",
                       (now, ident))
            return attrs.evolve(record, resumed_at=now)

        result: ApprovalRecord = self._write(take)
        return result

    # ------------------------------------------------------------------ grants

    def find_grant(self, call: ToolCall, asks: Sequence[Decision]) -> Grant | None:
        """A live grant that covers this ``ask``, or ``None`` (then the call is asked).

        :param asks: every ``ask`` vote on the call; a ``rule`` grant covers the call only
            when they all come from that one rule (another gate asking is not granted away).
        :raises ApprovalError: the store cannot be read.
        """
        try:
            command = exact_params(call.params)
        except (TypeError, ValueError):
            return None
        keys = {_rule_key(call.tool_id, decision) for decision in asks}
        rule = keys.pop() if len(keys) == 1 else None
        with self._lock:
            db = self._connect(create=False)
            if db is None:
                return None
            try:
                row = db.execute(
                    "SELECT id, scope, approval, granted_by FROM grants WHERE caller=? AND "
                    "tool=? AND expires>? AND ((scope='command' AND match=?) OR "
                    "(scope='rule' AND match=?)) ORDER BY created LIMIT 1",
                    (_caller(call.caller_id), call.tool_id, self._clock(), command,
                     rule if rule is not None else "")).fetchone()
            except sqlite3.Error as exc:
                raise ApprovalError(f"cannot read the approval store: {exc}") from None
        return None if row is None else Grant(*row)


def _read(db: sqlite3.Connection, ident: str) -> ApprovalRecord | None:
    try:
        row = db.execute(f"SELECT {_COLUMNS} FROM approvals WHERE id=?", (ident,)).fetchone()
    except sqlite3.Error as exc:
        raise ApprovalError(f"cannot read the approval store: {exc}") from None
    return None if row is None else _record(row)


def _resolvable(db: sqlite3.Connection, ident: str, now: float) -> ApprovalRecord:
    record = _read(db, ident)
    if record is None:
        raise ApprovalError(f"no approval {ident}")
    if record.status != "pending":
        raise ApprovalError(f"approval {ident} was {record.status} already "
                            f"(by {record.resolved_by})")
    if record.expires <= now:
        raise ApprovalError(f"approval {ident} expired; the call must be asked again")
    return record


def _record(row: tuple[Any, ...]) -> ApprovalRecord:
    try:
        (ident, status, tool, caller, call_id, turn, params, display, decision, created,
         expires, resolved_by, resolved_at, reason, scope, resumed_at) = row
        caller_id = bytes(caller).decode("utf-8", "surrogatepass") or None
        return ApprovalRecord(
            id=ident, status=status, tool=tool, caller_id=caller_id, call_id=call_id,
            turn=turn, params=json.loads(params), display=display,
            decision=json.loads(decision), created=float(created), expires=float(expires),
            resolved_by=resolved_by, resolved_at=resolved_at, reason=reason, scope=scope,
            resumed_at=resumed_at)
    except (ValueError, TypeError) as exc:
        raise ApprovalError(f"an approval row does not parse: {exc}") from None
