"""When tasks fire: cron expressions (cronsim) and one-shot ISO 8601 UTC times.

Cron expressions have five fields (minute hour day month weekday) or six, seconds first
(``30 */15 * * * *``: at second 30 of every quarter hour), as Zeph and the Rust ``cron`` crate
write them. Every time is UTC.
"""

from __future__ import annotations

import datetime

from cronsim import CronSim, CronSimError

__all__ = ["BadSchedule", "check_interval", "next_fire", "parse_utc_time"]

UTC = datetime.timezone.utc


class BadSchedule(ValueError):
    """A cron expression or a time that cannot be used; the message says why."""


def _utc(timestamp: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(timestamp, UTC)


def next_fire(cron: str, after: float) -> float:
    """The first time strictly after ``after`` that ``cron`` names.

    :param cron: a 5- or 6-field cron expression.
    :param after: Unix time.
    :returns: Unix time of the next firing.
    :raises BadSchedule: for an expression cronsim rejects, or one that never fires.
    """
    fields = cron.split()
    if len(fields) not in (5, 6):
        raise BadSchedule(f"cron expression {cron!r} has {len(fields)} fields; "
                          "give 5 (minute hour day month weekday) or 6 (seconds first)")
    try:
        # cronsim starts strictly after a whole second: after floor(after), hence after after
        found = next(CronSim(" ".join(fields), _utc(after).replace(microsecond=0)))
    except (CronSimError, StopIteration) as exc:
        raise BadSchedule(f"cron expression {cron!r}: {exc or 'never fires'}") from None
    return found.timestamp()


def check_interval(cron: str, now: float, minimum: float) -> None:
    """Refuse a cron expression that fires more often than every ``minimum`` seconds.

    The first ten gaps from ``now`` are looked at (enough for ``* * * * * *``, ``*/5`` …).

    :raises BadSchedule: naming the shortest gap.
    """
    previous = next_fire(cron, now)
    for _ in range(10):
        following = next_fire(cron, previous)
        if following - previous < minimum:
            raise BadSchedule(f"cron expression {cron!r} fires every "
                              f"{following - previous:g} s; the minimum is {minimum:g} s")
        previous = following


def parse_utc_time(text: str, now: float) -> float:
    """A future UTC time from ISO 8601 text (``2026-11-25T18:00:00Z``).

    :param text: the time; a ``Z`` or an explicit offset is required.
    :param now: Unix time the result must lie after.
    :returns: Unix time.
    :raises BadSchedule: for text that is not ISO 8601, has no offset, or lies in the past.
    """
    try:
        moment = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise BadSchedule(f"{text!r} is not an ISO 8601 time; write e.g. "
                          "2026-11-25T18:00:00Z") from None
    if moment.tzinfo is None:
        raise BadSchedule(f"{text!r} has no time zone; write it in UTC with a Z, "
                          "e.g. 2026-11-25T18:00:00Z")
    at = moment.timestamp()
    if at <= now:
        raise BadSchedule(f"{text!r} is in the past (now is "
                          f"{_utc(now).isoformat(timespec='seconds')})")
    return at
