"""Benchmark: the schema filter choosing among 200 tool schemas with the lexical embedder.

Run: ``python bench/schema_filter.py [--tools 200] [--rounds 200]``.

Prints the time to index the tools once (TF-IDF over ids and descriptions, done again only
when the catalog changes) and the median and 95th-percentile time of one selection (embed
the query, score every tool, apply the inclusion rules, then the dependency graph with 20
rules), in wall time and in CPU time of the thread (a busy machine inflates wall time).
Target: a selection <= 2 ms for 200 tools.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from pydantic import BaseModel

from tooldeck.config import DependencyConfig, DependencyRule, ToolFilterConfig
from tooldeck.dependencies import DependencyGraph
from tooldeck.models import ToolDef
from tooldeck.schema_filter import SchemaFilter

WORDS = [
    "read", "write", "list", "search", "fetch", "page", "file", "directory", "commit",
    "branch", "issue", "ticket", "deploy", "build", "test", "lint", "format", "image", "video",
    "audio", "email", "calendar", "event", "user", "account", "invoice", "payment", "order",
    "shipment", "database", "table", "query", "index", "metric", "alert", "log", "trace",
    "secret", "key", "token", "cluster", "node", "pod", "service", "route", "queue", "message",
    "topic",
]


class Params(BaseModel):
    value: str = ""


def catalog(count: int, rng: random.Random) -> list[ToolDef]:
    tools = []
    for n in range(count):
        verb, noun = rng.choice(WORDS), rng.choice(WORDS)
        description = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 30)))
        tools.append(ToolDef(id=f"{verb}_{noun}_{n}", description=description, params=Params,
                             executor="none"))
    return tools


async def main(count: int, rounds: int) -> None:
    rng = random.Random(7)
    tools = catalog(count, rng)
    config = ToolFilterConfig(enabled=True, top_k=10)
    rules = {tools[i].id: DependencyRule(requires=(tools[i + 1].id,),
                                         prefers=(tools[i + 2].id,)) for i in range(0, 60, 3)}
    graph = DependencyGraph(DependencyConfig(enabled=True, rules=rules))
    schema_filter = SchemaFilter(config)
    started = time.perf_counter()
    await schema_filter.select("warm up", tools)
    index_ms = (time.perf_counter() - started) * 1000
    completed = {tools[i].id for i in range(1, 30, 3)}
    queries = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 15)))
               for _ in range(rounds)]
    wall, cpu = [], []
    for query in queries:
        started, started_cpu = time.perf_counter(), time.thread_time()
        result = await schema_filter.select(query, tools)
        graph.apply(result, completed, config.always_on)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - started_cpu) * 1000)
    print(f"tools: {count}  index once: {index_ms:.2f} ms  (target per selection <= 2 ms)")
    for name, times in (("wall", wall), ("cpu", cpu)):
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"  select {name}: median {statistics.median(times):.3f} ms, "
              f"p95 {p95:.3f} ms, max {times[-1]:.3f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(args.tools, args.rounds))
