"""``[[tools.risk_chain.examples]]``: calls and the exact tags the risk chain must give them.

The tags are the chain's rules: which calls count as network egress, a sensitive read, a
system write. What a call is tagged with depends on the configuration (``shell_tools``,
``egress_tools``, ``[tools.shell] extra_wrappers``), so an operator who changes those can
pin the result::

    [tools.risk_chain]
    shell_tools = ["bash", "run"]

    [[tools.risk_chain.examples]]
    tool = "run"
    input = "scp build.tar deploy@host:"
    tags = ["network_egress"]

    [[tools.risk_chain.examples]]
    tool = "bash"
    input = "grep -r curl docs/"
    tags = []

Each example is tagged (not scored: a chain needs history) once the runtime is configured, on
start-up and on every reload; a failing one refuses the configuration, naming the file, the
line and the example, and a running deck keeps its last good policy.
"""

from __future__ import annotations

from tooldeck.errors import ConfigError
from tooldeck.judge import recorded_params
from tooldeck.models import ToolCall
from tooldeck.plugins.risk_chain.gate import RiskChainGate
from tooldeck.plugins.risk_chain.settings import TagExample
from tooldeck.runtime import Runtime
from tooldeck.toml_lines import array_table_lines

__all__ = ["check_tag_examples"]

def check_tag_examples(runtime: Runtime, gate: RiskChainGate,
                       examples: tuple[TagExample, ...]) -> int:
    """Tag every example with ``gate``; how many there were.

    :param runtime: the runtime being configured (its tools give the examples' parameters).
    :param gate: a gate built from the runtime's settings.
    :param examples: the examples.
    :returns: the number of examples, all of which passed.
    :raises ConfigError: an example naming an unknown tool, or tagged otherwise.
    """
    if not examples:
        return 0
    doc = runtime.settings.document
    lines = array_table_lines(doc.text, ("tools", "risk_chain", "examples"), len(examples))
    for index, example in enumerate(examples):
        key = f"tools.risk_chain.examples[{index}]"
        where = f"{doc.label}:{lines[index]}" if lines else doc.label
        tool = runtime.tools.get(example.tool)
        if tool is None:
            raise ConfigError(f"{where}: {key}: unknown tool {example.tool!r}",
                              path=doc.label, key=key)
        call = ToolCall(example.tool, recorded_params(tool, example.input))
        found = sorted(tag.label for tag in gate.tags(call, tool))
        if found != sorted(set(example.tags)):
            raise ConfigError(f"{where}: {key}: {example.tool} {example.input!r} should be "
                              f"tagged {sorted(set(example.tags))} but is tagged {found}",
                              path=doc.label, key=key)
    return len(examples)
