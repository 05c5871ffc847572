"""The risk chain gate: denies the call that completes a risky chain of calls."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tooldeck import hookimpl
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.risk_chain.chain import ChainHistory, Step, score_chain
from tooldeck.plugins.risk_chain.settings import RiskChainSettings
from tooldeck.plugins.risk_chain.tags import Tag, shell_tags, text_tags
from tooldeck.runtime import Runtime, StashKey

__all__ = ["HISTORY", "PATH_PARAMS", "RiskChainGate"]

HISTORY = StashKey[ChainHistory]("risk_chain.history")
"""Where the deck's history lives in :attr:`Runtime.session`."""

_EGRESS = frozenset({Tag.NETWORK_EGRESS})

PATH_PARAMS = frozenset({
    "path", "paths", "file", "files", "file_path", "filepath", "filename", "source",
    "destination", "src", "dest", "target", "directory", "dir", "uri",
})
"""Parameters of a non-shell tool that name what the call touches (``copy_path`` reads its
``source``): their values are tagged. Others (a memory's ``content``, a search ``query``)
are text, and words in text are not an access. A tool whose input is a shell command is
tagged as one only when ``shell_tools`` lists it."""


class RiskChainGate:
    """Tags each call, scores it with the caller's recent tagged calls, denies at the threshold.

    Abstains on untagged calls and on chains below the threshold: it never vouches for a call.
    A call it does not deny is remembered at once, whatever the other gates or the user decide
    next: an attempt shows intent as much as a success does.

    :param settings: ``[tools.risk_chain]``.
    :param extra_wrappers: ``[tools.shell] extra_wrappers``, so wrapped commands are seen.
    """

    name = "risk_chain"

    def __init__(self, settings: RiskChainSettings, extra_wrappers: Iterable[str] = ()) -> None:
        self.settings = settings
        self.extra_wrappers = tuple(extra_wrappers)

    def tags(self, call: ToolCall, tool: ToolDef) -> frozenset[Tag]:
        """What ``call`` is tagged with.

        :param call: the call, parameters validated.
        :param tool: its definition.
        :returns: the tags.
        """
        if tool.id in self.settings.egress_tools:
            return _EGRESS
        if tool.id in self.settings.shell_tools:
            return shell_tags(call.input_text(tool), extra_wrappers=self.extra_wrappers)
        params = call.params if isinstance(call.params, Mapping) else {}
        found: set[Tag] = set()
        for key, value in params.items():
            if key not in PATH_PARAMS:
                continue
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str):
                    found |= text_tags(text)
        if Tag.SENSITIVE_READ in found:
            found.discard(Tag.CREDENTIAL_ACCESS)  # one read, as for a single path
        return frozenset(found)

    @hookimpl
    def tooldeck_check_call(
        self, call: ToolCall, tool: ToolDef, runtime: Runtime
    ) -> Decision | None:
        """Deny a tagged call whose chain reaches the threshold; otherwise abstain."""
        tags = self.tags(call, tool)
        if not tags:
            return None
        settings = self.settings
        history = runtime.session.setdefault(HISTORY, ChainHistory)
        step = Step(tags, call.turn)
        chain = score_chain([*history.recent(call.caller_id, call.turn, settings.window_turns),
                             step])
        if chain.score >= settings.threshold:
            return Decision(
                Verdict.DENY,
                f"risk chain blocked: {chain.describe()} (score {chain.score:.2f})",
                gate=self.name,
                rule=chain.describe(),
            )
        history.record(call.caller_id, step, settings.max_calls)
        return None
