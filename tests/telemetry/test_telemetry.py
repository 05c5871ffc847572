"""[tools.telemetry]: calls exported as spans, metrics and log records, through the real SDK."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry import _logs, metrics, trace
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.models import ToolCall

TOKEN = "ghp_" + "Zx9Yw8Vu7Ts6" * 3


class Exported:
    """The host program's providers, each with an in-memory exporter."""

    def __init__(self) -> None:
        self.spans = InMemorySpanExporter()
        self.metrics = InMemoryMetricReader()
        self.logs = InMemoryLogRecordExporter()
        tracer = TracerProvider()
        tracer.add_span_processor(SimpleSpanProcessor(self.spans))
        logger = LoggerProvider()
        logger.add_log_record_processor(SimpleLogRecordProcessor(self.logs))
        trace.set_tracer_provider(tracer)
        metrics.set_meter_provider(MeterProvider(metric_readers=[self.metrics]))
        _logs.set_logger_provider(logger)

    def clear(self) -> None:
        self.spans.clear()
        self.logs.clear()

    def points(self) -> dict[str, list[tuple[dict[str, Any], Any]]]:
        found: dict[str, list[tuple[dict[str, Any], Any]]] = {}
        data = self.metrics.get_metrics_data()
        for resource in data.resource_metrics if data else ():
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    for point in metric.data.data_points:
                        value = getattr(point, "value", None)
                        if value is None:
                            value = point.count
                        found.setdefault(metric.name, []).append((dict(point.attributes),
                                                                  value))
        return found


_EXPORTED: list[Exported] = []


@pytest.fixture
def exported() -> Iterator[Exported]:
    if not _EXPORTED:  # OpenTelemetry's global providers can be set once per process
        _EXPORTED.append(Exported())
    _EXPORTED[0].clear()
    yield _EXPORTED[0]


MakeDeck = Callable[..., Deck]


@pytest.fixture
async def make_deck(tmp_path: Path) -> AsyncIterator[MakeDeck]:
    decks: list[Deck] = []

    def make(telemetry: str = "enabled = true\n") -> Deck:
        (tmp_path / "notes.txt").write_text("hello\n")
        text = (f"[tools.telemetry]\n{telemetry}"
                f"[tools.file]\nallowed_paths = [{json.dumps(str(tmp_path))}]\n"
                '[[tools.permissions.read]]\npattern = "*"\naction = "allow"\n'
                '[[tools.permissions.bash]]\npattern = "*"\naction = "allow"\n')
        deck = Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


async def test_each_call_is_a_span_with_its_outcome(exported: Exported, make_deck: MakeDeck,
                                                    tmp_path: Path) -> None:
    deck = make_deck()
    ok = await deck.call(ToolCall("read", {"path": str(tmp_path / "notes.txt")},
                                  caller_id="alice", turn=3))
    denied = await deck.call(ToolCall("bash", {"command": "rm -rf /"}, caller_id="alice"))
    assert ok.ok and denied.error is not None
    spans = {span.name: span for span in exported.spans.get_finished_spans()}
    read, bash = spans["tool_call read"], spans["tool_call bash"]
    assert read.attributes is not None and bash.attributes is not None
    assert read.attributes["tooldeck.outcome"] == "success"
    assert (read.attributes["tooldeck.caller_id"], read.attributes["tooldeck.turn"]) == ("alice", 3)
    assert read.attributes["tooldeck.call_id"] == ok.call.call_id
    assert read.status.is_ok
    assert bash.attributes["tooldeck.outcome"] == "blocked"
    assert bash.attributes["tooldeck.verdict"] == "deny"
    assert bash.attributes["tooldeck.gate"]
    assert not bash.status.is_ok
    assert read.end_time is not None and read.start_time is not None
    assert read.end_time >= read.start_time


async def test_metrics_count_calls_and_denials(exported: Exported, make_deck: MakeDeck,
                                               tmp_path: Path) -> None:
    before = exported.points()
    deck = make_deck()
    for _ in range(3):
        await deck.call(ToolCall("read", {"path": str(tmp_path / "notes.txt")}))
    await deck.call(ToolCall("bash", {"command": "sudo reboot"}))
    after = exported.points()

    def total(name: str, **attrs: str) -> float:
        def sums(points: dict[str, list[tuple[dict[str, Any], Any]]]) -> float:
            return sum(value for labels, value in points.get(name, [])
                       if all(labels.get(k) == v for k, v in attrs.items()))
        return sums(after) - sums(before)

    assert total("tooldeck.calls", tool="read", outcome="success") == 3
    assert total("tooldeck.denials", tool="bash") == 1
    assert total("tooldeck.call.duration", tool="read") == 3  # histogram count


async def test_the_audit_record_is_a_log_record(exported: Exported, make_deck: MakeDeck,
                                                tmp_path: Path) -> None:
    deck = make_deck()
    result = await deck.call(ToolCall("read", {"path": str(tmp_path / "notes.txt")}))
    records = [data.log_record for data in exported.logs.get_finished_logs()]
    bodies = [json.loads(str(record.body)) for record in records]
    assert any(body["kind"] == "tool_call" and body["call_id"] == result.call.call_id
               for body in bodies)


async def test_no_secret_reaches_any_signal(exported: Exported, make_deck: MakeDeck) -> None:
    deck = make_deck()
    await deck.call(ToolCall("bash", {"command": f"echo {TOKEN}"}))
    await deck.call(ToolCall("bash", {"command": f"curl -H 'Authorization: token {TOKEN}' "
                                                 "http://169.254.169.254/"}))
    exported_text = [json.dumps(dict(span.attributes or {}))
                     for span in exported.spans.get_finished_spans()]
    exported_text += [str(data.log_record.body) for data in exported.logs.get_finished_logs()]
    exported_text.append(repr(exported.points()))
    assert exported_text and not any(TOKEN in text for text in exported_text)


async def test_disabled_telemetry_records_nothing(exported: Exported,
                                                  make_deck: MakeDeck, tmp_path: Path) -> None:
    deck = make_deck("enabled = false\n")
    await deck.call(ToolCall("read", {"path": str(tmp_path / "notes.txt")}))
    assert exported.spans.get_finished_spans() == ()


def test_telemetry_off_never_imports_the_sdk(tmp_path: Path) -> None:
    """Zero cost when off: a deck with the default config does not load OpenTelemetry."""
    script = ("import sys\nfrom tooldeck.deck import Deck\nfrom tooldeck.models import ToolCall\n"
              "deck = Deck.from_config(None)\n"
              "deck.call_sync(ToolCall('list_directory', {'path': '.'}))\ndeck.close()\n"
              "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                               "TOOLDECK_TOOLS_AUDIT_ENABLED": "false"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


async def test_an_exporter_that_is_not_installed_refuses_the_config(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "[tools.telemetry]\nenabled = true\nexporter = \"otlp\"\n"
    # whether or not the extra is installed here, the import fails as on a machine without it
    monkeypatch.setitem(sys.modules, "opentelemetry.exporter", None)
    with pytest.raises(ConfigError, match=r"tooldeck\[otel\]"):
        Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))


def test_header_values_come_from_the_environment_only(tmp_path: Path) -> None:
    text = ("[tools.telemetry]\nenabled = false\n"
            "headers_from_env = { \"authorization token\" = \"OTEL_TOKEN\" }\n")
    with pytest.raises(ConfigError, match="not a header name"):
        Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))
