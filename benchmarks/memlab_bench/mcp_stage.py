"""The MCP server as its clients meet it: `memory_add` and `memory_recall` latency.

A memory of `turns` turns is loaded in this process and its memory work
finished; then `memory-lab mcp` serves it from a new process, and the SDK's own
client (`stdio_client` + `ClientSession`) plays what a chat host does at each
exchange: `memory_recall` of a question, then `memory_add` of the next turn.
Each call is timed from the request to its reply, so the JSON-RPC framing and
the pipes are in the figure; the first round is untimed (the server loads its
models on first use). The memory work the adds cause runs on the server's
worker meanwhile, as it would in use. Beside them, the same recalls are timed
alone through the server before any turn arrives, and directly on the loaded
memory in this process: the transport's share, and the background work's, can
be read off the three. The server runs the offline brain.

Targets: p95 <= 50 ms for each tool on a memory of 2,000 turns.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from memlab_bench.stats import summarize_ms
from memory_lab.types import Message

TARGET_P95_MS = 50.0
"""The most `memory_add` and `memory_recall` may take at p95."""
TARGET_TURNS = 2_000
"""The memory size the targets are stated at."""
PRELOAD_BATCH = 40
"""Turns per `Memory.add` while loading: one synthetic session."""
REPO = Path(__file__).resolve().parents[2]


def run_mcp(
    turns: Sequence[Message],
    questions: Sequence[str],
    *,
    preload: int,
    calls: int,
    budget: int,
    recipe: str = "A",
) -> dict:
    """Load `preload` turns, serve them over stdio, time `calls` rounds of recall + add.

    `turns` must hold `preload + calls + 1` turns of one tenant: the memory,
    then one new turn per round (the first round untimed).
    """
    import anyio

    from memory_lab import Memory

    need = preload + calls + 1
    if len(turns) < need:
        raise ValueError(f"turns: need {need}, got {len(turns)}")
    tenant = turns[0].tenant
    with tempfile.TemporaryDirectory(prefix="memlab-bench-mcp-") as tmp:
        data = Path(tmp) / "memory"
        started = time.perf_counter()
        with Memory.open(data, recipe=recipe) as memory:
            for i in range(0, preload, PRELOAD_BATCH):
                memory.add(tenant, turns[i : min(i + PRELOAD_BATCH, preload)])
            memory.flush()
            preload_s = time.perf_counter() - started
            # The same recalls without the server: what the transport adds.
            direct = []
            for i in range(calls):
                t0 = time.perf_counter()
                memory.context(tenant, questions[i % len(questions)], budget=budget)
                direct.append(time.perf_counter() - t0)
        timed = anyio.run(
            _time_calls,
            data,
            tenant,
            recipe,
            turns[preload:need],
            list(questions),
            budget,
            Path(tmp) / "server.log",
        )
    return {
        "transport": "stdio",
        "client": "mcp SDK ClientSession",
        "recipe": recipe,
        "turns": preload,
        "calls": calls,
        "budget": budget,
        "preload_s": round(preload_s, 1),
        **timed,
        "recall_in_process": summarize_ms(direct),
    }


async def _time_calls(
    data: Path,
    tenant: str,
    recipe: str,
    new_turns: Sequence[Message],
    questions: list[str],
    budget: int,
    log: Path,
) -> dict:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    args = ["-m", "memlab_cli.main", "mcp", "--data", str(data), "--tenant", tenant]
    params = StdioServerParameters(
        command=sys.executable, args=[*args, "--recipe", recipe], cwd=REPO
    )
    adds: list[float] = []
    recalls: list[float] = []
    idle: list[float] = []
    context_chars: list[int] = []
    started = time.perf_counter()
    with log.open("w") as err:
        try:
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write, read_timeout_seconds=300) as session,
            ):
                await session.initialize()
                start_s = time.perf_counter() - started
                # Recalls alone first, the memory idle between them: the
                # transport's share, apart from the work the adds set going.
                for i in range(len(new_turns)):
                    query = {"query": questions[i % len(questions)], "budget": budget}
                    t0 = time.perf_counter()
                    await session.call_tool("memory_recall", query)
                    if i:
                        idle.append(time.perf_counter() - t0)
                for i, turn in enumerate(new_turns):
                    t0 = time.perf_counter()
                    recalled = await session.call_tool(
                        "memory_recall",
                        {"query": questions[i % len(questions)], "budget": budget},
                    )
                    t1 = time.perf_counter()
                    added = await session.call_tool(
                        "memory_add",
                        {
                            "messages": [
                                {
                                    "role": turn.role,
                                    "content": turn.content,
                                    "timestamp": turn.timestamp.isoformat(),
                                }
                            ]
                        },
                    )
                    t2 = time.perf_counter()
                    for name, result in (("recall", recalled), ("add", added)):
                        if result.is_error:
                            raise RuntimeError(f"memory_{name}: {result.content}")
                    if i:  # the first round loads the server's models
                        recalls.append(t1 - t0)
                        adds.append(t2 - t1)
                        context_chars.append(len(recalled.content[0].text))
        except Exception as err:
            tail = log.read_text().strip().splitlines()[-5:]
            raise RuntimeError(
                f"MCP stage failed: {err!r}; server said: {tail}"
            ) from err
    return {
        "server_start_s": round(start_s, 1),
        "memory_add": summarize_ms(adds),
        "memory_recall": summarize_ms(recalls),
        "memory_recall_idle": summarize_ms(idle),
        "context_chars_mean": round(sum(context_chars) / max(1, len(context_chars))),
    }


def mcp_targets(mcp: dict) -> list[dict]:
    """The two latency targets, met or not (None below the stated memory size)."""
    full_size = mcp["turns"] >= TARGET_TURNS
    return [
        {
            "target": f"MCP {tool} p95 <= {TARGET_P95_MS:g} ms "
            f"({TARGET_TURNS:,} turns, stdio, the SDK's client)",
            "measured": f"{mcp[tool]['p95_ms']} ms at {mcp['turns']:,} turns "
            f"({mcp[tool]['n']} calls)",
            "met": (mcp[tool]["p95_ms"] <= TARGET_P95_MS) if full_size else None,
        }
        for tool in ("memory_add", "memory_recall")
    ]


def mcp_lines(mcp: dict) -> list[str]:
    """The stage's markdown section."""
    shown = [(t, mcp[t]) for t in ("memory_add", "memory_recall")]
    if "memory_recall_idle" in mcp:
        shown.append(("memory_recall, no turns arriving", mcp["memory_recall_idle"]))
    if "recall_in_process" in mcp:
        shown.append(("Memory.context in process", mcp["recall_in_process"]))
    rows = [
        f"| {tool} | {s['n']} | {s['p50_ms']} / {s['p95_ms']} / {s['max_ms']} |"
        for tool, s in shown
    ]
    return [
        "## MCP server (ms per call)",
        "",
        f"`memory-lab mcp` over stdio on a memory of {mcp['turns']:,} turns "
        f"(recipe {mcp['recipe']}, offline brain), timed by the MCP SDK's own "
        "client from request to reply: each round recalls a question "
        f"(budget {mcp['budget']} tokens) and adds the next turn; the first round "
        "untimed. `no turns arriving`: the same recalls first, alone, the "
        "server idle between them. `Memory.context in process`: the same recalls "
        "made directly "
        "on the loaded memory before the server started, with no turns arriving. "
        f"Loading the memory took {mcp['preload_s']} s, the server's start "
        f"{mcp['server_start_s']} s.",
        "",
        "| tool | calls | p50 / p95 / max |",
        "| --- | --- | --- |",
        *rows,
        "",
    ]
