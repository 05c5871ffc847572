"""The schema filter (§9.3) and the dependency graph (§9.4): every row of zeph-test-cases §6."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from tooldeck.config import DependencyConfig, DependencyRule, ToolFilterConfig
from tooldeck.dependencies import DependencyGraph, find_cyclic
from tooldeck.models import ToolDef
from tooldeck.schema_filter import (
    FilterResult,
    Inclusion,
    Reason,
    SchemaFilter,
    cosine,
    mentions,
    select,
)


class P(BaseModel):
    x: str = ""


def tool(tool_id: str, description: str = "does a thing with several words here") -> ToolDef:
    return ToolDef(id=tool_id, description=description, params=P, executor="none")


def deps(rules: dict[str, dict[str, list[str]]], **options: Any) -> DependencyGraph:
    return DependencyGraph(DependencyConfig(
        enabled=True, rules={k: DependencyRule(**v) for k, v in rules.items()}, **options))


def included(*ids: str, reason: Reason = Reason.NO_EMBEDDING,
             scores: dict[str, float] | None = None) -> FilterResult:
    return FilterResult(tuple(Inclusion(i, (reason,), (scores or {}).get(i, 0.0)) for i in ids))


# ---------------------------------------------------------------- schema filter rows


def test_read_inside_thread_is_not_a_mention() -> None:
    assert not mentions("start a thread for this", "read")
    assert mentions("please READ the file", "read")
    assert mentions("use read_file.", "read_file")
    assert not mentions("use read_file", "read")        # '_' is a word character
    assert mentions("(bash)", "bash")
    assert mentions("é bash é", "bash")                 # only ASCII neighbours count


@pytest.mark.parametrize(("a", "b", "expected"), [
    ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 1.0),
    ([1.0, 0.0], [0.0, 1.0], 0.0),
    ([], [], 0.0),
    ([1.0, 2.0], [1.0, 2.0, 3.0], 0.0),
    ([0.0, 0.0], [0.0, 0.0], 0.0),
])
def test_cosine_rows(a: list[float], b: list[float], expected: float) -> None:
    assert cosine(a, b) == pytest.approx(expected)


def test_inclusion_order_and_reasons() -> None:
    config = ToolFilterConfig(enabled=True, always_on=("memo",), top_k=1,
                              min_description_words=3)
    tools = [tool("memo"), tool("grep", "search file contents by regex"),
             tool("tiny", "two words"), tool("fetch", "download a web page as text"),
             tool("deploy", "ship the build to production servers"), tool("bare")]
    vectors = {"grep": [1.0, 0.0], "fetch": [0.0, 1.0], "deploy": [0.6, 0.8]}
    result = select("use grep, then get the web page", tools, config, vectors, [0.0, 1.0])
    assert [(i.tool_id, i.reasons[0]) for i in result.included] == [
        ("memo", Reason.ALWAYS_ON), ("grep", Reason.NAME_MENTIONED),
        ("tiny", Reason.SHORT_DESCRIPTION), ("fetch", Reason.SIMILARITY_RANK),
        ("bare", Reason.NO_EMBEDDING)]
    assert result.excluded == ("deploy",)


def test_top_k_zero_keeps_every_embedded_tool() -> None:
    config = ToolFilterConfig(enabled=True, always_on=(), top_k=0)
    tools = [tool("a"), tool("b")]
    result = select("q", tools, config, {"a": [1.0], "b": [1.0]}, [1.0])
    assert result.tool_ids == ["a", "b"] and result.excluded == ()


async def test_lexical_embedder_ranks_the_relevant_tool_first(make_deck: Any) -> None:
    tools = make_deck().tools()
    schema_filter = SchemaFilter(ToolFilterConfig(enabled=True, always_on=(), top_k=3))
    result = await schema_filter.select("show me a web page as markdown", tools)
    assert result.included[0].tool_id == "fetch"
    assert schema_filter.version == 1
    await schema_filter.select("another query", tools)
    assert schema_filter.version == 1  # embeddings are kept while the tools are the same
    await schema_filter.select("another query", tools[:-1])
    assert schema_filter.version == 2


async def test_a_dense_embedder_is_used_when_given() -> None:
    async def embed(texts: Any) -> list[list[float]]:
        return [[1.0, 0.0] if "alpha" in t else [0.0, 1.0] for t in texts]

    tools = [tool("one", "alpha things done well"), tool("two", "beta things done well")]
    config = ToolFilterConfig(enabled=True, always_on=(), top_k=1)
    result = await SchemaFilter(config, embed).select("beta please", tools)
    assert result.tool_ids == ["two"]


@given(st.text(max_size=60), st.text(max_size=60),
       st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True))
def test_a_mention_is_the_id_between_non_word_characters(before: str, after: str,
                                                          tool_id: str) -> None:
    assert mentions(f"{before} {tool_id.upper()} {after}", tool_id)
    assert not mentions(f"x{tool_id}x", tool_id)          # only word characters around it
    if mentions(before, tool_id):
        assert tool_id in before.lower()


# ---------------------------------------------------------------- dependency chain rows

CHAIN = {"format_results": {"requires": ["search"]}, "save": {"requires": ["format_results"]}}


def test_chain_turn_1_only_search() -> None:
    result = deps(CHAIN).apply(included("search", "format_results", "save"), set(), ())
    assert result.tool_ids == ["search"]
    assert result.dependency_exclusions == {"format_results": ("search",),
                                            "save": ("format_results",)}


def test_chain_turn_2_format_results_unlocked() -> None:
    result = deps(CHAIN).apply(included("search", "format_results", "save"), {"search"}, ())
    assert result.tool_ids == ["search", "format_results"]
    assert list(result.dependency_exclusions) == ["save"]
    assert Reason.DEPENDENCY_MET in result.included[1].reasons


def test_chain_turn_3_all_available() -> None:
    result = deps(CHAIN).apply(included("search", "format_results", "save"),
                               {"search", "format_results"}, ())
    assert result.tool_ids == ["search", "format_results", "save"]
    assert result.dependency_exclusions == {}


def test_deadlock_keeps_both_and_clears_exclusions() -> None:
    graph = deps({"tool_a": {"requires": ["x"]}, "tool_b": {"requires": ["y"]}})
    start = FilterResult((Inclusion("bash", (Reason.ALWAYS_ON,), 1.0),
                          Inclusion("tool_a", (Reason.NO_EMBEDDING,), 0.0),
                          Inclusion("tool_b", (Reason.NO_EMBEDDING,), 0.0)))
    result = graph.apply(start, set(), always_on=("bash",))
    assert sorted(result.tool_ids) == ["bash", "tool_a", "tool_b"]
    assert result.dependency_exclusions == {}


def test_no_deadlock_gates_the_gated_tool() -> None:
    result = deps({"gated_tool": {"requires": ["x"]}}).apply(
        included("gated_tool", "free_tool"), set(), ())
    assert result.tool_ids == ["free_tool"]
    assert result.excluded == ("gated_tool",)


@pytest.mark.parametrize("rules", [
    {"A": ["B"], "B": ["A"]},
    {"A": ["C"], "C": ["B"], "B": ["A"]},
    {"A": ["A"]},
])
def test_cycles_are_released(rules: dict[str, list[str]]) -> None:
    graph = deps({k: {"requires": v} for k, v in rules.items()})
    assert graph.released == set(rules)
    assert all(graph.requirements_met(t, set()) for t in rules)


def test_mixed_acyclic_part_stays_gated() -> None:
    graph = deps({"A": {"requires": ["B"]}, "C": {"requires": ["D"]},
                  "D": {"requires": ["C"]}})
    assert graph.released == {"C", "D"}
    assert not graph.requirements_met("A", set())
    assert graph.requirements_met("A", {"B"})


def test_find_cyclic_marks_the_search_stack() -> None:
    # Zeph's rule: the whole stack at the back edge, so A (which leads into the cycle) too
    # when the search starts from it (roots are taken in name order)
    assert find_cyclic({"A": ["C"], "C": ["D"], "D": ["C"]}) == {"A", "C", "D"}
    assert find_cyclic({"X": ["C"], "C": ["D"], "D": ["C"]}) == {"C", "D"}
    assert find_cyclic({"A": ["B"], "B": []}) == set()


@pytest.mark.parametrize(("satisfied", "boost"), [(3, 0.20), (1, 0.15), (0, 0.0)])
def test_boost(satisfied: int, boost: float) -> None:
    graph = deps({"format": {"prefers": ["p1", "p2", "p3"]}})
    assert graph.boost("format", {f"p{i}" for i in range(1, satisfied + 1)}) == (
        pytest.approx(boost))


def test_boost_resorts_by_score() -> None:
    graph = deps({"format": {"prefers": ["a", "b", "c"]}})
    start = included("format", "other", reason=Reason.SIMILARITY_RANK,
                     scores={"format": 0.30, "other": 0.60})
    result = graph.apply(start, {"a", "b", "c"}, ())
    assert [(i.tool_id, round(i.score, 6)) for i in result.included] == [
        ("other", 0.6), ("format", 0.5)]
    assert result.included[1].reasons == (Reason.SIMILARITY_RANK, Reason.PREFERENCE_BOOST)


@pytest.mark.parametrize("reason", [Reason.ALWAYS_ON, Reason.NAME_MENTIONED])
def test_bypassing_tools_with_impossible_requires_are_kept(reason: Reason) -> None:
    graph = deps({"special": {"requires": ["never"]}})
    start = FilterResult((Inclusion("special", (reason,), 1.0),
                          Inclusion("free", (Reason.NO_EMBEDDING,), 0.0)))
    result = graph.apply(start, set(), always_on=("special",) if reason is Reason.ALWAYS_ON
                         else ())
    assert result.tool_ids == ["special", "free"] and result.dependency_exclusions == {}


def test_unknown_required_id_on_the_only_tool_is_kept_by_the_fallback() -> None:
    result = deps({"lonely": {"requires": ["does_not_exist"]}}).apply(
        included("lonely"), set(), ())
    assert result.tool_ids == ["lonely"]


def test_filter_tool_names() -> None:
    graph = deps({"apply_patch": {"requires": ["read"]}, "save": {"requires": ["write"]}})
    names = ["bash", "read", "apply_patch", "save", "free_tool"]
    assert graph.filter_tool_names(names, {"read"}, ()) == [
        "bash", "read", "apply_patch", "free_tool"]


def test_dependency_config_default() -> None:
    config = DependencyConfig()
    assert (config.enabled, config.boost_per_dep, config.max_total_boost, config.rules) == (
        False, 0.15, 0.2, {})


def test_the_sections_are_validated(make_deck: Any) -> None:
    from tooldeck.errors import ConfigError

    with pytest.raises(ConfigError, match=r"tools\.dependencies\.rules\.edit\.requirez"):
        make_deck("[tools.dependencies.rules.edit]\nrequirez = ['read']\n")
    with pytest.raises(ConfigError, match=r"agent\.tool_filter\.top_k"):
        make_deck("[agent.tool_filter]\ntop_k = -1\n")
    deck = make_deck("[agent.tool_filter]\nenabled = true\n[tools.dependencies]\nenabled = true\n"
                     "[tools.dependencies.rules.edit]\nrequires = ['read']\n")
    core = deck.runtime.settings.core
    assert core.tool_filter.always_on == ("read_overflow",)
    assert core.dependencies.rules["edit"].requires == ("read",)
