"""Every turn not shown verbatim, searchable by words and by meaning, in one ranking.

The excerpt index (BM25 over compressed turns) finds names and numbers; a turn's
own embedding finds paraphrases, and its closest sentence the clause that answers
inside a long turn (`sentences`); the episode a turn belongs to says what it was
about when the turn alone is too short to tell ("Yes, last Friday!"). Turns still
in the window but not shown verbatim are ranked with the rest, with the window's
recency as one more signal: a stored turn is shown, summarised or findable, never
lost. The rankings are fused by reciprocal rank, so no scale is tuned against
another. A reply then stands at least as high as the question it answers: asked
"what did Caroline research?", the turn that matches is often the other
speaker's "did you look into agencies?", and the answer is the turn after it
(LoCoMo dev, recipe A: evidence recall 0.632 -> 0.674 at 600 tokens and 0.775 ->
0.820 at 1,500; answer recall 0.503 -> 0.533 and 0.618 -> 0.646). Only a reply
the user gave, or by someone the question names, is lifted: an assistant's
advice after the user's question is memory of no one.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.embeddings import Embedder
from memory_lab.episodes.answer_types import TYPED_DEPTH, EntityLabels, expected_types
from memory_lab.episodes.bm25 import Bm25View
from memory_lab.episodes.excerpts import ExcerptIndex, indexed_text, sorted_terms
from memory_lab.episodes.sentences import SentenceRows, sentence_vectors
from memory_lab.facts.gathering import is_gathered
from memory_lab.fusion import RRF_K
from memory_lab.restatement import memory_view
from memory_lab.stores.base import EpisodeStore, TranscriptStore
from memory_lab.types import Episode, Fact, Message

EPISODE_WEIGHT = 1.0
"""Weight of the episode's rank against the turn's own BM25 and cosine ranks."""

FACT_VECTORS = 50_000
"""Fact texts whose embeddings are kept; a fact is embedded once, not per question."""

RANK_DEPTH = 2_000
"""How deep each ranker's list is fused: reciprocal rank fusion over each ranker's
first items, as hybrid search fuses each retriever's top k. Deeper than any
LoCoMo or synthetic conversation's pool, so their rankings are the full ones; a
longer history is not sorted whole for every question."""

COMMON_SHARE = 0.15
"""A query word in more of the pool's turns than this cannot rank a turn alone.

Chiefly the name of a speaker: each turn is indexed with who said it, so
"Caroline" is in most turns of her conversation, and a turn matching only her
name ranks by shortness ("Caroline: Wow! What got you into running?"). Reciprocal
rank fusion counts places, not scores, so those places crowded out turns found
by meaning. Such a word still weighs in a turn that also holds a rarer one.
Measured on LoCoMo dev, recipe A: evidence recall at 600 tokens 0.611 -> 0.632
and answer recall 0.488 -> 0.501; at 1,500, evidence 0.772 -> 0.775 and answers
0.622 -> 0.618. When every word of the question is that common, the words
alone rank, as before: there is nothing rarer to require."""

HEAD = 256
"""Turns put in order before assembly reads any; the rest only if it reads on."""


def first_of_lexsort(primary: np.ndarray, secondary: np.ndarray, m: int) -> np.ndarray:
    """The first `m` of `np.lexsort((secondary, primary))`, without sorting it all.

    Every item tied with the m-th on `primary` is sorted with the head, and the
    sort is stable, so ties fall exactly as in the full sort.
    """
    if len(primary) <= m:
        return np.lexsort((secondary, primary))
    bound = np.partition(primary, m - 1)[m - 1]
    head = np.flatnonzero(primary <= bound)
    return head[np.lexsort((secondary[head], primary[head]))][:m]


def fact_text(fact: Fact) -> str:
    """What a fact is matched on: its key and value.

    Unlike a turn's speaker (see `indexed_text`), the subject is left out:
    assembly keeps only facts about whom the question asks, and a name on every
    fact of that person would lift them all above the turns that answer
    (measured: less evidence shown at 600 tokens on LoCoMo, answers unchanged).
    A gathered line keeps it: it is one line for the person as a whole, as a
    turn is found by who said it.
    """
    text = f"{fact.key.replace('_', ' ').replace('.', ' ')} {fact.value}"
    return f"{fact.subject}: {text}" if is_gathered(fact.id) else text


def asks(turn: Message) -> bool:
    """Whether a turn asks something: its reply then answers it."""
    return "?" in turn.memory_text


def _marks_of(turns: Sequence[Message]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Whether each turn asks, who said it, and whether the user did."""
    return (
        np.fromiter((asks(m) for m in turns), dtype=bool, count=len(turns)),
        np.asarray([m.who for m in turns], dtype=object),
        np.fromiter((m.role == "user" for m in turns), dtype=bool, count=len(turns)),
    )


def _bm25_score(bm25: Bm25View, query: Sequence[str], doc: Sequence[str]) -> float:
    """Okapi BM25 of one document outside the corpus, with the corpus's statistics."""
    length = len(doc)
    score = 0.0
    for term in set(query):
        tf = doc.count(term)
        if tf:
            idf = bm25.idf.get(term, 0.0)
            norm = bm25.k1 * (1 - bm25.b + bm25.b * length / bm25.avgdl)
            score += idf * tf * (bm25.k1 + 1) / (tf + norm)
    return score


def _episode_ranks(
    hits: Sequence[tuple[Episode, float]], indexed: np.ndarray, others: np.ndarray
) -> np.ndarray:
    """Each item's best-ranked hit episode holding its seq (1 = best; 0: none).

    Items are the indexed turns (`indexed`), then the rest (`others`: window
    turns and facts). Indexed seqs are ascending when the tenant's turns were
    compressed in order (one thread), so an episode's turns are one slice.
    """
    if len(indexed) > 1 and not bool((np.diff(indexed) >= 0).all()):
        others, indexed = np.concatenate([indexed, others]), indexed[:0]
    ranks = np.zeros(len(indexed) + len(others), dtype=np.int64)
    rest = ranks[len(indexed) :]
    for rank, (ep, _) in enumerate(hits, start=1):
        lo = np.searchsorted(indexed, ep.first_seq, side="left")
        hi = np.searchsorted(indexed, ep.last_seq, side="right")
        block = ranks[lo:hi]
        block[block == 0] = rank
        inside = (others >= ep.first_seq) & (others <= ep.last_seq)
        rest[inside & (rest == 0)] = rank
    return ranks


class RankedTurns(Sequence[tuple[Message, float]]):
    """Every pool turn with its score, best first, paired only when read.

    Assembly reads the best few until its budget is spent; making a pair for
    each of a long history's turns cost more than ranking them (20 of 51 ms per
    context at 10,000 turns under cProfile), so the ranking stays arrays and a
    pair is made on reading.
    """

    best_first = True
    """Already in score order: a reader need not check or sort."""

    def __init__(
        self, pool: Sequence[Message], scores: np.ndarray, ties: np.ndarray
    ) -> None:
        """Pool turns by descending `scores`, ties by ascending `ties`, then position.

        Only the first `HEAD` are put in order now; the whole order is made if a
        reader goes past them.
        """
        self._pool = pool
        self._scores = scores
        self._ties = ties
        self._head = first_of_lexsort(-scores, ties, HEAD)
        self._all: np.ndarray | None = None

    @property
    def _order(self) -> np.ndarray:
        if len(self._head) == len(self._scores):
            return self._head
        if self._all is None:
            self._all = np.lexsort((self._ties, -self._scores))
        return self._all

    def __len__(self) -> int:
        return len(self._scores)

    @overload
    def __getitem__(self, i: int) -> tuple[Message, float]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[Message, float]]: ...

    def __getitem__(
        self, i: int | slice
    ) -> tuple[Message, float] | list[tuple[Message, float]]:
        if isinstance(i, slice):
            return [self._pair(int(k)) for k in self._order[i]]
        if 0 <= i < len(self._head):
            return self._pair(int(self._head[i]))
        return self._pair(int(self._order[i]))

    def __iter__(self) -> Iterator[tuple[Message, float]]:
        for k in self._head:
            yield self._pair(int(k))
        if len(self._head) < len(self._scores):
            for k in self._order[len(self._head) :]:
                yield self._pair(int(k))

    def _pair(self, k: int) -> tuple[Message, float]:
        return self._pool[k], float(self._scores[k])


class TurnIndex(ExcerptIndex):
    """The excerpt index plus turn embeddings and the episode ranking, fused.

    Vectors are a cache: compressed turns are embedded when they are indexed (one
    batch per compression), window turns the first time they are searched; the
    transcript stays the truth.
    """

    def __init__(self, embedder: Embedder) -> None:
        super().__init__()
        self.embedder = embedder
        self._matrix: dict[str, np.ndarray] = {}
        self._sentences: dict[str, SentenceRows] = {}
        self._window_vectors: dict[str, np.ndarray] = {}
        # A window turn's sentence rows (none for a one-sentence turn), by id.
        self._window_sentences: dict[str, np.ndarray] = {}
        self._pool: dict[str, tuple[tuple[str, ...], Bm25View | None]] = {}
        self._fact_vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._seqs: dict[str, np.ndarray] = {}
        self._turn_marks: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._labels = EntityLabels()
        # Guards the vectors, pools, seqs and marks above.
        self._vec_lock = named_lock("excerpts.vectors")

    def _forget(self, tenant: str) -> None:
        """Forget the tenant's index and its vectors (see `ExcerptIndex.drop`)."""
        super()._forget(tenant)
        with self._vec_lock:
            for cache in (
                self._matrix,
                self._sentences,
                self._pool,
                self._seqs,
                self._turn_marks,
            ):
                cache.pop(tenant, None)

    def add(
        self, tenant: str, turns: Sequence[Message], *, revision: int | None = None
    ) -> None:
        """Index just-compressed turns and embed them now, so questions stay fast."""
        super().add(tenant, turns, revision=revision)
        indexed = self._turns.get(tenant)
        if indexed is not None and tenant in self._matrix:
            self._indexed_vectors(tenant, indexed)

    def _indexed_vectors(self, tenant: str, turns: Sequence[Message]) -> np.ndarray:
        """One row per indexed turn, in order; only the new tail is embedded."""
        with self._vec_lock:
            have = self._matrix.get(tenant, np.zeros((0, 0), dtype=np.float32))
            if len(have) < len(turns):
                tail = list(turns[len(have) :])
                fresh = [self._window_vectors.pop(m.id, None) for m in tail]
                todo = [
                    indexed_text(m)
                    for m, v in zip(tail, fresh, strict=True)
                    if v is None
                ]
                made = iter(self.embedder.embed(todo) if todo else [])
                rows = np.stack([v if v is not None else next(made) for v in fresh])
                self._extend_sentences(tenant, tail, len(have))
                have = rows if len(have) == 0 else np.vstack([have, rows])
                self._matrix[tenant] = have
            return have[: len(turns)]

    def _extend_sentences(
        self, tenant: str, tail: Sequence[Message], start: int
    ) -> None:
        """Sentence rows for newly indexed turns; a window turn's are moved over.

        Call it holding `_vec_lock`, before the turns' rows join the matrix.
        """
        rows = self._sentences.setdefault(tenant, SentenceRows())
        kept = [self._window_sentences.pop(m.id, None) for m in tail]
        todo = [i for i, v in enumerate(kept) if v is None]
        vectors, owner = sentence_vectors([tail[i] for i in todo], self.embedder.embed)
        bounds = np.searchsorted(owner, np.arange(len(todo) + 1))
        for k, i in enumerate(todo):
            kept[i] = vectors[bounds[k] : bounds[k + 1]]
        # Added in turn order, as `SentenceRows` needs its owners ascending.
        rows.extend_turns([(v, start + i) for i, v in enumerate(kept) if v is not None])

    def _closest(self, tenant: str, whole: np.ndarray, query: np.ndarray) -> np.ndarray:
        """Each indexed turn's closest sentence to the query (`sentences`)."""
        with self._vec_lock:
            rows = self._sentences.get(tenant)
        return whole if rows is None else rows.closest(whole, query)

    def _window_closest(
        self, turns: Sequence[Message], whole: np.ndarray, query: np.ndarray
    ) -> np.ndarray:
        """Window turns' closest sentences, as `_closest` scores indexed turns."""
        self._embed_window_sentences(turns)
        rows = SentenceRows()
        with self._vec_lock:
            held = [(self._window_sentences[m.id], i) for i, m in enumerate(turns)]
        rows.extend_turns(held)
        return rows.closest(whole, query)

    def _embed_window_sentences(self, turns: Sequence[Message]) -> None:
        """Window turns' sentence rows: embedded once, kept until indexed."""
        with self._vec_lock:
            missing = [m for m in turns if m.id not in self._window_sentences]
            if missing:
                vectors, owner = sentence_vectors(missing, self.embedder.embed)
                # Owners ascend: each turn's rows are one slice.
                bounds = np.searchsorted(owner, np.arange(len(missing) + 1))
                for i, m in enumerate(missing):
                    self._window_sentences[m.id] = vectors[bounds[i] : bounds[i + 1]]

    def warm_window(self, turns: Sequence[Message]) -> None:
        """Embed window turns, whole and by sentence, before a question needs them."""
        self.window_vectors(turns)
        self._embed_window_sentences(turns)

    def turn_vectors(
        self, transcript: TranscriptStore, episodes: EpisodeStore, tenant: str
    ) -> dict[str, np.ndarray]:
        """Every compressed turn's vector, by turn id: the index's own, made once.

        For measures over episodes (how coherent each is) that must not embed
        the whole history again. Call it inside a read of the stores, as
        `warm_index` says.
        """
        turns, _ = self._index(transcript, episodes, tenant)
        if not turns:
            return {}
        matrix = self._indexed_vectors(tenant, turns)
        return {m.id: row for m, row in zip(turns, matrix, strict=True)}

    def window_vectors(self, turns: Sequence[Message]) -> np.ndarray:
        """Window turns' vectors: embedded once, kept until they are compressed.

        A trigger that reads meaning (D) asks for these, so the turns it embeds
        to decide are not embedded again when they are indexed or searched.
        """
        if not turns:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        with self._vec_lock:
            missing = [m for m in turns if m.id not in self._window_vectors]
            if missing:
                vectors = self.embedder.embed([indexed_text(m) for m in missing])
                self._window_vectors.update(
                    zip((m.id for m in missing), vectors, strict=True)
                )
            return np.stack([self._window_vectors[m.id] for m in turns])

    def warm_index(
        self,
        transcript: TranscriptStore,
        episodes: EpisodeStore,
        tenant: str,
        window: Sequence[Message],
    ) -> list[Message]:
        """Embed the indexed turns not yet embedded; return the unsearched window turns.

        The engine's worker calls this after the turns' memory work, so a
        question finds them embedded instead of embedding them. Call it inside
        a read of the stores (`one_instant`), as a question ranks: the index
        loads from the stores under its own lock, and a thread that held that
        lock while waiting for the stores would deadlock with a question
        holding the stores and waiting for the lock. The window turns it
        returns are kept by id, so `warm_window` can embed them after the
        read, holding up no writer.
        """
        indexed, fresh = self._pool_parts(transcript, episodes, tenant, window)
        if indexed:
            self._indexed_vectors(tenant, indexed)
        return [
            m
            for m in fresh
            if m.id not in self._window_vectors or m.id not in self._window_sentences
        ]

    def _pool_parts(
        self,
        transcript: TranscriptStore,
        episodes: EpisodeStore,
        tenant: str,
        window: Sequence[Message],
    ) -> tuple[list[Message], list[Message]]:
        """The indexed turns, and the window turns not among them, as ranked."""
        live, _ = self._index(transcript, episodes, tenant)
        indexed = list(live)  # a compression may extend the index meanwhile
        seen = self._seq_of[tenant]
        # Window turns are offered as memory keeps them, like the indexed ones.
        return indexed, [m for m in memory_view(window) if m.id not in seen]

    def warm_facts(self, facts: Sequence[Fact]) -> None:
        """Embed facts' texts now, so a question that ranks them finds them made."""
        if facts:
            self._facts_matrix([fact_text(f) for f in facts])

    def _facts_matrix(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of fact texts, each computed once while it is kept."""
        with self._vec_lock:
            missing = list(
                dict.fromkeys(t for t in texts if t not in self._fact_vectors)
            )
            if missing:
                self._fact_vectors.update(
                    zip(missing, self.embedder.embed(missing), strict=True)
                )
            for t in texts:
                self._fact_vectors.move_to_end(t)
            while len(self._fact_vectors) > FACT_VECTORS:
                self._fact_vectors.popitem(last=False)
            return np.stack([self._fact_vectors[t] for t in texts])

    def _seq_array(self, tenant: str, count: int) -> np.ndarray:
        """The first `count` indexed turns' seqs, as an array kept between questions."""
        cached = self._seqs.get(tenant)
        if cached is None or len(cached) < count:
            cached = np.fromiter((m.seq for m in self._turns[tenant]), dtype=np.int64)
            self._seqs[tenant] = cached
        return cached[:count]

    def _marks(
        self, tenant: str, count: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`_marks_of` the first `count` indexed turns, kept between questions."""
        with self._vec_lock:
            cached = self._turn_marks.get(tenant)
            if cached is None or len(cached[0]) < count:
                turns = self._turns[tenant]
                cached = _marks_of(turns)
                self._turn_marks[tenant] = cached
            return cached[0][:count], cached[1][:count], cached[2][:count]

    def _replies(
        self,
        tenant: str,
        count: int,
        fresh: Sequence[Message],
        seqs: np.ndarray,
        query: str,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Pool positions of each question and of the reply just after it.

        A reply is the next turn, said by someone else, of a turn that asks;
        it counts when the user said it or the question names who did. An
        assistant's answer to the user's question is advice, not memory of
        anyone: lifted, it took the places of the facts that answer.
        """
        asked, who, users = self._marks(tenant, count)
        if fresh:
            more = _marks_of(fresh)
            asked = np.concatenate([asked, more[0]])
            who = np.concatenate([who, more[1]])
            users = np.concatenate([users, more[2]])
        named = set(re.findall(r"[a-z]+", query.lower()))
        order = np.argsort(seqs, kind="stable")
        first, then = order[:-1], order[1:]
        paired = (
            (seqs[then] == seqs[first] + 1) & asked[first] & (who[then] != who[first])
        )
        first, then = first[paired], then[paired]
        # Per speaker, not per reply: a long history has thousands of replies
        # and a handful of speakers.
        counts = users[then]
        replier = who[then]
        for name in set(replier.tolist()):
            if str(name).lower() in named:
                counts = counts | (replier == name)
        return first[counts], then[counts]

    @staticmethod
    def _pool_seq(
        indexed: dict[str, int], fresh: Sequence[Message], turn_id: str
    ) -> int | None:
        """The seq of a pool turn by id, or None when the pool does not hold it."""
        seq = indexed.get(turn_id)
        if seq is None:
            seq = next((m.seq for m in fresh if m.id == turn_id), None)
        return seq

    def _pool_bm25(
        self, tenant: str, turns: Sequence[Message], extra: Sequence[Message]
    ) -> Bm25View | None:
        """BM25 over the indexed turns plus the unshown window turns, cached.

        The window turns are laid over the index for the question; only their
        own words are counted again, and only when either set changed.
        """
        key = (str(len(turns)), *(m.id for m in extra))
        cached = self._pool.get(tenant)
        if cached is not None and cached[0] == key:
            return cached[1]
        bm25 = self._bm25[tenant].view(
            [sorted_terms(indexed_text(m)) or ["_"] for m in extra]
        )
        self._pool[tenant] = (key, bm25)
        return bm25

    def rank(
        self,
        transcript: TranscriptStore,
        episodes: EpisodeStore,
        tenant: str,
        query: str,
        hits: Sequence[tuple[Episode, float]],
        extra: Sequence[Message] = (),
    ) -> list[tuple[Message, float]]:
        """Compressed and unshown window turns, best fused rank first."""
        return list(
            self.rank_with_facts(
                transcript, episodes, tenant, query, hits, extra=extra
            )[0]
        )

    def _typed(
        self,
        query: str,
        pool: Sequence[Message],
        near: np.ndarray,
        ties: np.ndarray,
    ) -> np.ndarray:
        """Turns naming the kind of thing the question asks for, by meaning.

        Of the `TYPED_DEPTH` turns closest to the question, those holding an
        entity of its expected type (`answer_types`); none when it names no
        type, or no parser is installed.
        """
        wanted = expected_types(query)
        if not wanted or not len(pool):
            return np.zeros(0, dtype=np.int64)
        closest = first_of_lexsort(-near, ties, TYPED_DEPTH)
        labels = self._labels.of([pool[int(i)] for i in closest])
        if labels is None:
            return np.zeros(0, dtype=np.int64)
        return closest[[bool(found & wanted) for found in labels]]

    def rank_with_facts(
        self,
        transcript: TranscriptStore,
        episodes: EpisodeStore,
        tenant: str,
        query: str,
        hits: Sequence[tuple[Episode, float]],
        extra: Sequence[Message] = (),
        facts: Sequence[Fact] = (),
    ) -> tuple[Sequence[tuple[Message, float]], dict[str, float]]:
        """Turns best fused rank first, and each fact's score on the same scale.

        A fact is ranked by each ranker among the turns, as one more document of
        the pool that does not change the pool's statistics, so a fact and a turn
        with the same score stood equally high in the same rankings.
        """
        if not query.strip():
            return [], {}
        indexed, fresh = self._pool_parts(transcript, episodes, tenant, extra)
        count = len(indexed)
        seen = self._seq_of[tenant]
        pool = indexed + fresh if fresh else indexed
        if not pool:
            return [], {}
        with self._lock:
            bm25 = self._pool_bm25(tenant, indexed, fresh)
        n = len(pool)
        texts = [fact_text(f) for f in facts]
        terms = sorted_terms(query)
        scores = np.zeros(n + len(facts))
        if terms and bm25 is not None:
            scores[:n] = bm25.get_scores(terms)
            for j, text in enumerate(texts):
                scores[n + j] = _bm25_score(bm25, terms, sorted_terms(text))
        # Items n.. are facts; a fact ties below the turn it matches equally.
        indexed_seqs = self._seq_array(tenant, count)
        key_seq = np.concatenate(
            [indexed_seqs, np.asarray([m.seq for m in fresh])]
            + [np.full(len(facts), -1)]
        ).astype(np.int64)
        matched = np.flatnonzero(scores > 0)
        common = {t for t in terms if bm25 is not None and bm25.share(t) > COMMON_SHARE}
        telling = [t for t in terms if t not in common]
        if common and telling and bm25 is not None:
            alone = np.zeros(n + len(facts))
            alone[:n] = bm25.get_scores(telling)
            for j, text in enumerate(texts):
                alone[n + j] = _bm25_score(bm25, telling, sorted_terms(text))
            matched = np.flatnonzero(alone > 0)
        lexical = matched[
            first_of_lexsort(-scores[matched], -key_seq[matched], RANK_DEPTH)
        ]
        query_vec = self.embedder.embed([query])[0]
        whole, closest = [], []
        if count:
            turns_whole = self._indexed_vectors(tenant, indexed) @ query_vec
            whole.append(turns_whole)
            closest.append(self._closest(tenant, turns_whole, query_vec))
        if fresh:
            window_whole = self.window_vectors(fresh) @ query_vec
            whole.append(window_whole)
            closest.append(self._window_closest(fresh, window_whole, query_vec))
        if facts:
            facts_whole = self._facts_matrix(texts) @ query_vec
            whole.append(facts_whole)
            closest.append(facts_whole)  # a fact is one sentence
        dense = first_of_lexsort(
            -np.round(np.concatenate(whole), 6), -key_seq, RANK_DEPTH
        )
        by_sentence = first_of_lexsort(
            -np.round(np.concatenate(closest), 6), -key_seq, RANK_DEPTH
        )
        near = np.round(np.concatenate(closest), 6)
        typed = self._typed(query, pool, near[:n], -key_seq[:n])
        # The window's own order is one more signal: among equally relevant
        # turns, the ones just said win, as they would in a plain chat window.
        recent = np.arange(n - 1, count - 1, -1)[:RANK_DEPTH]
        # Reciprocal rank fusion (`fusion.fuse_ranks`) over arrays: each item's
        # terms are added in the same order, so the sums are the same floats.
        fused = np.zeros(n + len(facts))
        for ranking in (lexical, dense, by_sentence, recent, typed):
            fused[ranking] += 1.0 / (RRF_K + np.arange(1, len(ranking) + 1))
        # A fact is found through the episode of the turn it was read from.
        fact_seq = np.asarray(
            [
                next(
                    (
                        s
                        for t in f.turn_ids
                        if (s := self._pool_seq(seen, fresh, t)) is not None
                    ),
                    -2,
                )
                for f in facts
            ],
            dtype=np.int64,
        )
        episode_rank = _episode_ranks(
            hits, indexed_seqs, np.concatenate([key_seq[count:n], fact_seq])
        )
        ranked = np.flatnonzero(episode_rank)
        fused[ranked] += EPISODE_WEIGHT / (RRF_K + episode_rank[ranked])
        # A reply is as relevant as the question it answers (`replies`).
        asked, answer = self._replies(tenant, count, fresh, key_seq[:n], query)
        if len(asked):
            fused[answer] = np.maximum(fused[answer], fused[asked])
        fact_scores = {
            facts[i - n].id: float(fused[i]) for i in range(n, n + len(facts))
        }
        return RankedTurns(pool, fused[:n], key_seq[:n]), fact_scores
