"""The Brain protocol: what summarises, extracts and answers.

Two implementations: `RuleBasedBrain` (offline default, deterministic) and
`OpenAICompatBrain` (langchain-openai, falls back to the rule-based brain).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from memory_lab.types import (
    ContextBundle,
    EpisodeDraft,
    Fact,
    FactCandidate,
    MemoryEvent,
    Message,
)


class Brain(Protocol):
    """Summarises spans, extracts facts, answers with memory."""

    name: str

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> EpisodeDraft:
        """A compressed record of `messages` whose summary fits `max_tokens`."""
        ...

    def condense(self, text: str, *, max_tokens: int) -> str:
        """Shorten a running summary to `max_tokens`, keeping what matters most."""
        ...

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> list[FactCandidate]:
        """Facts the turns state, each citing the turn that supports it.

        `known` are the tenant's active facts, so a correction that names only
        the old value ("not K2 anymore, K3") can land on the stored key.
        """
        ...

    def respond(self, question: Message, context: ContextBundle) -> str:
        """A reply to `question` given the assembled memory context."""
        ...

    def drain_events(self) -> list[MemoryEvent]:
        """Events since the last call (e.g. a fallback to the rule-based brain)."""
        ...
