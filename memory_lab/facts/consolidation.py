"""The value of a consolidated fact, written by the brain and checked against its parts.

A model asked to summarise "hiking; jazz; cooking" may add what no member said;
a summary with a content word none of the members has is refused and the members'
values are kept, joined, instead.
"""

from __future__ import annotations

from collections.abc import Callable

from memory_lab.brains.base import Brain, BrainNote
from memory_lab.text import content_words
from memory_lab.tokens import TokenCounter


def grounded_summariser(
    brain: Brain, counter: TokenCounter, notes: list[BrainNote]
) -> Callable[[list[str]], str]:
    """A `summarise` for `FactMemory.consolidate`; the brain's notes go to `notes`."""

    def summarise(values: list[str]) -> str:
        joined = "; ".join(values)
        result = brain.condense(joined, max_tokens=counter.count(joined))
        notes.extend(result.notes)
        text = result.value.strip()
        if not text or not content_words(text) <= content_words(joined):
            return joined
        return text

    return summarise
