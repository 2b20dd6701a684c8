"""The sizes of a quick and a full benchmark run."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from memlab_evals.systems import names, pick

STAGES = ("ingest", "burst", "retrieval", "growth", "locomo_eval", "mcp")
"""Every stage of a full run, in the order it runs."""


@dataclass(frozen=True)
class Mode:
    """How much each benchmark does."""

    name: str
    stages: tuple[str, ...] = STAGES[:4]
    recipes: tuple[str, ...] = ("A", "B", "C")
    baselines: tuple[str, ...] = field(default_factory=lambda: names("baseline"))
    """Every registered baseline, timed on the recipes' turns."""
    growth_baselines: tuple[str, ...] = field(default_factory=lambda: names("baseline"))
    """Baselines grown beside the recipes; the quick run keeps the cheap ones."""
    ingest_turns: int = 40
    retrieval_sizes: tuple[int, ...] = (1_000, 10_000)
    retrieval_queries: int = 8
    # Distinct texts embedded for real; bulk-loaded episodes reuse their vectors.
    retrieval_pool: int = 512
    growth_checkpoints: tuple[int, ...] = (100, 200, 400)
    questions: int = 4
    growth_rounds: int = 5
    """Timed rounds of the questions at each growth checkpoint, after one untimed
    round: five calls gave a p50 that moved by 2-3x between two runs."""
    budget: int = 1500
    burst_recipes: tuple[str, ...] = ("A",)
    burst_messages: int = 1_000
    mcp_turns: int = 2_000
    """Turns in the memory the MCP server serves while its tools are timed."""
    mcp_calls: int = 100
    """Timed rounds of memory_recall, then memory_add, through the SDK's client."""


QUICK = Mode(
    name="quick",
    stages=(*STAGES[:4], "mcp"),
    growth_baselines=pick("full", "window", "rag-bm25"),
    retrieval_sizes=(300, 3_000),
    retrieval_pool=128,
    growth_checkpoints=(50, 100, 150),
    questions=3,
    burst_messages=400,
    mcp_turns=300,
    mcp_calls=30,
)
"""The trends, not the headline sizes: a tenfold store, a conversation past the
budget, a burst; about a minute on two idle cores (`stage_seconds` in its JSON)."""

FULL = Mode(
    name="full",
    ingest_turns=400,
    retrieval_sizes=(1_000, 10_000, 100_000),
    retrieval_queries=30,
    growth_checkpoints=(100, 1_000, 3_000, 10_000),
    questions=5,
    stages=STAGES,
    burst_recipes=("A", "B", "C"),
)
"""The full sizes: 100k memories, 10,000-turn conversations, the LoCoMo dev eval."""

GROWTH = replace(FULL, name="growth", stages=("growth",))
"""The full run's growth stage alone: context latency from 100 to 10,000 turns."""

SCALE = replace(FULL, name="scale", stages=("retrieval",))
"""The full run's 100k stage alone: retrieval and assembly at 1k, 10k, 100k."""

MCP = replace(FULL, name="mcp", stages=("mcp",))
"""The MCP stage alone: memory_add and memory_recall over stdio, 2,000 turns."""

MODES = {m.name: m for m in (QUICK, FULL, GROWTH, SCALE, MCP)}
