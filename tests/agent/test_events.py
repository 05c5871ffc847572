"""Lifecycle events: a start and an end per call (and bash's output lines as progress between
them), one call_id, in order, through the hook and deck.events()."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tooldeck import events as events_module
from tooldeck import hookimpl
from tooldeck.events import CallEvent, CallKind, CallStatus, call_kind
from tooldeck.models import ToolCall

pytestmark = pytest.mark.timeout(60)

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
CONFIG = """
[tools.shell]
timeout = 0.5

[[tools.permissions.bash]]
pattern = "echo *"
action = "allow"

[[tools.permissions.bash]]
pattern = "sleep *"
action = "allow"

[[tools.permissions.read]]
pattern = "*"
action = "allow"
"""


class Recorder:
    """A plugin that keeps every event the hook delivers."""

    def __init__(self) -> None:
        self.seen: list[CallEvent] = []

    @hookimpl
    def tooldeck_call_event(self, event: CallEvent) -> None:
        self.seen.append(event)


def drain(stream: Any) -> list[CallEvent]:
    """The events already queued on a stream, without waiting."""
    out: list[CallEvent] = []
    while not stream._queue.empty():
        item = stream._queue.get_nowait()
        assert isinstance(item, CallEvent)
        out.append(item)
    return out


async def one_call(deck: Any, call: ToolCall) -> tuple[Any, list[CallEvent], list[CallEvent]]:
    """Run ``call``; the events the deck's recorder got, and those a stream got."""
    recorder = deck.recorder
    stream = deck.events()
    result = await deck.call(call)
    streamed = drain(stream)
    await stream.aclose()
    return result, list(recorder.seen), streamed


@pytest.fixture
def deck(make_deck: Any) -> Any:
    recorder = Recorder()
    deck = make_deck(CONFIG, plugins={"recorder": recorder})
    deck.recorder = recorder
    return deck


def assert_pair(events: list[CallEvent], call: ToolCall, status: CallStatus) -> None:
    events = [e for e in events if not e.output]  # progress events are checked apart
    assert [e.status for e in events] == [CallStatus.IN_PROGRESS, status]
    assert {e.call_id for e in events} == {call.call_id}
    assert events[0].content == "" and events[0].error_category is None


async def test_success(deck: Any, audit: Any) -> None:
    call = ToolCall("bash", {"command": "echo hello"}, caller_id="ide", turn=3)
    result, hooked, streamed = await one_call(deck, call)
    assert result.ok
    assert hooked == streamed
    assert_pair(hooked, call, CallStatus.COMPLETED)
    start, progress, done = hooked
    assert (progress.status, progress.output, progress.content) == (
        CallStatus.IN_PROGRESS, "hello", "")
    assert start.output == "" and done.output == ""
    assert (done.tool, done.kind, done.title, done.content) == (
        "bash", CallKind.EXECUTE, "echo hello", "hello")
    assert (done.caller_id, done.turn) == ("ide", 3)
    (record,) = audit("tool_call")
    assert record["call_id"] == call.call_id  # the same UUID as the audit record


async def test_failure_carries_the_category_and_the_error_text(deck: Any,
                                                               project: Path) -> None:
    call = ToolCall("read", {"path": str(project / "missing.txt")})
    result, hooked, _ = await one_call(deck, call)
    assert not result.ok
    assert_pair(hooked, call, CallStatus.FAILED)
    failed = hooked[1]
    assert failed.kind is CallKind.READ
    assert failed.error_category == result.error.category.label
    assert failed.content == result.text


async def test_denial_still_starts_and_ends(deck: Any) -> None:
    call = ToolCall("bash", {"command": "rm -rf /"})
    result, hooked, streamed = await one_call(deck, call)
    assert result.error.category.label == "policy_blocked"
    assert hooked == streamed
    assert_pair(hooked, call, CallStatus.FAILED)
    assert hooked[1].error_category == "policy_blocked"
    from acp.schema import ToolCallProgress

    ended = ToolCallProgress.model_validate(hooked[1].as_acp_update())
    assert (ended.status, ended.tool_call_id) == ("failed", call.call_id)


async def test_timeout(deck: Any) -> None:
    call = ToolCall("bash", {"command": "sleep 30"})
    result, hooked, _ = await one_call(deck, call)
    assert result.error.category.label == "timeout"
    assert_pair(hooked, call, CallStatus.FAILED)
    assert hooked[1].error_category == "timeout"


async def test_a_malformed_call_gets_both_events(deck: Any) -> None:
    call = ToolCall(7, None)  # type: ignore[arg-type]
    _result, hooked, _ = await one_call(deck, call)
    assert_pair(hooked, call, CallStatus.FAILED)
    assert hooked[1].tool == "7" and hooked[1].kind is CallKind.OTHER


async def test_secrets_are_redacted_in_title_and_content(deck: Any) -> None:
    call = ToolCall("bash", {"command": f"echo {TOKEN}"})
    _result, hooked, _ = await one_call(deck, call)
    for event in hooked:
        assert TOKEN not in event.title and TOKEN not in event.content
    assert "[REDACTED:github-token]" in hooked[0].title


async def test_locations_come_from_the_output(deck: Any, project: Path) -> None:
    (project / "notes.txt").write_text("hi\n")
    call = ToolCall("read", {"path": "notes.txt"})
    _result, hooked, _ = await one_call(deck, call)
    assert hooked[1].status is CallStatus.COMPLETED
    assert hooked[1].locations == (str((project / "notes.txt").resolve()),)
    assert hooked[1].as_dict()["locations"] == [str((project / "notes.txt").resolve())]


async def test_a_raising_hook_fails_nothing(make_deck: Any,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    class Broken:
        @hookimpl
        def tooldeck_call_event(self, event: CallEvent) -> None:
            raise RuntimeError("ui went away")

    recorder = Recorder()
    deck = make_deck(CONFIG, plugins={"broken": Broken(), "recorder": recorder})
    result = await deck.call(ToolCall("bash", {"command": "echo ok"}))
    assert result.ok and [e.output for e in recorder.seen] == ["", "ok", ""]
    assert "call event hook 'broken' failed: RuntimeError" in capsys.readouterr().err


async def test_the_iterator_follows_concurrent_calls_and_ends_with_the_deck(
        make_deck: Any) -> None:
    deck = make_deck(CONFIG)
    stream = deck.events()

    async def read_all() -> list[CallEvent]:
        return [event async for event in stream]

    reader = asyncio.create_task(read_all())
    calls = [ToolCall("bash", {"command": f"echo {n}"}) for n in range(3)]
    await asyncio.gather(*(deck.call(c) for c in calls))
    await deck.aclose()
    seen = await asyncio.wait_for(reader, 10)
    for n, call in enumerate(calls):
        mine = [(e.status, e.output) for e in seen if e.call_id == call.call_id]
        assert mine == [(CallStatus.IN_PROGRESS, ""), (CallStatus.IN_PROGRESS, str(n)),
                        (CallStatus.COMPLETED, "")]


async def test_a_slow_reader_loses_only_in_progress_events(
        deck: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events_module, "QUEUE_BOUND", 2)
    stream = deck.events()
    calls = [ToolCall("bash", {"command": f"echo {n}"}) for n in range(3)]
    for call in calls:
        await deck.call(call)
    queued = drain(stream)
    # each call: start, one progress event (its echo), end; only the first two fit
    assert stream.dropped == 4
    assert [e.status for e in queued] == [CallStatus.IN_PROGRESS] * 2 + [CallStatus.COMPLETED] * 3
    assert [e.call_id for e in queued if e.status.terminal] == [c.call_id for c in calls]


@pytest.mark.parametrize(("tool_id", "kind"), [
    ("bash", CallKind.EXECUTE), ("read", CallKind.READ), ("list_directory", CallKind.READ),
    ("write", CallKind.EDIT), ("edit", CallKind.EDIT), ("delete_path", CallKind.EDIT),
    ("copy_path", CallKind.EDIT), ("grep", CallKind.SEARCH), ("find_path", CallKind.SEARCH),
    ("fetch", CallKind.FETCH), ("web_scrape", CallKind.FETCH), ("bash_status", CallKind.READ),
    ("nosuch", CallKind.OTHER),
])
def test_kinds(make_deck: Any, tool_id: str, kind: CallKind) -> None:
    tools = {t.id: t for t in make_deck(CONFIG).tools()}
    assert call_kind(tool_id, tools.get(tool_id)) is kind


async def test_a_cancelled_call_ends_failed(deck: Any) -> None:
    stream = deck.events()
    call = ToolCall("bash", {"command": "sleep 30"})
    task = asyncio.create_task(deck.call(call))
    started = await asyncio.wait_for(stream.__anext__(), 10)
    assert (started.call_id, started.status) == (call.call_id, CallStatus.IN_PROGRESS)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    ended = await asyncio.wait_for(stream.__anext__(), 10)
    assert (ended.call_id, ended.status, ended.error_category) == (
        call.call_id, CallStatus.FAILED, "cancelled")


async def test_events_as_agent_client_protocol_updates(deck: Any, project: Path) -> None:
    from acp.schema import SessionNotification, ToolCallProgress, ToolCallStart

    (project / "notes.txt").write_text("hi\n")
    call = ToolCall("read", {"path": "notes.txt"})
    _result, hooked, _ = await one_call(deck, call)
    start, end = (event.as_acp_update() for event in hooked)
    started = ToolCallStart.model_validate(start)
    assert (started.tool_call_id, started.kind, started.status, started.title) == (
        call.call_id, "read", "in_progress", "notes.txt")
    ended = ToolCallProgress.model_validate(end)
    assert (ended.tool_call_id, ended.status) == (call.call_id, "completed")
    assert ended.content is not None and ended.content[0].content.text == hooked[1].content
    assert ended.locations is not None
    assert ended.locations[0].path == str((project / "notes.txt").resolve())
    SessionNotification.model_validate({"sessionId": "s1", "update": end})


STREAM_CONFIG = """
[tools.shell]
timeout = 30

[[tools.permissions.bash]]
pattern = "*"
action = "allow"
"""


async def test_bash_output_arrives_while_the_command_runs(make_deck: Any,
                                                          project: Path) -> None:
    # the command cannot finish unless its first line reached a listener while it ran
    class Releaser:
        @hookimpl
        def tooldeck_call_event(self, event: CallEvent) -> None:
            if "ready" in event.output.splitlines():
                (project / "go").touch()

    deck = make_deck(STREAM_CONFIG, plugins={"releaser": Releaser()})
    result = await deck.call(ToolCall("bash", {
        "command": "echo ready; while [ ! -e go ]; do sleep 0.01; done; echo finished"}))
    assert result.ok and result.text.splitlines() == ["ready", "finished"]


async def test_progress_carries_every_line_of_both_streams_redacted(make_deck: Any) -> None:
    recorder = Recorder()
    deck = make_deck(STREAM_CONFIG, plugins={"recorder": recorder})
    stream = deck.events()
    call = ToolCall("bash", {"command": f"echo one; echo two >&2; echo {TOKEN}; "
                                        "printf 'no newline'"})
    result = await deck.call(call)
    streamed = drain(stream)
    assert result.ok and streamed == recorder.seen
    progress = [e for e in streamed if e.output]
    assert progress and all(e.status is CallStatus.IN_PROGRESS for e in progress)
    assert all(e.call_id == call.call_id and e.content == "" for e in progress)
    lines = [line for e in progress for line in e.output.splitlines()]
    assert TOKEN not in "\n".join(lines)
    # the two pipes may be read in either order; within stdout the order holds
    assert [x for x in lines if not x.startswith("[stderr]")] == [
        "one", "[REDACTED:github-token]", "no newline"]
    assert [x for x in lines if x.startswith("[stderr]")] == ["[stderr] two"]
    assert streamed[-1].status is CallStatus.COMPLETED and not streamed[-1].output


async def test_progress_as_an_agent_client_protocol_update(deck: Any) -> None:
    from acp.schema import SessionNotification, ToolCallProgress

    call = ToolCall("bash", {"command": "echo streamed"})
    _result, hooked, _ = await one_call(deck, call)
    (progress,) = [e for e in hooked if e.output]
    update = progress.as_acp_update()
    parsed = ToolCallProgress.model_validate(update)
    assert (parsed.tool_call_id, parsed.status) == (call.call_id, "in_progress")
    assert parsed.content is not None and parsed.content[0].content.text == "streamed"
    SessionNotification.model_validate({"sessionId": "s1", "update": update})


async def test_nobody_listening_means_no_progress_is_built(make_deck: Any,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    built: list[str] = []
    original = events_module.progress_event

    def counting(*args: Any) -> CallEvent:
        built.append(args[2])
        return original(*args)

    monkeypatch.setattr("tooldeck.deck.progress_event", counting)
    deck = make_deck(STREAM_CONFIG)
    assert (await deck.call(ToolCall("bash", {"command": "echo quiet"}))).ok
    assert built == []
    stream = deck.events()
    assert (await deck.call(ToolCall("bash", {"command": "echo heard"}))).ok
    await stream.aclose()
    assert built == ["heard"]
