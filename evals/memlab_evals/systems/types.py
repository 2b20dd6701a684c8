"""What every system under test is and returns: the protocol, its context, its cost.

Its own module so that the registry, the memory recipes, the baselines and the
peers share the types without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

from memlab_evals.running.log import EpisodeStat, StoredFact
from memory_lab.types import Message


class Context(NamedTuple):
    """What a system would inject for one question."""

    text: str
    tokens: int
    items: list[str]
    error: str | None = None
    """Why this context may be incomplete (a peer's failed search or ingest)."""
    tiers: dict[str, str] | None = None
    """The text by the memory tier that put it there (memory recipes only)."""


@dataclass(frozen=True)
class BuildCost:
    """What building the memory cost, for the log's cost columns."""

    brain: str = ""
    calls: int = 0
    tokens: int = 0
    compressions: int = 0
    usage: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RunHealth:
    """How a system fared over one conversation, beside what it cost.

    Peers and memory recipes report one: a library calling an endpoint can fail
    part-way, and a recipe's background memory jobs can fail for good; their
    rows must say so rather than look like a memory that merely forgot.
    """

    status: str = "ok"
    """'ok', 'errors' (some calls failed), 'failed' (it gave up) or 'skipped: why'."""
    errors: dict[str, int] = field(default_factory=dict)
    """Failures by kind, e.g. ``{"ingest:APITimeoutError": 2, "reply_errors": 3}``."""
    events: list[dict[str, str]] = field(default_factory=list)
    """One entry per failure: the turn or probe, the stage and the error."""

    @property
    def skipped(self) -> bool:
        """Whether the system never ran (so it has no probes to score)."""
        return self.status.startswith("skipped")


@runtime_checkable
class System(Protocol):
    """One system under test, fed one conversation turn by turn."""

    name: str

    def ingest(self, msg: Message) -> None:
        """Take the next turn."""
        ...

    def settle(self) -> None:
        """Finish the work earlier turns left owed, before a probe.

        The runner does not time it: background memory work is not retrieval
        latency, and a probe must see the same memory whatever the worker's pace.
        """
        ...

    def context(self, question: str) -> Context:
        """The context the responder would get for `question` now."""
        ...

    def stored_tokens(self) -> int:
        """Tokens the system holds now (what a compression ratio divides)."""
        ...

    def stored_facts(self) -> list[StoredFact]:
        """Fact rows it stored (memory recipes only)."""
        ...

    def episode_stats(self) -> list[EpisodeStat]:
        """Per-episode source and summary sizes (memory recipes only)."""
        ...

    def cost(self) -> BuildCost:
        """Brain calls, tokens and compressions spent so far."""
        ...

    def close(self) -> None:
        """Release files and handles."""
        ...


class KeepsNoMemory:
    """The answers of a system with no memory of its own: baselines, skipped peers.

    They store no facts and make no episodes, call no brain, and never owe work
    at a probe.
    """

    def stored_facts(self) -> list[StoredFact]:
        """No fact rows."""
        return []

    def episode_stats(self) -> list[EpisodeStat]:
        """No episodes."""
        return []

    def cost(self) -> BuildCost:
        """No brain calls."""
        return BuildCost()

    def settle(self) -> None:
        """Nothing is ever owed."""
