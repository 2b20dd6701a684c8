"""The speed of the ways in (the MCP server, the LangGraph store), from bench files.

`memory-lab bench --mcp` drives `memory-lab mcp` through the MCP SDK's own
client over stdio; `memory-lab bench --store` searches a `MemoryLabStore`. Each
writes its targets as rows (target, measured, met); this block shows them with
the commit and load they were measured at, and the figures that explain a miss.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import machine_stamp, ms
from memlab_evals.readme.speed import read
from memlab_evals.reports.report import markdown_table

MCP = Path("benchmarks/results/bench-mcp.json")
STORE = Path("benchmarks/results/bench-store.json")


def _met(met: bool | None) -> str:
    return "not measured" if met is None else ("yes" if met else "no")


def agents_block(root: Path) -> str:
    """The MCP and store targets, and what a recall costs with and without adds."""
    mcp_run, store = read(root, MCP), read(root, STORE)
    mcp = mcp_run["mcp"]
    rows = [(t["target"], t["measured"], _met(t["met"])) for t in mcp_run["targets"]]
    target = store["target"]
    rows.append(
        (
            target["target"],
            f"{target['measured']} ({store['location']}, "
            f"p50 {ms(store['search']['query']['p50_ms'])}; the query's "
            f"embedding alone p50 {ms(store['search']['embed_query']['p50_ms'])})",
            _met(target["met"]),
        )
    )
    table = pd.DataFrame(rows, columns=["target", "measured", "met"])
    idle, recall = mcp["memory_recall_idle"], mcp["memory_recall"]
    local = mcp["recall_in_process"]
    return "\n".join(
        [
            f"From `{MCP.as_posix()}` ({machine_stamp(mcp_run)}) and "
            f"`{STORE.as_posix()}` ({machine_stamp(store)}).",
            "",
            markdown_table(table),
            "",
            f"Each `memory_recall` follows a `memory_add`, whose compression and "
            f"extraction run on the server's worker thread meanwhile: the same "
            f"recalls with no turns arriving take p50 {ms(idle['p50_ms'])}, p95 "
            f"{ms(idle['p95_ms'])} (against p50 {ms(recall['p50_ms'])}, p95 "
            f"{ms(recall['p95_ms'])}), and `Memory.context` in the server's "
            f"process p95 {ms(local['p95_ms'])}; the protocol's round trip is "
            f"a few ms of it.",
        ]
    )
