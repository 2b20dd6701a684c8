"""memory-lab: tiered long-term memory for chat assistants, and the means to measure it.

Map of the library:

- `types`: records (Message, Episode, Fact, MemoryEvent, ContextBundle, ...).
- `config`: frozen configuration, every result-changing number included, and the
  fact category policy; `recipes`: the named trigger recipes (`recipe("A+B")`)
  and the one spec grammar (`NAME(k=v,...)`, `NAME:k=v,...`).
- `events`: event kinds, deterministic ids, `make_event`.
- `clock`, `tokens`, `embeddings`, `validation`, `errors`: injected time, offline
  token counting, local embeddings, input checks, the error types.
- `text`: shared text vocabulary: stop words, sentences, escaping memory as data,
  turn lines, truncation to a token budget.
- `fusion`: reciprocal rank fusion, shared by the turn index, the offline
  answerer and the hybrid baseline.
- `triggers/`: the trigger protocol and its registry (`register`, plug-ins, entry
  points); A messages, B tokens, C time, D topic shift, one module each; `running`
  asks a recipe's triggers, each guarded, any-of.
- `window/`: the session window's running `summary`, and its `view` (the turns
  past the compression watermark, and the guard that reads them with the
  episodes and facts at one committed state).
- `restatement`: which spans of a reply restate its context, and `memory_view`,
  the turns as memory is built from them (replies without what they restated).
- `episodes/`: `compression` (a span of turns into episodes), `search` (episodes
  by meaning, re-ranked by the query's words), `excerpts` (BM25 over their turns),
  `periods` (daily summaries and weekly roll-ups).
- `facts/`: `reconciliation` (the pure write decision and what it says),
  `memory` (FactMemory: reconciled writes, lifecycle, reads), `active_view` (the
  indexed active facts a query ranks), `ranking` (the one fact order and the
  core), `grouping` (facts of one kind, by meaning), `folding` (which facts
  consolidation folds) and `consolidation` (the brain's grounded value for them),
  `gathering` (a person's values over time, dated), `timeline` (as-of queries on
  valid and record time), `valid_time`, `dedup` (one fact per meaning), `commands`
  and `explicit` (remember / forget / correct), `suggestions`, `tools` (memory
  tools for an agent, and what the engine offers a replying model with agentic
  memory on).
- `context/`: `assembly` (pure, budgeted, delimited as data) and `build`
  (retrieve from every tier, then assemble).
- `brains/`: the protocol (results carry tenant-free notes; `usage()` counts),
  `status` (what a brain's model is doing: replies and memory work, each ready,
  busy or failing over);
  `offline/` (the default brain, no model: `parse/` reads facts from a
  dependency parse, `rules/` is the pattern table) and `llm/`
  (OpenAI-compatible: `brain`, `endpoint`, `breaker`, `extraction`,
  `grounding`, `tool_loop` (a reply with memory tools: calls, results, the
  round limit)); `prompts/`: one module per LLM task.
- `stores/`: transcript, facts and events on SQLite (or Postgres, by URL through
  `databases`; one `schema` and its migrations for both); episodes on ChromaDB;
  in-memory references.
- `jobs/`: the durable job ledger, its planning, the background worker and
  `parts` (the few engine parts planning and the jobs may use).
- `concurrency/`: every lock's name and what it guards, their one declared order
  (`lock_order`), the checker the tests switch on (`lock_checker`), and
  `blas_threads` (one BLAS thread for a process that asks for it).
- `llm_client/`: the one chat client (cache, retries, usage) and the local
  server launcher; the brain that talks through it is `brains/llm/`.
- `sessions/`: each thread's session lifecycle (`lifecycle`: open, idle,
  closed, resumed on the clock, pure; `store`; `tracking`: a step's transitions
  stored and logged as events).
- `chats/`: a tenant's chats (`catalog`: titles, search, a trash with a restore
  window).
- `owner/`: what the memory's owner controls: `export` and `restore` (one
  tenant as JSON lines, and back), `purge` (content removed for real from a
  folder's files, with a tombstone, resumed after a kill), `held` (the same
  tiers on the stores an engine holds open: "forget me", Postgres, retention),
  `trash_bin` (facts and episodes deleted, restorable), `empty_trash` (what is
  past its restore window, purged), `retention` (each tier's age limit, applied
  by the maintenance graph).
- `data/`: the built-in conversation the app and `replay` start from.
- `graph/`: the LangGraph state machine (state, deps, nodes, routing, build);
  `engine.MemoryEngine` drives it; `snapshot.MemorySnapshot` is the read model.

The public API is `api.Memory` (open a location, add turns, read a context,
search, remember / forget / correct / confirm, export, purge) and the adapters in
`adapters/` (an MCP server, a LangGraph store, a LangChain chat history). Code
outside the library imports only the names in `__all__` and the modules in
`PUBLIC_MODULES`; everything else may change without notice.

Names below are imported on first use, so importing one small module stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from memory_lab.stores.chroma_telemetry import telemetry_off

# Chroma's anonymous usage telemetry is off in every process that imports the
# library (and the processes it starts), unless the user set it themselves.
telemetry_off()

_EXPORTS = {
    "Memory": "memory_lab.api",
    "LocationError": "memory_lab.api",
    "Hit": "memory_lab.types",
    "ContextBundle": "memory_lab.types",
    "Episode": "memory_lab.types",
    "Fact": "memory_lab.types",
    "MemoryEvent": "memory_lab.types",
    "Message": "memory_lab.types",
    "ManualClock": "memory_lab.clock",
    "SystemClock": "memory_lab.clock",
    "MemoryConfig": "memory_lab.config",
    "Recipe": "memory_lab.config",
    "recipe": "memory_lab.recipes",
    "MemoryEngine": "memory_lab.engine",
    "MemoryLabError": "memory_lab.errors",
    "mermaid": "memory_lab.graph",
    "use_one_blas_thread": "memory_lab.concurrency.blas_threads",
}

__all__ = [
    "Memory",
    "LocationError",
    "Hit",
    "PUBLIC_MODULES",
    "ContextBundle",
    "Episode",
    "Fact",
    "ManualClock",
    "MemoryConfig",
    "MemoryEngine",
    "MemoryEvent",
    "MemoryLabError",
    "Message",
    "Recipe",
    "SystemClock",
    "mermaid",
    "recipe",
    "use_one_blas_thread",
]

PUBLIC_MODULES = (
    "memory_lab",
    "memory_lab.api",
    "memory_lab.api_views",
    "memory_lab.items",
    "memory_lab.types",
    "memory_lab.errors",
    "memory_lab.config",
    "memory_lab.recipes",
    "memory_lab.clock",
    "memory_lab.snapshot",
    "memory_lab.chats",
    "memory_lab.brains.status",
    "memory_lab.triggers",
    "memory_lab.owner",
    "memory_lab.vector_cache",
    "memory_lab.llm_client.local_server",
    "memory_lab.adapters",
    "memory_lab.adapters.mcp_server",
    "memory_lab.adapters.mcp_auth",
    "memory_lab.adapters.langgraph",
    "memory_lab.adapters.langchain",
)
"""Modules code outside the library may import: the API, its records and
settings, the read model the app shows, the trigger plug-in protocol, the
owner's control, the embedding cache file, the local model server, and the
adapters. Everything else is the library's own.

- `api_views`: what `Memory` gives an app beyond the basics (`Step`, chats, trash).
- `chats`: the chat records `Memory.chats` returns (`Chat`, `SearchHit`, `ChatError`).
- `brains.status`: the read model `Memory.model_status` returns (each model lane)."""

if TYPE_CHECKING:
    from memory_lab.api import LocationError, Memory
    from memory_lab.clock import ManualClock, SystemClock
    from memory_lab.concurrency.blas_threads import use_one_blas_thread
    from memory_lab.config import MemoryConfig, Recipe
    from memory_lab.engine import MemoryEngine
    from memory_lab.errors import MemoryLabError
    from memory_lab.graph import mermaid
    from memory_lab.recipes import recipe
    from memory_lab.types import (
        ContextBundle,
        Episode,
        Fact,
        Hit,
        MemoryEvent,
        Message,
    )


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'memory_lab' has no attribute {name!r}")
