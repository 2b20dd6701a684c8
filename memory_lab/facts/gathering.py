"""Gathered lines: what one subject said of the kinds a question asks about, dated.

"What activities has Melanie done?" is answered by values said months apart,
under keys the parse named from the words used (`sign_for.class`, `take.camping`,
`go_on.trip`). Ten excerpts cannot hold them at a small budget; one line can:
"Melanie, over time: sign for pottery class (2 Jul 2023); take fam camping
(19 Aug 2023)". For each subject a question names, the subject's facts are
grouped by meaning (`grouping`), the groups whose closest fact is nearest the
question are taken, best first, until the line's token cap, and their values
are listed in time order, each with its date. The line is one more candidate
fact in the context's ranking: it is shown only when it answers the question
better than the turns and facts it competes with.

Built on the fly at context time, not kept by the consolidation job: a stored
line would be stale after every write and have to be rebuilt on each one, would
be a row that no single turn states (the hallucination scorer flags such rows),
and would keep a forgotten value until its next rebuild. On the fly it is what
memory holds at that moment, forgotten values are never in it, and nothing new is
stored. The cost is bounded by `GatherConfig.max_pool`: on a tenant of 10,000
facts, 5,000 of them about the person asked about, the first question took 2.6 s
(reading the rows, embedding 200 fact texts no write had embedded) and later
ones 20-40 ms more than without gathering, on a loaded 2-core machine
(`tests/integration/test_gathered_context.py` keeps the bound).

A question about the past ("which events has she been to?", `context.tense`)
gets what held at some time, not only what holds now: values one after another
under one key ("went to a support group", later "went to a pride parade"),
values ended or past their time to live are true of their time. A question
about the present gets the values in force. Never listed: values the user
forgot, disputed contradictions, values an explicit correction replaced (they
may never have been true), instructions (how to answer, not what happened), and
a consolidated row, whose members are listed instead, each with its own date.
A replaced value goes with the value that replaced it, so the two are on one
line. Pure: rows, embeddings and a token counter in, a candidate fact out.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from itertools import islice
from typing import NamedTuple

import numpy as np

from memory_lab.config import FactConfig
from memory_lab.facts.grouping import fact_meaning, group_by_meaning, relation
from memory_lab.facts.person import who
from memory_lab.facts.reconciliation import normalise_value
from memory_lab.text import content_words, fact_words, subject_words
from memory_lab.tokens import TokenCounter
from memory_lab.types import Fact

Embed = Callable[[Sequence[str]], np.ndarray]
"""Unit-length embeddings of texts, one row each (an `Embedder.embed`)."""

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
"""Words by which a question names the user, whose facts have subject "user"."""

GATHERED_PREFIX = "gathered:"
"""Ids of gathered lines start with it: they are no stored row."""

LABEL = "over_time"
"""A gathered line's key: its values are listed by date."""

HELD_KEPT = 8
"""Instants whose filtered rows a history keeps (`History.held`). Each step is
one atomic operation on the dict, so threads sharing a history need no lock: the
worst race filters the same rows twice."""

MAX_MISSES = 25
"""Values in a row that may fail to fit before the line is closed."""


def is_gathered(fact_id: str) -> bool:
    """Whether a fact id is a gathered line's rather than a stored row's."""
    return fact_id.startswith(GATHERED_PREFIX)


def gathered_sentence(fact: Fact) -> str:
    """A gathered line as the facts block says it: "Melanie, over time: ..."."""
    return f"{who(fact.subject).name}, {fact.key.replace('_', ' ')}: {fact.value}"


def named_subjects(query: str, subjects: Iterable[str]) -> list[str]:
    """The subjects among `subjects` that `query` names, in the order given.

    A subject is named when every content word of it is in the question
    ("melanie" by "Melanie", "melanie's kid" only when "kid" or "kids" is said
    too); the user, and "user's sister", when the question also speaks in the
    first person ("my sister").
    """
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", query)}
    words = content_words(query)
    words |= {w[:-1] for w in words if w.endswith("s")}
    first_person = bool(said & FIRST_PERSON)
    named = []
    for subject in dict.fromkeys(subjects):
        own = subject_words(subject)
        if subject == "user" or subject.startswith("user's"):
            if first_person and own <= words:
                named.append(subject)
        elif own and own <= words:
            named.append(subject)
    return named


class History:
    """One subject's rows, every status, newest first: read once per change.

    What does not depend on the instant or the question (which rows are folds,
    each row by id, the order) is worked out here, so a question pays only for
    the filter by time (`held`).
    """

    def __init__(self, rows: Sequence[Fact]) -> None:
        self.rows = sorted(rows, key=lambda f: (-f.valid_from.timestamp(), f.id))
        self.by_id = {r.id: r for r in rows}
        replaced = Counter(
            r.superseded_by
            for r in rows
            if r.status == "superseded" and r.superseded_by
        )
        # A supersession replaces one row; a fold (consolidation) several.
        self.folds = {fact_id for fact_id, n in replaced.items() if n >= 2}
        # The last few filters by time: each budget, each round of questions at
        # one instant reads the same rows, and a long history has thousands.
        self._held: OrderedDict[tuple, list[Fact]] = OrderedDict()

    def held(self, now: datetime, config: FactConfig, *, past: bool) -> list[Fact]:
        """The rows a gathered line may list (see the module docstring), newest first.

        With `past`, every value that held at some time up to `now`; without, the
        values in force at `now`. Rows learned after `now` are out, so a past
        instant reads what memory knew then.
        """
        key = (now, past, config.confidence_floor)
        kept = self._held.get(key)
        if kept is None:
            kept = self._held_at(now, config, past=past)
            self._held[key] = kept
            while len(self._held) > HELD_KEPT:
                self._held.popitem(last=False)
        return list(kept)

    def _held_at(self, now: datetime, config: FactConfig, *, past: bool) -> list[Fact]:
        held = []
        for r in self.rows:
            if (
                r.id in self.folds
                or r.created_at > now
                or r.category == "instruction"
                or r.confidence < config.confidence_floor
            ):
                continue
            fold = self.by_id.get(r.superseded_by or "")
            if fold is not None and fold.id in self.folds:
                if past or fold.is_active(now):  # a member holds while its fold does
                    held.append(r)
            elif r.is_active(now) or (past and _held_before(r, self.by_id)):
                held.append(r)
        return held


def held_rows(
    rows: Sequence[Fact], now: datetime, config: FactConfig, *, past: bool
) -> list[Fact]:
    """`History(rows).held(...)`, for rows read once."""
    return History(rows).held(now, config, past=past)


def _held_before(row: Fact, by_id: dict[str, Fact]) -> bool:
    """Whether an ended row's value was true of its time (see the docstring)."""
    if row.status in ("active", "expired"):  # its time to live or validity ended
        return True
    if row.status != "superseded":  # forgotten, or a disputed contradiction
        return False
    after = by_id.get(row.superseded_by or "")
    return after is not None and "explicit" not in (after.source, row.source)


def has_ended(held: Sequence[Fact], now: datetime) -> bool:
    """Whether some row is no longer in force: only then does the tense matter."""
    return any(not r.is_active(now) for r in held)


def pool(held: Sequence[Fact], query: str, size: int) -> list[Fact]:
    """At most `size` of `held` (newest first): words the question says, then new.

    Those sharing a word with the question first, then the newest of the rest.
    """
    if len(held) <= size:
        return list(held)
    words = content_words(query)
    matching = [f for f in held if words & fact_words(f.key, f.value)][:size]
    taken = {f.id for f in matching}
    rest = (f for f in held if f.id not in taken)
    return matching + list(islice(rest, size - len(matching)))


def gathered_line(
    held: Sequence[Fact],
    query: str,
    embed: Embed,
    counter: TokenCounter,
    facts_config: FactConfig,
    max_tokens: int,
) -> Fact | None:
    """One subject's gathered line for `query`, as a candidate fact; None if thin.

    `held` are the subject's rows (`held_rows`); its values take at most
    `max_tokens`. None when the groups near the question hold fewer than
    `GatherConfig.min_values` distinct values that fit.
    """
    offered = offered_rows(held, query, embed, facts_config)
    return line_of(offered, counter, facts_config, max_tokens)


Grouper = Callable[[Sequence[str], Embed, float], tuple[np.ndarray, list[list[int]]]]
"""Meanings, an embedder and a threshold to their vectors and groups (`by_meaning`)."""


def by_meaning(
    meanings: Sequence[str], embed: Embed, threshold: float
) -> tuple[np.ndarray, list[list[int]]]:
    """The meanings' vectors and their groups by meaning: what no question changes.

    A subject's facts are grouped again for every question that names them
    unless a caller keeps this (`context.gathered` does, per fact memory).
    """
    vectors = np.asarray(embed(meanings), dtype=np.float32)
    return vectors, group_by_meaning(vectors, threshold)


def offered_rows(
    held: Sequence[Fact],
    query: str,
    embed: Embed,
    facts_config: FactConfig,
    group: Grouper = by_meaning,
) -> list[Fact]:
    """The rows a line for `query` may list, best first; what no budget changes.

    The groups of `held` nearest the question, each value in force before what
    it replaced. A context built under several budgets for one question reads
    these once (`context.gathered`) and fits each budget's line from them.
    """
    config = facts_config.gather
    rows = sorted(
        pool(held, query, config.max_pool),
        key=lambda f: (f.valid_from, f.created_at, f.id),
    )
    if len(rows) < config.min_values:
        return []
    chains = _chains(rows)
    meanings = [fact_meaning(head) for head, _ in chains]
    vectors, grouped = group(meanings, embed, facts_config.related_threshold)
    near = vectors @ np.asarray(embed([query]), dtype=np.float32)[0]
    groups = [sorted(g, key=lambda i: -near[i]) for g in grouped]
    groups = sorted(
        (g for g in groups if near[g[0]] >= config.min_similarity),
        key=lambda g: -near[g[0]],
    )
    # The value in force first, then what it replaced, newest first.
    return [m for g in groups for i in g for m in reversed(chains[i][1])]


def line_of(
    offered: list[Fact],
    counter: TokenCounter,
    facts_config: FactConfig,
    max_tokens: int,
) -> Fact | None:
    """The line of the `offered` rows that fit `max_tokens`; None if thin."""
    kept = _fit(offered, counter, max_tokens)
    if len({normalise_value(m.value) for m in kept}) < facts_config.gather.min_values:
        return None
    if len({m.valid_from.date() for m in kept}) < 2:
        return None  # said on one day: the facts' own lines say as much
    return _as_fact(kept)


def _chains(rows: list[Fact]) -> list[tuple[Fact, list[Fact]]]:
    """The rows by supersession chain: its last row, and its rows in time order.

    A replaced value goes with the one that replaced it, so an old city and the
    new one are on one line, never the old alone. Chains are in the order of
    their first row.
    """
    by_id = {r.id: r for r in rows}
    heads: dict[str, Fact] = {}
    chains: dict[str, list[Fact]] = {}
    for row in rows:  # in time order
        head, seen = row, {row.id}
        while head.superseded_by in by_id and head.superseded_by not in seen:
            head = by_id[head.superseded_by]
            seen.add(head.id)
        heads[head.id] = head
        chains.setdefault(head.id, []).append(row)
    return [(heads[h], members) for h, members in chains.items()]


def _said(fact: Fact) -> str:
    """One value as a gathered line says it: the relation its key names, then it.

    Dense rather than a sentence ("go to LGBTQ support group", not "Caroline went
    to a LGBTQ support group"): the line names the subject once, and every
    token a value does not need is one fewer value in the line (measured on
    LoCoMo dev at 1,500 tokens: sentences held 0.345 of the multi-session
    answers, these 0.366). A value that holds its relation's words says it alone.
    """
    verb = relation(fact.key).replace("_", " ")
    said = " ".join(fact.value.split())
    if not content_words(verb) <= content_words(said):
        said = f"{verb} {said}"
    return said


def _day(when: datetime) -> str:
    """A date as answers and questions write it: "7 May 2023"."""
    return f"{when.day} {when:%b %Y}"


class _Listed(NamedTuple):
    """One row as a line lists it, worked out once however often it is tried."""

    order: tuple[datetime, datetime, str]
    norm: str
    said: str
    day: str


def _listed(fact: Fact, norm: str | None = None) -> _Listed:
    return _Listed(
        (fact.valid_from, fact.created_at, fact.id),
        normalise_value(fact.value) if norm is None else norm,
        _said(fact),
        _day(fact.valid_from),
    )


def _items(kept: Sequence[Fact]) -> list[str]:
    """The line's items in time order, a value said again once with each date."""
    return _listed_items([_listed(f) for f in kept])


def _listed_items(kept: Iterable[_Listed]) -> list[str]:
    dates: dict[str, list[str]] = {}
    said: dict[str, str] = {}
    for item in sorted(kept, key=lambda x: x.order):
        said.setdefault(item.norm, item.said)
        days = dates.setdefault(item.norm, [])
        if item.day not in days:
            days.append(item.day)
    return [f"{said[n]} ({', '.join(dates[n])})" for n in said]


def _fit(offered: list[Fact], counter: TokenCounter, max_tokens: int) -> list[Fact]:
    """The offered rows, best first, that fit in `max_tokens` once listed.

    Each row is worded once (`_listed`): a line is tried with every row offered,
    and the wording, not the count, was most of what trying cost.
    """
    kept: list[Fact] = []
    listed: list[_Listed] = []
    ids: set[str] = set()
    misses = 0
    for fact in offered:
        if misses >= MAX_MISSES:
            break
        norm = normalise_value(fact.value)
        if not norm or fact.id in ids:
            continue
        item = _listed(fact, norm)
        if counter.count("; ".join(_listed_items([*listed, item]))) <= max_tokens:
            kept.append(fact)
            listed.append(item)
            ids.add(fact.id)
            misses = 0
        else:
            misses += 1
    return kept


def _as_fact(kept: list[Fact]) -> Fact:
    """The kept rows as one candidate fact whose value lists them by date."""
    value = "; ".join(_items(kept))
    newest = max(kept, key=lambda f: (f.last_confirmed_at, f.id))
    digest = hashlib.sha1(
        "|".join([newest.subject, *sorted(f.id for f in kept)]).encode()
    ).hexdigest()[:16]
    return newest.model_copy(
        update={
            "id": GATHERED_PREFIX + digest,
            # Knowledge, whatever the members: a line answers questions; it is
            # never part of the core loaded into every chat.
            "category": "knowledge",
            "key": LABEL,
            "value": value,
            "confidence": max(f.confidence for f in kept),
            "importance": max(f.importance for f in kept),
            "source": "extracted",
            "turn_ids": list(dict.fromkeys(t for f in kept for t in f.turn_ids)),
            "evidence": "",
            "body": "",
            "valid_from": min(f.valid_from for f in kept),
            "valid_until": None,
            "expires_at": None,
            "superseded_by": None,
            "ended_at": None,
            "status": "active",
            "conflicts_with": None,
        }
    )
