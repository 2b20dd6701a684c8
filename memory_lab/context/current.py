"""Questions about the present get the value in force, not an older one.

A move, a change or a correction supersedes a fact's row, but the turn that
stated the old value stays, and it often matches the question better than the
turn that stated the change ("I live in Uppsala" shares a word with "where do I
live now?", "we relocated to Lyon" none). So when a turn that stated a value
since replaced ranks among the first `HEAD` turns for a question not about the
past (`tense.asks_about_past`):

- the value in force (the active end of the old row's supersession chain)
  joins the candidate facts, scored just above that turn, and assembly keeps it
  whatever its words;
- the turn moves below the turns stating the current value that rank in the
  head, so the budget reaches them first;
- the pair (old value, current value) goes to the bundle (`ContextBundle.
  replaced`), so a responder leads with the current value.

A question about the past keeps the ranking as it was: the old value still
answers "where did I live before?". A replaced value whose words the new one
holds (likes folded into one list, a value reworded) did not change, and is
left alone. The question is parsed only when such a turn is in the head.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice

from memory_lab.context.tense import asks_about_past
from memory_lab.facts.memory import FactMemory
from memory_lab.text import content_words
from memory_lab.types import Fact, Message, Replaced

HEAD = 20
"""Turns of the ranking looked at: more than a 1,500-token context shows."""

ABOVE = 1e-9
"""How far above a turn's score the value replacing its own is put."""

Chains = dict[str, list[tuple[Fact, Fact]]]
"""Turn id -> (old row, row in force) for each replaced value the turn stated."""

_CACHE: weakref.WeakKeyDictionary[FactMemory, dict[str, tuple[int, Chains]]] = (
    weakref.WeakKeyDictionary()
)
"""Chains per fact memory and tenant, kept until the tenant's rows change."""


@dataclass
class Preferred:
    """A question's candidates and ranking, with the current values put first."""

    facts: list[Fact]
    turns: Sequence[tuple[Message, float]]
    fact_scores: dict[str, float]
    rescored: dict[str, float] = field(default_factory=dict)
    """New scores for turns of the first `HEAD` (read with `ShownTurns`)."""
    current: frozenset[str] = frozenset()
    """Ids of the values in force the question reached through older ones."""
    replaced: list[Replaced] = field(default_factory=list)


def replaced_values(facts: FactMemory, tenant: str) -> Chains:
    """Each turn that stated a value since replaced, with its old and current rows."""
    revision = facts.store.revision(tenant)
    kept = _CACHE.setdefault(facts, {}).get(tenant)
    if kept is not None and kept[0] == revision:
        return kept[1]
    superseded = {f.id: f for f in facts.store.rows(tenant, status="superseded")}
    active = {f.id: f for f in facts.active(tenant)}
    chains: Chains = {}
    for old in superseded.values():
        current = _in_force(old, superseded, active)
        if current is None or content_words(old.value) <= content_words(current.value):
            continue
        for turn in old.turn_ids:
            if turn not in current.turn_ids:
                chains.setdefault(turn, []).append((old, current))
    _CACHE[facts][tenant] = (revision, chains)
    return chains


def _in_force(
    old: Fact, superseded: dict[str, Fact], active: dict[str, Fact]
) -> Fact | None:
    """The active row at the end of `old`'s chain; None when the chain ends else."""
    seen = {old.id}
    row = old
    while row.superseded_by is not None:
        nxt = row.superseded_by
        if nxt in active:
            return active[nxt]
        if nxt in seen or nxt not in superseded:
            return None
        seen.add(nxt)
        row = superseded[nxt]
    return None


def prefer_current(
    query: str,
    facts: list[Fact],
    turns: Sequence[tuple[Message, float]],
    fact_scores: dict[str, float],
    chains: Chains,
    *,
    now: datetime,
) -> Preferred:
    """The ranking with the values in force ahead of the turns that stated older ones.

    Unchanged when no such turn is in the head or the question asks about the past.
    """
    unchanged = Preferred(facts, turns, fact_scores)
    if not chains:
        return unchanged
    head = list(islice(turns, HEAD))
    # A row kept with the chains may have run past its time to live since.
    live = {
        m.id: pairs
        for m, _ in head
        if (pairs := [(o, c) for o, c in chains.get(m.id, ()) if c.is_active(now)])
    }
    stale = [(m, score) for m, score in head if m.id in live]
    if not stale or asks_about_past(query):
        return unchanged
    scores = dict(fact_scores)
    known = {f.id for f in facts}
    added: list[Fact] = []
    replaced: list[Replaced] = []
    rescored: dict[str, float] = {}
    for m, score in stale:  # best first: a value is placed by its best turn
        for old, current in live[m.id]:
            if current.id not in scores or scores[current.id] <= score:
                scores[current.id] = score + ABOVE
            if current.id not in known:
                known.add(current.id)
                added.append(current)
            pair = Replaced(old=old.value, current=current.value)
            if pair not in replaced:
                replaced.append(pair)
            stating = [s for t, s in head if t.id in current.turn_ids and s < score]
            if stating:
                rescored[m.id] = min(rescored.get(m.id, score), min(stating) - ABOVE)
    current_ids = frozenset(c.id for pairs in live.values() for _, c in pairs)
    return Preferred(facts + added, turns, scores, rescored, current_ids, replaced)
