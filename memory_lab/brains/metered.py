"""What the memory hands its brain to read: the bill of a trigger's choices.

A trigger that compresses often sends more text to be summarised; with a model
as the brain that text is what the provider charges for. The rule-based brain
costs nothing, yet the same text would be read by a model, so the meter counts
it for every brain: tokens of the turns and texts each call was given to read
(summaries, condensations, extraction with the facts it is shown), by call kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory_lab.brains.base import Brain, BrainResult, ToolResponder
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.tokens import TokenCounter
from memory_lab.types import ContextBundle, EpisodeDraft, Fact, FactCandidate, Message

METERED_KINDS = ("summarize", "condense", "extract", "respond")


class MeteredBrain:
    """A brain that counts the tokens it is given, then does what the brain does.

    Everything else (name, usage, breakers) is the wrapped brain's own.
    """

    def __init__(self, brain: Brain, counter: TokenCounter) -> None:
        self.inner = brain
        self._counter = counter
        self._lock = named_lock("brain.meter")  # guards the token and call counts
        self._tokens = dict.fromkeys(METERED_KINDS, 0)
        self._calls = dict.fromkeys(METERED_KINDS, 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def name(self) -> str:
        """The wrapped brain's name."""
        return self.inner.name

    def _count(self, kind: str, texts: Sequence[str]) -> None:
        tokens = sum(self._counter.count(t) for t in texts)
        with self._lock:
            self._tokens[kind] += tokens
            self._calls[kind] += 1

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> BrainResult[EpisodeDraft]:
        """Count the span's turns, then summarise them."""
        self._count("summarize", [m.content for m in messages])
        return self.inner.summarize(messages, max_tokens=max_tokens)

    def condense(self, text: str, *, max_tokens: int) -> BrainResult[str]:
        """Count the running summary, then shorten it."""
        self._count("condense", [text])
        return self.inner.condense(text, max_tokens=max_tokens)

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> BrainResult[list[FactCandidate]]:
        """Count the turns and the known facts shown beside them, then extract."""
        self._count(
            "extract",
            [m.content for m in messages] + [f"{f.key}: {f.value}" for f in known],
        )
        return self.inner.extract(messages, known=known)

    def respond(self, question: Message, context: ContextBundle) -> BrainResult[str]:
        """Count the question and its context, then answer."""
        self._count("respond", [question.content, context.text])
        return self.inner.respond(question, context)

    def respond_with_tools(
        self, question: Message, context: ContextBundle, tools: Sequence[Any]
    ) -> BrainResult[str]:
        """Count the question and its context, then answer with tools offered.

        What the tools return is read by the model, not handed over by memory,
        so it is not counted here; the brain's own usage has those tokens.
        """
        self._count("respond", [question.content, context.text])
        inner = self.inner
        assert isinstance(inner, ToolResponder), f"{inner.name} takes no tools"
        return inner.respond_with_tools(question, context, tools)

    def usage(self) -> dict[str, int]:
        """The wrapped brain's own counters."""
        return self.inner.usage()

    def read_tokens(self) -> dict[str, int]:
        """Tokens given to read so far, by call kind, and calls by kind."""
        with self._lock:
            out = {f"{k}_tokens": v for k, v in self._tokens.items()}
            out.update({f"{k}_calls": v for k, v in self._calls.items()})
            return out

    def memory_input_tokens(self) -> int:
        """What memory work (not replies) gave the brain to read."""
        with self._lock:
            return sum(v for k, v in self._tokens.items() if k != "respond")
