"""Facts about the same kind of thing, told by meaning rather than by key spelling.

Keys read from a parse are a head and its qualifiers, so a shared prefix is weak
evidence of kinship: `have.allergy` and `have.meeting` share one and nothing
else, while `sign_for.class = pottery class` and `likes.pottery = pottery` share
none and are one pastime. The embeddings of "key: value" (`dedup.meaning_text`)
tell these apart. Consolidation folds the groups found here, and the gathered
lines of the context list them.

Grouping is complete linkage, read greedily in the order given: a fact joins the
first group whose every member is at least `threshold` alike, else starts one.
Complete rather than single linkage, because chains of near neighbours
("pottery" ~ "painting" ~ "painting a sunset" ~ "sunset at the beach") would
otherwise join facts that share nothing. A few dozen facts per subject are
grouped at a time, so the quadratic comparison is cheap and a clustering library
would add a dependency for little.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory_lab.facts.dedup import meaning_text
from memory_lab.types import Fact

RELATED_THRESHOLD = 0.55
"""Cosine of two facts' "key: value" texts (local MiniLM) from which they are one
kind of thing. Measured on pairs: one pastime or one kind of slot under other
keys 0.59-0.70 ("sign for class: pottery class" / "likes pottery: pottery" 0.67,
"visited city: Lisbon" / "travelled to: Porto" 0.62), a shared prefix with
another meaning 0.04-0.24 ("have allergy" / "have meeting" 0.04, "pet name" /
"pet allergy" 0.24), unrelated likes 0.28-0.52 ("plays: guitar" / "plays tennis"
0.52). Below `FactConfig.same_meaning_threshold` (0.7): a group holds different
facts of one kind, not restatements of one fact."""


def fact_meaning(fact: Fact) -> str:
    """What a fact is compared on: its slot in words, then its value."""
    return meaning_text(fact.key, fact.value)


def group_by_meaning(vectors: np.ndarray, threshold: float) -> list[list[int]]:
    """Indices of alike items, grouped by complete linkage in the order given.

    Args:
        vectors: One unit-length row per item (cosine is the dot product).
        threshold: The least cosine between any two members of a group.

    Returns:
        The groups in order of their first member, each in the order given.
    """
    if len(vectors) == 0:
        return []
    similar = (vectors @ vectors.T) >= threshold
    # Row g: the items alike to every member of group g, so far.
    joinable = np.zeros_like(similar)
    groups: list[list[int]] = []
    for i in range(len(vectors)):
        open_to = np.flatnonzero(joinable[: len(groups), i])
        if len(open_to):
            g = int(open_to[0])
            groups[g].append(i)
            joinable[g] &= similar[i]
        else:
            joinable[len(groups)] = similar[i]
            groups.append([i])
    return groups


def relation(key: str) -> str:
    """A key's head, the relation a parse read ("go_on.trip" -> "go_on")."""
    return key.split(".", 1)[0]


def most_said(keys: Sequence[str]) -> str:
    """The relation most members are under; the first said among equals."""
    heads = [relation(k) for k in keys]
    return max(dict.fromkeys(heads), key=heads.count)
