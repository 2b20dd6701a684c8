"""The Brain protocol: what summarises, extracts and answers, and what it reports.

Two implementations: `RuleBasedBrain` (offline default, deterministic) and
`OpenAICompatBrain` (any OpenAI-compatible endpoint, rule-based as its fallback).

Every method returns a `BrainResult`: the value together with notes on what
happened on the way (a fallback, a refused fact). Notes carry no tenant and no
time: the graph node that called the brain knows the real tenant and the clock,
and turns notes into events under them. A brain therefore holds no per-call
state, and nothing it reports can be filed under the wrong tenant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

from memory_lab.types import (
    ContextBundle,
    EpisodeDraft,
    Fact,
    FactCandidate,
    Message,
)

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

NoteKind = Literal["brain_fallback", "fact_rejected", "tool_called", "tool_failed"]

#: Counters every brain's `usage()` reports; the eval's summary and run log read
#: these names, so they stay stable.
USAGE_FIELDS: tuple[str, ...] = (
    "calls",
    "prompt_tokens",
    "completion_tokens",
    "cache_hits",
    "facts_proposed",
    "facts_rejected",
    "fallbacks",
)


def zero_usage() -> dict[str, int]:
    """Every usage counter at 0: what a brain that calls no model reports."""
    return dict.fromkeys(USAGE_FIELDS, 0)


@dataclass(frozen=True)
class BrainNote:
    """Something a brain call did that the memory's event log should show.

    Attributes:
        kind: The event kind it becomes: `brain_fallback` (the model could not
            be used and another brain answered), `fact_rejected` (a proposed
            fact failed the grounding check), `tool_called` or `tool_failed` (a
            memory tool the replying model called, carried out or refused).
        detail: One line for a person reading the log.
        refs: Ids the note is about (turns, usually).
    """

    kind: NoteKind
    detail: str
    refs: tuple[str, ...] = ()


@dataclass(frozen=True)
class BrainResult(Generic[T_co]):
    """A brain's answer and the notes on how it was reached.

    Attributes:
        value: The answer.
        notes: What happened on the way, for the event log.
        restated: For a reply: spans of its text the brain knows restate the
            context it was given (the offline responder quotes, so it knows
            exactly). The respond node adds the spans its own rule finds
            (`memory_lab.restatement`), so a brain need not report any.
    """

    value: T_co
    notes: tuple[BrainNote, ...] = ()
    restated: tuple[tuple[int, int], ...] = ()


def noted(result: BrainResult[T], *notes: BrainNote) -> BrainResult[T]:
    """`result` with `notes` put before its own (what happened first comes first)."""
    return replace(result, notes=(*notes, *result.notes))


class Brain(Protocol):
    """Summarises spans, extracts facts, answers with memory, and counts its cost.

    `name` goes into episodes, replay snapshots and eval logs: `rule` for the
    rule-based brain, `llm:<model>` for a model behind an endpoint.
    """

    @property
    def name(self) -> str:
        """Short, stable name of the brain for logs."""
        ...

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> BrainResult[EpisodeDraft]:
        """A compressed record of `messages` whose summary fits `max_tokens`."""
        ...

    def condense(self, text: str, *, max_tokens: int) -> BrainResult[str]:
        """Shorten a running summary to `max_tokens`, keeping what matters most."""
        ...

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> BrainResult[list[FactCandidate]]:
        """Facts the turns state, each citing the turn that supports it.

        `known` are the tenant's active facts, so an update can land on the
        stored key (and supersede) rather than start a new one.
        """
        ...

    def respond(self, question: Message, context: ContextBundle) -> BrainResult[str]:
        """A reply to `question` given the assembled memory context."""
        ...

    def usage(self) -> dict[str, int]:
        """Counters since the brain was made; at least every `USAGE_FIELDS` name."""
        ...


@runtime_checkable
class ToolResponder(Protocol):
    """A brain whose replying model can be offered tools (agentic memory).

    Apart from `Brain`, so a brain without a model, and every test double,
    stays a plain `Brain`; the engine offers tools only to a brain that is
    this and has `agentic_memory` on.
    """

    @property
    def agentic_memory(self) -> bool:
        """Whether the replying model is to be offered the memory tools."""
        ...

    def respond_with_tools(
        self, question: Message, context: ContextBundle, tools: Sequence[BaseTool]
    ) -> BrainResult[str]:
        """A reply for which the model may call `tools`; each call becomes a note."""
        ...
