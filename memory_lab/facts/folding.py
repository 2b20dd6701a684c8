"""Which extracted facts consolidation folds into one row, and what that row says.

Pure: `FactMemory.consolidate` stores the plan. Facts group within a category by
meaning (`grouping.group_by_meaning` over their "key: value" embeddings), not by
key prefix: `have.allergy` and `have.meeting` share a prefix and nothing else,
while `sign_for.class = pottery class` and `likes.pottery = pottery` are one
pastime under two keys. Without an embedder, facts group by the relation their
key names (the parse head, `likes` of `likes.jazz`). A group of three or more
becomes one candidate whose value `summarise` writes from the members' values.

No value a question could need is folded away: every distinct value is in the
folded row (`consolidation.grounded_summariser` refuses a summary that drops
one), each said with its slot when its key does not name it ("budget food: 400"
beside "budget rent: 1200", where the values alone would not say which is
which), and the members stay in their supersession chain, so gathered lines
(`gathering`) still list each with its own date.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np

from memory_lab.facts.grouping import (
    RELATED_THRESHOLD,
    fact_meaning,
    group_by_meaning,
    most_said,
    relation,
)
from memory_lab.facts.reconciliation import normalise_value
from memory_lab.text import content_words
from memory_lab.types import Fact, FactCandidate

NEVER_FOLDED = frozenset({"unresolved", "decision"})
"""Categories whose facts are offered one by one (an open item's due date, a
decision's follow-up), so consolidation never folds them into one row."""

MIN_GROUP = 3
"""Fewer related facts than this read fine as they are."""

Embed = Callable[[Sequence[str]], np.ndarray]
"""Unit-length embeddings of texts, one row each (an `Embedder.embed`)."""


def fold_plan(
    active: list[Fact],
    subject: str,
    summarise: Callable[[list[str]], str] | None = None,
    *,
    embed: Embed | None = None,
    threshold: float = RELATED_THRESHOLD,
) -> list[tuple[list[Fact], FactCandidate]]:
    """Groups to fold, oldest member first, each with the candidate replacing it.

    Explicit facts are never folded: the user said each one. Nor are single
    slots (a key without qualifiers, "budget", "editor"): a slot holds one value
    that a later one replaces, where a list key (`likes.jazz`) is one of many.
    `embed` groups by meaning at `threshold`; without it, by relation.
    """
    by_category: dict[str, list[Fact]] = defaultdict(list)
    for fact in active:
        if (
            fact.source == "extracted"
            and "." in fact.key
            and fact.category not in NEVER_FOLDED
        ):
            by_category[fact.category].append(fact)
    plan = []
    for category, facts in sorted(by_category.items()):
        facts.sort(key=lambda f: (f.created_at, f.id))
        for members in _groups(facts, embed, threshold):
            if len(members) >= MIN_GROUP:
                plan.append(
                    (members, _candidate(category, subject, members, summarise))
                )
    return plan


def _groups(
    facts: list[Fact], embed: Embed | None, threshold: float
) -> list[list[Fact]]:
    """The facts grouped by meaning with `embed`, else by relation."""
    if embed is None:
        by_relation: dict[str, list[Fact]] = defaultdict(list)
        for fact in facts:
            by_relation[relation(fact.key)].append(fact)
        return list(by_relation.values())
    vectors = np.asarray(embed([fact_meaning(f) for f in facts]), dtype=np.float32)
    return [[facts[i] for i in g] for g in group_by_meaning(vectors, threshold)]


def _candidate(
    category: str,
    subject: str,
    members: list[Fact],
    summarise: Callable[[list[str]], str] | None,
) -> FactCandidate:
    one_relation = len({relation(m.key) for m in members}) == 1
    values: list[str] = []
    for m in members:
        said = member_value(m, with_relation=not one_relation)
        if normalise_value(said) not in {normalise_value(v) for v in values}:
            values.append(said)
    return FactCandidate(
        category=category,
        key=f"{most_said([m.key for m in members])}.all",
        value=(summarise or "; ".join)(values),
        subject=subject,
        confidence=min(m.confidence for m in members),
        importance=max(m.importance for m in members),
        source="extracted",
        session=members[-1].session,
        turn_ids=sorted({t for m in members for t in m.turn_ids}),
        evidence="consolidated from " + ", ".join(m.id for m in members),
    )


def member_value(fact: Fact, *, with_relation: bool = False) -> str:
    """A member's value as the folded row says it, so it still says what it was.

    Its qualifiers when the value does not name them (`budget.food` = 400 says
    "food: 400", beside "rent: 1200"), and with `with_relation` its relation
    when the group mixes relations ("made pottery mugs" beside "bought clay").
    `likes.jazz` = jazz says "jazz".
    """
    head, *qualifiers = fact.key.split(".")
    said = " ".join(fact.value.split())
    named = " ".join(qualifiers)
    if named and not _words(named) & _words(said):
        said = f"{named.replace('_', ' ')}: {said}"
    verb = head.replace("_", " ")
    if with_relation and not _words(verb) <= _words(said):
        said = f"{verb} {said}"
    return said


def _words(text: str) -> set[str]:
    return content_words(text.replace("_", " "))
