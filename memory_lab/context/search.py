"""Search across the tiers: facts, episodes and turns in one ranked list.

Each tier is ranked by the retrieval the context uses (facts and turns on one
fused scale, episodes by meaning and words); the three orders are fused by rank,
so a tier with many weak matches cannot crowd out one with a strong one. What a
forgotten fact withholds from a context is withheld from search too.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.context.build import Sources, rank_turns_and_facts
from memory_lab.context.withheld import withheld_for
from memory_lab.episodes.search import search_episodes
from memory_lab.fusion import fuse_ranks
from memory_lab.text import content_words, fact_words
from memory_lab.types import Hit, Message


def search_tiers(
    deps: Sources, tenant: str, query: str, window: Sequence[Message], *, k: int
) -> list[Hit]:
    """The `k` best hits for `query`, best first; an empty query finds nothing."""
    if not query.strip() or k <= 0:
        return []
    now = deps.clock.now()
    limit = max(k, deps.config.assembly.max_fact_lines)
    episodes = search_episodes(deps.episodes, tenant, query, deps.config.retrieval)
    withheld = withheld_for(deps.facts, tenant, window, query, now=now)
    ranked = rank_turns_and_facts(
        deps,
        tenant,
        query,
        window,
        episodes,
        deps.facts.candidates(tenant, query, now=now, limit=limit),
        now=now,
        limit=limit,
        withheld=withheld,
    )
    facts, turns = withheld.held(ranked.facts), ranked.turns
    fact_scores = ranked.fact_scores
    # Shown as a context shows them: without what forgotten facts withhold.
    episodes = withheld.episodes(episodes)
    if not fact_scores:
        # No turns to rank against (facts saved by tools alone): facts that
        # share a content word with the query, in the fact order.
        words = content_words(query)
        fact_scores = {
            f.id: 1.0 / (1 + rank)
            for rank, f in enumerate(
                f for f in facts if words & fact_words(f.key, f.value)
            )
        }
    hits: dict[str, Hit] = {}
    for fact in facts:
        if fact.id in fact_scores:
            hits[f"f:{fact.id}"] = Hit(
                tier="facts",
                id=fact.id,
                text=f"{fact.subject} {fact.key}: {fact.value}",
                source=list(fact.turn_ids),
                date=fact.valid_from,
                score=0.0,
            )
    for episode, _ in episodes:
        hits[f"e:{episode.id}"] = Hit(
            tier="episodes",
            id=episode.id,
            text=episode.render(),
            source=list(episode.turn_ids),
            date=episode.end,
            score=0.0,
        )
    for turn, _ in turns:
        hits[f"t:{turn.id}"] = Hit(
            tier="turns",
            id=turn.id,
            text=f"{turn.who}: {turn.content}",
            source=[turn.id],
            date=turn.timestamp,
            score=0.0,
        )
    fact_order = sorted(
        (f"f:{i}" for i in fact_scores if f"f:{i}" in hits),
        key=lambda key: -fact_scores[key[2:]],
    )
    fused = fuse_ranks(
        [
            fact_order,
            [f"e:{ep.id}" for ep, _ in episodes],
            [f"t:{turn.id}" for turn, _ in turns],
        ]
    )
    best = sorted(fused, key=lambda key: (-fused[key], key))[:k]
    return [
        hits[key].model_copy(update={"score": round(fused[key], 6)}) for key in best
    ]
