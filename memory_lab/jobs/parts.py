"""The engine's parts that planning and the background jobs may use.

The graph's `Deps` carries every part any node may need (live sources, memory
tools, sessions...). Planning and the jobs declare here the few they read and
write, so they depend on those parts and not on the graph, a change to the
graph's context cannot reach them unnoticed, and a test can hand them just
these. `Deps` satisfies both protocols as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from memory_lab.brains.base import Brain
    from memory_lab.config import MemoryConfig
    from memory_lab.episodes.turn_index import TurnIndex
    from memory_lab.facts.memory import FactMemory
    from memory_lab.jobs.committed import CommittedEpisodeStore
    from memory_lab.jobs.ledger import JobLedger
    from memory_lab.stores.base import EventLog, TranscriptStore
    from memory_lab.tokens import TokenCounter


class PlanningParts(Protocol):
    """What a turn's trigger decision and job recording use."""

    @property
    def transcript(self) -> TranscriptStore:
        """The turns: the triggers' span, a job's turns."""

    @property
    def jobs(self) -> JobLedger:
        """The ledger: watermarks, owed jobs, committed results."""

    @property
    def events(self) -> EventLog:
        """Where a fired trigger or a job's outcome is logged."""

    @property
    def config(self) -> MemoryConfig:
        """The recipe, window and retention settings."""

    @property
    def counter(self) -> TokenCounter:
        """Token counts for the token trigger and summaries."""

    @property
    def excerpts(self) -> TurnIndex:
        """The turn index: window vectors for topic shift; compressed turns leave it."""


class JobParts(PlanningParts, Protocol):
    """What a compression or an extraction job uses, beyond planning's parts."""

    @property
    def brain(self) -> Brain:
        """What summarises a span and reads facts from it."""

    @property
    def episodes(self) -> CommittedEpisodeStore:
        """Episodes written beside the ledger's record of them."""

    @property
    def facts(self) -> FactMemory:
        """Where extracted facts are reconciled and stored."""
