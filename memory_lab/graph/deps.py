"""Runtime context: the stores, brain, clock and config a graph run works with.

Passed to `graph.invoke(..., context=deps)`, never held in globals, so tests and
evals can run many independent memories side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.tools import BaseTool

from memory_lab.brains.base import Brain
from memory_lab.clock import Clock
from memory_lab.config import MemoryConfig
from memory_lab.context.live import LiveSources
from memory_lab.episodes.periods import PeriodSummaries
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.facts.memory import FactMemory
from memory_lab.jobs.committed import CommittedEpisodeStore
from memory_lab.jobs.ledger import Job, JobLedger
from memory_lab.sessions.store import SessionStore
from memory_lab.stores.base import EventLog, TranscriptStore
from memory_lab.tokens import TokenCounter
from memory_lab.types import MemoryEvent


@dataclass(frozen=True)
class Deps:
    """What every node may use."""

    transcript: TranscriptStore
    episodes: CommittedEpisodeStore
    """Committed episodes; `.index` is the search index the worker writes."""
    jobs: JobLedger
    """Owed and done memory work, thread watermarks, committed episodes."""
    facts: FactMemory
    events: EventLog
    brain: Brain
    clock: Clock
    config: MemoryConfig
    counter: TokenCounter
    excerpts: TurnIndex
    periods: PeriodSummaries | None = None
    """Daily and weekly summaries, retrieved for questions about a period."""
    live: LiveSources | None = None
    """Live data sources whose current values outrank remembered facts."""
    tools: Callable[[str, str], Sequence[BaseTool]] | None = None
    """Agentic memory: the memory tools of a tenant and session, offered to the
    replying model; None (the default, and always offline) offers none."""
    retention: Callable[[Job], list[MemoryEvent]] | None = None
    """Carries out a retention job on the stores the engine holds; None where
    they cannot delete (memory kept in this process only)."""
    sessions: SessionStore | None = None
    """Each thread's session state (open, idle, closed, resumed); None tracks
    no lifecycle."""
