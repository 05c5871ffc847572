"""The tool dependency graph (``[tools.dependencies]``): prerequisites and preferences.

A rule ``[tools.dependencies.rules.deploy]`` with ``requires = ["build", "test"]`` keeps
``deploy`` out of the tools sent to the model until ``build`` and ``test`` have completed
successfully in the session; ``prefers = ["lint"]`` raises its similarity score by
``boost_per_dep`` per completed preferred tool, ``max_total_boost`` at most.

=====================  ======================================================================
rule                   behaviour
=====================  ======================================================================
cycles                 found when the graph is built, by an iterative depth-first search
                       over ``requires``; on an edge back to a tool still on the search
                       stack, every tool on the stack and the target lose their
                       ``requires`` (a self-loop too). Searches start from the tools in name
                       order, so a tool that only leads into a cycle is released when the
                       search reaches the cycle through it. A separate acyclic part stays
                       gated
requirements met       a tool without a rule always; else when every required tool is in
                       the session's completed set
bypass                 tools included as ``always_on`` or ``name_mentioned`` are never gated
deadlock fallback      when the tools that would be gated are at least as many as the
                       included tools outside ``always_on``, nothing is gated this time
                       (gating would leave the model nothing to make progress with)
boost                  each included tool's score rises by ``min(boost_per_dep * completed
                       prefers, max_total_boost)``; tools are re-sorted by score
=====================  ======================================================================

The graph never stops a call: it only decides what is offered (see
:mod:`tooldeck.schema_filter`).
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING

import attrs

from tooldeck.schema_filter import FilterResult, Inclusion, Reason

if TYPE_CHECKING:
    from tooldeck.config import DependencyConfig

__all__ = ["DependencyGraph", "find_cyclic"]

_WHITE, _GREY, _BLACK = 0, 1, 2


def find_cyclic(requires: Mapping[str, Collection[str]]) -> set[str]:
    """The tools whose ``requires`` take part in a cycle, by the rule in the table above.

    :param requires: each tool's required tools.
    :returns: every tool on the search stack at a back edge, and the edge's target.
    """
    state: dict[str, int] = {}
    cyclic: set[str] = set()
    for root in sorted(requires):
        if state.get(root, _WHITE) != _WHITE:
            continue
        state[root] = _GREY
        stack: list[tuple[str, list[str]]] = [(root, sorted(requires.get(root, ())))]
        while stack:
            node, pending = stack[-1]
            if not pending:
                state[node] = _BLACK
                stack.pop()
                continue
            target = pending.pop(0)
            seen = state.get(target, _WHITE)
            if seen == _GREY:
                cyclic.update(name for name, _rest in stack)
                cyclic.add(target)
            elif seen == _WHITE:
                state[target] = _GREY
                stack.append((target, sorted(requires.get(target, ()))))
    return cyclic


class DependencyGraph:
    """The rules of ``[tools.dependencies]`` with cycles released.

    :param config: the section.
    """

    def __init__(self, config: DependencyConfig) -> None:
        self.config = config
        requires = {tool: tuple(rule.requires) for tool, rule in config.rules.items()}
        self.released = frozenset(find_cyclic(requires))
        """Tools whose ``requires`` were cleared because they formed a cycle."""
        if self.released:
            print("tooldeck: [tools.dependencies] has a cycle; the requirements of "
                  f"{', '.join(sorted(self.released))} are ignored", file=sys.stderr)
        self._requires = {tool: () if tool in self.released else needs
                          for tool, needs in requires.items()}
        self._prefers = {tool: tuple(rule.prefers) for tool, rule in config.rules.items()}

    def unmet(self, tool_id: str, completed: Collection[str]) -> tuple[str, ...]:
        """The required tools of ``tool_id`` not yet in ``completed``."""
        return tuple(t for t in self._requires.get(tool_id, ()) if t not in completed)

    def requirements_met(self, tool_id: str, completed: Collection[str]) -> bool:
        """True for a tool without requirements, or whose requirements all completed."""
        return not self.unmet(tool_id, completed)

    def boost(self, tool_id: str, completed: Collection[str]) -> float:
        """The score boost of ``tool_id`` from its completed preferred tools."""
        satisfied = sum(1 for t in self._prefers.get(tool_id, ()) if t in completed)
        return min(self.config.boost_per_dep * satisfied, self.config.max_total_boost)

    def apply(self, result: FilterResult, completed: Collection[str],
              always_on: Collection[str]) -> FilterResult:
        """Gate and boost a schema filter's result (see the table above).

        :param result: what the schema filter selected.
        :param completed: the tools that completed successfully in this session.
        :param always_on: ``[agent.tool_filter] always_on``.
        """
        bypass = {Reason.ALWAYS_ON, Reason.NAME_MENTIONED}
        candidates = {inc.tool_id: self.unmet(inc.tool_id, completed)
                      for inc in result.included
                      if not bypass & set(inc.reasons) and self.unmet(inc.tool_id, completed)}
        outside = sum(1 for inc in result.included if inc.tool_id not in always_on)
        if candidates and len(candidates) >= outside:
            print("tooldeck: every offered tool waits for another; dependency gating is off "
                  "for this request", file=sys.stderr)
            candidates = {}
        kept: list[Inclusion] = []
        for inc in result.included:
            if inc.tool_id in candidates:
                continue
            reasons = inc.reasons
            if self._requires.get(inc.tool_id) and self.requirements_met(inc.tool_id,
                                                                        completed):
                reasons += (Reason.DEPENDENCY_MET,)
            boost = self.boost(inc.tool_id, completed)
            if boost:
                reasons += (Reason.PREFERENCE_BOOST,)
            kept.append(attrs.evolve(inc, reasons=reasons, score=inc.score + boost))
        kept.sort(key=lambda inc: -inc.score)
        return FilterResult(tuple(kept), (*result.excluded, *candidates),
                            {**result.dependency_exclusions, **candidates})

    def filter_tool_names(self, names: Iterable[str], completed: Collection[str],
                          always_on: Collection[str]) -> list[str]:
        """The names that are always on or have their requirements met, in order."""
        return [n for n in names if n in always_on or self.requirements_met(n, completed)]
