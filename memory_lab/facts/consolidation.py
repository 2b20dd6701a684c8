"""The value of a consolidated fact, written by the brain and checked against its parts.

A model asked to summarise "hiking; jazz; cooking" may add what no member said,
or leave out what one did ("walks" for "long walks in the forest" loses where).
A summary with a content word none of the members has, or without every content
word of each member, is refused and the members' values are kept, joined,
instead: a folded row must still answer whatever its members answered.
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
        said = content_words(text)
        if not text or not said <= content_words(joined):
            return joined
        if any(not content_words(v) <= said for v in values):
            return joined
        return text

    return summarise
