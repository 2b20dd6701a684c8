"""The excerpt index: BM25 over the source turns of every episode.

Episodes are the index by meaning; this is the index by exact words over the same
turns, so a name, date or number a summary dropped can still be shown verbatim
beside the summaries.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.episodes.bm25 import Bm25Index, Bm25View
from memory_lab.restatement import memory_view
from memory_lab.stores.base import EpisodeStore, TranscriptStore
from memory_lab.text import content_words
from memory_lab.types import Episode, Message


def sorted_terms(text: str) -> list[str]:
    """Content words in order of appearance (BM25 wants a bag, repeats count)."""
    return list(_kept_terms(text))


@functools.lru_cache(maxsize=32_768)
def _kept_terms(text: str) -> tuple[str, ...]:
    """`sorted_terms`, kept: every question scores the same facts and turns again."""
    words = content_words(text)
    return tuple(w for w in re.findall(r"[a-z0-9]+", text.lower()) if w in words)


def indexed_text(turn: Message) -> str:
    """What a turn is found by: its words and who said them.

    In a conversation between named people a question names the person ("what
    did Melanie paint?"), but her own turns never say her name; the other
    speaker's do, as a greeting. Prefixing the speaker lets both the words and
    the meaning rankers find a person's own turns. A reply is found by what it
    added, not by the memory it restated (`Message.memory_text`).
    """
    text = turn.memory_text
    return f"{turn.speaker}: {text}" if turn.speaker else text


@runtime_checkable
class Revisioned(Protocol):
    """An episode store that says when its episodes changed (the committed one)."""

    def revision(self, tenant: str) -> int:
        """A number every change to the tenant's episodes moves."""
        ...


class ExcerptIndex:
    """BM25 over every compressed turn of a tenant.

    Episodes are the index by meaning; this is the index by exact words over the
    same turns, so a name, date or number a summary dropped can still be shown
    verbatim. It is a cache: loaded once from the stores, then told about each new
    compression (`add`), which extends the inverted index (`bm25.Bm25Index`)
    rather than rebuilding it; the transcript stays the truth.

    Over a store that counts its changes (`Revisioned`), each read first checks
    the count: a compression or trash move made by another engine or process
    on the same database, which nobody told this index, makes it load again.
    """

    def __init__(self) -> None:
        self._turns: dict[str, list[Message]] = {}
        self._bm25: dict[str, Bm25Index] = {}
        self._seq_of: dict[str, dict[str, int]] = {}
        """Per tenant, each indexed turn's seq by its id."""
        self._revision: dict[str, int] = {}
        """Per tenant, the episode store's revision the index holds."""
        # Guards each tenant's index and revision; the stores are read under it.
        self._lock = named_lock("excerpts.index")

    def _load(
        self, transcript: TranscriptStore, episodes: EpisodeStore, tenant: str
    ) -> None:
        revision = (
            episodes.revision(tenant) if isinstance(episodes, Revisioned) else None
        )
        if tenant in self._turns:
            if revision is None or revision == self._revision.get(tenant):
                return
            self._forget(tenant)
        turns: list[Message] = []
        for ep in episodes.get(tenant):
            turns.extend(
                transcript.messages(
                    tenant, ep.thread, first_seq=ep.first_seq, last_seq=ep.last_seq
                )
            )
        self._turns[tenant] = []
        self._bm25[tenant] = Bm25Index()
        self._seq_of[tenant] = {}
        if revision is not None:
            self._revision[tenant] = revision
        self._append(tenant, turns)

    def _append(self, tenant: str, turns: Sequence[Message]) -> None:
        # Excerpts show what memory keeps of a turn; a reply that only restated
        # memory is not indexed (the lines it quoted are, where they came from).
        turns = memory_view(turns)
        self._turns[tenant].extend(turns)
        self._seq_of[tenant].update((m.id, m.seq) for m in turns)
        self._bm25[tenant].add([sorted_terms(indexed_text(m)) or ["_"] for m in turns])

    def drop(self, tenant: str) -> None:
        """Forget the tenant's index; the next search loads it from the stores.

        For a change the index cannot be told turn by turn: an episode moved to
        the trash or back.
        """
        with self._lock:
            self._forget(tenant)

    def _forget(self, tenant: str) -> None:
        """Drop the tenant's index (the caller holds the lock)."""
        for cache in (self._turns, self._bm25, self._seq_of, self._revision):
            cache.pop(tenant, None)

    def add(
        self, tenant: str, turns: Sequence[Message], *, revision: int | None = None
    ) -> None:
        """Index turns that were just compressed.

        A no-op until the tenant is loaded. `revision` is the episode store's
        revision the compression committed: when the index is not at the one
        before it, someone else changed the episodes too, and the index loads
        again at its next read instead.
        """
        with self._lock:
            if tenant not in self._turns or not turns:
                return
            if revision is not None and tenant in self._revision:
                if self._revision[tenant] != revision - 1:
                    self._forget(tenant)
                    return
                self._revision[tenant] = revision
            self._append(tenant, turns)

    def _index(
        self, transcript: TranscriptStore, episodes: EpisodeStore, tenant: str
    ) -> tuple[list[Message], Bm25View | None]:
        """The tenant's indexed turns and BM25, loaded from the stores if stale.

        It reads the stores under the index's lock, so a caller that may run
        beside a question holds a read of the stores first, as a question
        does (lock order: facts, database, index).
        """
        with self._lock:
            self._load(transcript, episodes, tenant)
            return self._turns[tenant], self._bm25[tenant].view()

    def search(
        self,
        transcript: TranscriptStore,
        episodes: EpisodeStore,
        tenant: str,
        query: str,
        hits: Sequence[tuple[Episode, float]],
        *,
        dense_bonus: float,
    ) -> list[tuple[Message, float]]:
        """Compressed turns sharing words with the query, best first.

        A turn inside an episode that search found by meaning (`hits`) gets
        `dense_bonus` on top of its normalised BM25 score.
        """
        terms = sorted_terms(query)
        turns, bm25 = self._index(transcript, episodes, tenant)
        if not terms or bm25 is None:
            return []
        scores = bm25.get_scores(terms)
        top = float(max(scores)) if len(scores) else 0.0
        if top <= 0:
            return []
        dense = {seq for ep, _ in hits for seq in range(ep.first_seq, ep.last_seq + 1)}
        ranked = [
            (m, float(s) / top + (dense_bonus if m.seq in dense else 0.0))
            for m, s in zip(turns, scores, strict=True)
            if s > 0
        ]
        ranked.sort(key=lambda p: (-p[1], p[0].seq))
        return ranked
