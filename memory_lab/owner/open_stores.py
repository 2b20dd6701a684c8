"""What owner control uses of an open memory: its stores and its settings.

Retention, "forget me" and the trash run where an engine holds the stores open.
They read and write through this protocol, not the graph's runtime context, so
`owner/` sits below the graph and works on any object that offers these parts
(the engine's `Deps` does).
"""

from __future__ import annotations

from typing import Protocol

from memory_lab.config import MemoryConfig
from memory_lab.episodes.periods import PeriodSummaries
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.facts.memory import FactMemory
from memory_lab.jobs.committed import CommittedEpisodeStore
from memory_lab.jobs.ledger import JobLedger
from memory_lab.stores.base import EventLog, TranscriptStore


class OpenStores(Protocol):
    """An open memory's stores, as the purge tiers, retention and trash use them."""

    @property
    def transcript(self) -> TranscriptStore:
        """Every turn."""
        ...

    @property
    def episodes(self) -> CommittedEpisodeStore:
        """Committed episodes; `.index` is the search index."""
        ...

    @property
    def jobs(self) -> JobLedger:
        """The ledger, and through `.db` the database every SQL store shares."""
        ...

    @property
    def facts(self) -> FactMemory:
        """Facts; `.store` holds the rows a purge removes."""
        ...

    @property
    def events(self) -> EventLog:
        """The event log."""
        ...

    @property
    def periods(self) -> PeriodSummaries | None:
        """Day and week summaries, when kept."""
        ...

    @property
    def excerpts(self) -> TurnIndex:
        """The turn-vector cache, dropped for a tenant whose turns go."""
        ...

    @property
    def config(self) -> MemoryConfig:
        """The retention policy and the LLM settings (its response cache)."""
        ...
