"""Which facts a question's context considers, and in what order.

Stage 1 of assembly, apart from the layout: the facts above the confidence
floor ranked against the question, and under a question-led split only those
it asks about. `kept` names facts the question reached another way (the value
in force of one it found stated in an older form, see `current`): they share
no word with the question, yet answer it, so they stay and rank with the best
match.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime

from memory_lab.config import FactConfig
from memory_lab.facts.ranking import fact_order, in_core
from memory_lab.facts.reconciliation import effective_confidence
from memory_lab.text import content_words, fact_words, subject_words
from memory_lab.types import Fact


def rank_facts(
    facts: Sequence[Fact],
    query: str,
    now: datetime,
    config: FactConfig,
    *,
    kept: AbstractSet[str] = frozenset(),
) -> list[Fact]:
    """Stage 1: active facts above the confidence floor, in a deterministic order.

    The user's instructions come first, within the block's budget; then facts by
    overlap with the query; then the rest of the core (`in_core`: the user's
    constraints, identity and preferences); ties by category priority,
    importance, recency and id (`fact_order`). When some facts share words with
    the query, facts that share none (outside the core) are left out, so their
    budget goes to episodes instead. A fact about someone other than the user
    shares words only when the question names them (`about_asked`). A `kept`
    fact counts as sharing as many words as the best match.
    """
    words = content_words(query)
    chosen = [
        f
        for f in facts
        if effective_confidence(f, now, config) >= config.confidence_floor
    ]
    overlap = {
        f.id: len(words & fact_words(f.key, f.value)) if about_asked(f, words) else 0
        for f in chosen
    }
    if kept:
        best = max(overlap.values(), default=0)
        overlap |= {i: max(best, 1) for i in overlap if i in kept}
    if any(overlap.values()):
        chosen = [f for f in chosen if overlap[f.id] or in_core(f, config)]
    return sorted(chosen, key=lambda f: fact_order(f, config, overlap[f.id]))


def about_asked(fact: Fact, query_words: set[str]) -> bool:
    """Whether a fact is about someone the question asks about.

    The user's own facts always are. A fact about someone else (a LoCoMo
    speaker, "user's sister") is only when the question names them: asked
    "what car do I drive?", the sister's Tesla answers nothing, and asked about
    Melanie, Caroline's facts do not share her budget.
    """
    return fact.subject == "user" or bool(query_words & subject_words(fact.subject))


def asked_facts(
    ranked: list[Fact],
    query: str,
    config: FactConfig,
    *,
    named: bool = False,
    kept: AbstractSet[str] = frozenset(),
) -> list[Fact]:
    """The core, and the other facts only if they share a word with the question.

    `rank_facts` falls back to every fact when none matches; under a question-led
    split that budget is better spent on turns found by meaning. With `named`,
    facts about someone the question names stay too, whatever their words: they
    are ranked against the question with the turns, which decides if they show.
    `kept` facts stay whatever their words.
    """
    words = content_words(query)
    return [
        f
        for f in ranked
        if in_core(f, config)
        or f.id in kept
        or (
            about_asked(f, words)
            and (
                bool(words & fact_words(f.key, f.value))
                or (named and f.subject != "user")
            )
        )
    ]
