"""Timers around the domain functions the graph nodes call, without editing them.

The engine takes its brain and embedder by injection, so those are wrapped; the
trigger check and compression functions are looked up by the nodes module at call
time, so they are patched there for the length of a measurement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

import numpy as np

from memlab_bench.stats import Stopwatch
from memory_lab.brains.base import Brain, BrainResult
from memory_lab.types import ContextBundle, EpisodeDraft, Fact, FactCandidate, Message


def _timed(watch: Stopwatch, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with watch.part(part):
            return fn(*args, **kwargs)

    return wrapper


class TimedBrain:
    """A brain whose extraction is timed; every other call goes straight through."""

    def __init__(self, inner: Brain, watch: Stopwatch) -> None:
        self._inner = inner
        self._watch = watch

    @property
    def name(self) -> str:
        """The inner brain's name: timing it changes nothing it records."""
        return self._inner.name

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> BrainResult[EpisodeDraft]:
        """The inner brain's summary."""
        return self._inner.summarize(messages, max_tokens=max_tokens)

    def condense(self, text: str, *, max_tokens: int) -> BrainResult[str]:
        """The inner brain's condensed summary."""
        return self._inner.condense(text, max_tokens=max_tokens)

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> BrainResult[list[FactCandidate]]:
        """The inner brain's facts, timed as `extraction`."""
        with self._watch.part("extraction"):
            return self._inner.extract(messages, known=known)

    def respond(self, question: Message, context: ContextBundle) -> BrainResult[str]:
        """The inner brain's reply."""
        return self._inner.respond(question, context)

    def usage(self) -> dict[str, int]:
        """The inner brain's counters."""
        return self._inner.usage()


class TimedEmbedder:
    """An embedder whose calls are timed."""

    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self.name, self.dim = inner.name, inner.dim
        self._inner, self._watch = inner, watch

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """The inner embedder's vectors, timed as `embedding`."""
        with self._watch.part("embedding"):
            return self._inner.embed(texts)


@contextmanager
def timed_nodes(watch: Stopwatch) -> Iterator[None]:
    """Time the trigger decision and the summarising half of compression."""
    from memory_lab.graph import nodes

    with ExitStack() as stack:
        stack.enter_context(
            mock.patch.object(
                nodes, "decide", _timed(watch, "trigger_check", nodes.decide)
            )
        )
        for name in ("build_episodes", "update_running_summary"):
            stack.enter_context(
                mock.patch.object(
                    nodes, name, _timed(watch, "compression", getattr(nodes, name))
                )
            )
        yield
