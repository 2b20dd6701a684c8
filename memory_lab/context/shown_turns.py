"""A ranking of turns as a context may show it, still read lazily, best first.

The turn ranking holds every turn of the history and assembly reads only its
best few (`episodes.turn_index.RankedTurns`). What a context may show of each
turn (`withheld.Withheld.message`) and the few moves a question about the
present makes in the head (`current`) are applied as items are read, so a long
history costs no more than before.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import islice
from typing import overload

from memory_lab.types import Message

Show = Callable[[Message], Message | None]
"""A turn as it may be shown, or None when it may not be."""


class ShownTurns(Sequence[tuple[Message, float]]):
    """`ranked` with each turn passed through `show`, and some of its head rescored.

    Args:
        ranked: Turns with scores, best first.
        show: What of a turn may be shown; None leaves it out.
        rescored: New scores for turns among the first `head` of `ranked`;
            the head is re-sorted by them and merged with the rest by score.
        head: How many leading items `rescored` was read from.
    """

    best_first = True
    """Still in score order: a reader need not check or sort."""

    def __init__(
        self,
        ranked: Sequence[tuple[Message, float]],
        show: Show,
        rescored: Mapping[str, float] | None = None,
        head: int = 0,
    ) -> None:
        self._ranked = ranked
        self._show = show
        self._rescored = dict(rescored or {})
        self._head = head if self._rescored else 0
        self._items: list[tuple[Message, float]] = []
        self._source: Iterator[tuple[Message, float]] | None = None
        self._done = False

    def _merged(self) -> Iterator[tuple[Message, float]]:
        items = iter(self._ranked)
        lead = [
            (m, self._rescored.get(m.id, score))
            for m, score in islice(items, self._head)
        ]
        # Stable: among equal scores the ranking's own order stands.
        lead.sort(key=lambda pair: -pair[1])
        for m, score in heapq.merge(lead, items, key=lambda pair: -pair[1]):
            shown = self._show(m)
            if shown is not None:
                yield shown, score

    def _pull(self, upto: int) -> bool:
        """Read items up to index `upto`; False when the ranking ends before it."""
        if self._source is None:
            self._source = self._merged()
        while len(self._items) <= upto and not self._done:
            item = next(self._source, None)
            if item is None:
                self._done = True
            else:
                self._items.append(item)
        return len(self._items) > upto

    def __len__(self) -> int:
        while self._pull(len(self._items)):
            pass
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> tuple[Message, float]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[Message, float]]: ...

    def __getitem__(
        self, i: int | slice
    ) -> tuple[Message, float] | list[tuple[Message, float]]:
        if isinstance(i, slice) or i < 0:
            len(self)
            return self._items[i]
        if not self._pull(i):
            raise IndexError(i)
        return self._items[i]

    def __iter__(self) -> Iterator[tuple[Message, float]]:
        i = 0
        while self._pull(i):
            yield self._items[i]
            i += 1
