"""memory-lab: tiered long-term memory for chat assistants, and the means to measure it.

Map of the library:

- `types`: records (Message, Episode, Fact, MemoryEvent, ContextBundle, ...).
- `config`: frozen configuration and the named trigger recipes (`recipe("A+B")`).
- `clock`, `tokens`, `embeddings`: injected time, offline token counting, local embeddings.
- `stores`: transcript, facts and events on SQLite; episodes on ChromaDB; in-memory references.
- `triggers`: compression triggers A (messages), B (tokens), C (time), any-of combinations.
- `compression`: spans of turns into episodes and the running summary.
- `reconciliation`, `fact_memory`: fact writes (add, supersede, confirm, flag), lifecycle.
- `retrieval`, `assembly`: facts and episodes into a context under hard token budgets.
- `brains`: the offline rule-based brain and the OpenAI-compatible LLM brain.
- `graph`: the LangGraph state machine; `engine.MemoryEngine` drives it.
- `tools`: memory tools for an agent; `suggestions`: proactive prompts.
"""

from memory_lab.clock import ManualClock, SystemClock
from memory_lab.config import MemoryConfig, Recipe, recipe
from memory_lab.engine import MemoryEngine
from memory_lab.errors import MemoryLabError
from memory_lab.types import ContextBundle, Episode, Fact, MemoryEvent, Message

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
