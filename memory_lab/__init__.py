"""memory-lab: tiered long-term memory for chat assistants, and the means to measure it.

Map of the library:

- `types`: records (Message, Episode, Fact, MemoryEvent, ContextBundle, ...).
- `config`: frozen configuration and the named trigger recipes (`recipe("A+B")`).
- `clock`, `tokens`, `embeddings`: injected time, offline token counting, local
  embeddings.
- `text`: shared text vocabulary: stop words, sentences, escaping memory as data,
  turn lines, truncation to a token budget.
- `stores`: transcript, facts and events on SQLite; episodes on ChromaDB; in-memory
  references.
- `triggers`: compression triggers A (messages), B (tokens), C (time), any-of
  combinations.
- `compression`: spans of turns into episodes and the running summary.
- `reconciliation`, `fact_memory`: fact writes (add, supersede, confirm, flag),
  lifecycle.
- `retrieval`, `assembly`: facts and episodes into a context under hard token budgets.
- `brains`: the offline rule-based brain and the OpenAI-compatible LLM brain.
- `graph`: the LangGraph state machine; `engine.MemoryEngine` drives it.
- `tools`: memory tools for an agent; `suggestions`: proactive prompts.

Names below are imported on first use, so importing one small module stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "ContextBundle": "memory_lab.types",
    "Episode": "memory_lab.types",
    "Fact": "memory_lab.types",
    "MemoryEvent": "memory_lab.types",
    "Message": "memory_lab.types",
    "ManualClock": "memory_lab.clock",
    "SystemClock": "memory_lab.clock",
    "MemoryConfig": "memory_lab.config",
    "Recipe": "memory_lab.config",
    "recipe": "memory_lab.config",
    "MemoryEngine": "memory_lab.engine",
    "MemoryLabError": "memory_lab.errors",
}

__all__ = [
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
    "recipe",
]

if TYPE_CHECKING:
    from memory_lab.clock import ManualClock, SystemClock
    from memory_lab.config import MemoryConfig, Recipe, recipe
    from memory_lab.engine import MemoryEngine
    from memory_lab.errors import MemoryLabError
    from memory_lab.types import ContextBundle, Episode, Fact, MemoryEvent, Message


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'memory_lab' has no attribute {name!r}")
