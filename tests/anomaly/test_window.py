"""zeph-test-cases §6, anomaly rows: the window and its thresholds, and what counts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tooldeck.plugins.anomaly.settings import AnomalySettings
from tooldeck.plugins.anomaly.window import Alert, Outcome, Severity, Window, outcome_of

S, E, B = Outcome.SUCCESS, Outcome.ERROR, Outcome.BLOCKED


def window_of(*outcomes: Outcome, size: int = 10) -> Window:
    window = Window(size)
    for outcome in outcomes:
        window.record(outcome)
    return window


def alert(*outcomes: Outcome) -> Alert | None:
    return window_of(*outcomes).alert(0.5, 0.8)


def test_two_samples_raise_nothing() -> None:
    assert alert(E, E) is None
    assert alert(E, E, E) == Alert(Severity.CRITICAL, 3, 3)


def test_five_errors_of_ten_is_a_warning() -> None:
    found = alert(*[E] * 5, *[S] * 5)
    assert found == Alert(Severity.WARNING, 5, 10)
    assert found.message == "error rate 50% (5/10) exceeds warning threshold"
    assert alert(*[E] * 4, *[S] * 6) is None


def test_eight_errors_or_blocks_of_ten_is_critical() -> None:
    found = alert(*[E] * 5, *[B] * 3, S, S)
    assert found == Alert(Severity.CRITICAL, 8, 10)
    assert found.message == "error rate 80% (8/10) exceeds critical threshold"
    assert alert(*[B] * 7, *[S] * 3) == Alert(Severity.WARNING, 7, 10)


def test_the_window_keeps_the_newest() -> None:
    window = window_of(*[E] * 10, *[S] * 6)
    assert window.alert(0.5, 0.8) is None  # 4/10
    window.resize(4)
    assert window.alert(0.5, 0.8) is None  # the 4 newest: all successes
    window.resize(20)
    window.record(E)
    assert window.alert(0.1, 0.8) == Alert(Severity.WARNING, 1, 5)


@pytest.mark.parametrize(("fields", "expected"), [
    ({"result": {"type": "success"}}, S),
    ({"result": {"type": "rollback", "restored": 1, "deleted": 0}}, E),
    ({"result": {"type": "blocked", "reason": "x"}}, B),
    ({"result": {"type": "quota_blocked", "reason": "x"}}, B),
    ({"result": {"type": "timeout"}, "error_category": "timeout"}, E),
    ({"result": {"type": "error"}, "error_category": "permanent_failure"}, E),
    ({"result": {"type": "error"}, "error_category": "confirmation_required"}, None),
    ({"result": {"type": "error"}, "error_category": "cancelled"}, None),
    ({"result": "garbage"}, E),
    ({}, E),
])
def test_what_an_audit_record_counts_as(fields: dict, expected: Outcome | None) -> None:
    assert outcome_of(fields) is expected


def test_defaults_are_zephs_thresholds_and_off() -> None:
    settings = AnomalySettings()
    assert (settings.enabled, settings.window_size, settings.error_threshold,
            settings.critical_threshold, settings.reasoning_model_warning) == (
        False, 10, 0.5, 0.8, True)


@pytest.mark.parametrize("values", [
    {"error_threshold": 0.9, "critical_threshold": 0.8}, {"window_size": 2},
    {"critical_threshold": 0}, {"error_threshold": 1.5}, {"reasoning_model_warning": "sometimes"},
])
def test_bad_settings_are_refused(values: dict) -> None:
    with pytest.raises(ValidationError):
        AnomalySettings.model_validate(values)
