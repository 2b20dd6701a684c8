"""The one order facts are shown in.

Assembly ranks facts against a question; fact memory keeps them pre-sorted so it
can hand assembly only the facts that can reach the top. Both must agree to the
last tie-break, so the order is written once, here.
"""

from __future__ import annotations

from memory_lab.config import FactConfig
from memory_lab.types import Fact


def in_core(fact: Fact, config: FactConfig) -> bool:
    """Whether a fact belongs to the core loaded into every chat (seed 000).

    The standing categories (instructions, constraints, identity) and the
    preferences of the person being assisted ("simple, beginner-level
    explanations"). What people in a conversation say about themselves (LoCoMo's
    speakers, whatever its category) is knowledge about them and competes on
    relevance: loaded into every answer it would spend the budget on who they
    are whatever was asked.
    """
    return fact.subject == "user" and (
        config.standing(fact.category) or fact.category == "preference"
    )


def standing_core(fact: Fact, config: FactConfig) -> bool:
    """The part of the core no question displaces.

    The user's instructions, constraints and identity govern every reply.
    """
    return fact.subject == "user" and config.standing(fact.category)


def fact_order(fact: Fact, config: FactConfig, overlap: int = 0) -> tuple:
    """Sort key of a fact, given how many content words it shares with the query.

    The standing core first, then facts that share words with the question (more
    shared words first), then the rest of the core (preferences), then the rest;
    within each, category priority, importance, recency of confirmation and id.
    A preference such as "bullet points" must not crowd out the fact a question
    asks for. With `overlap` left at 0 it is the query-independent order.
    """
    tier = 0 if standing_core(fact, config) else (1 if overlap else 2)
    return (
        tier,
        -overlap,
        0 if in_core(fact, config) else 1,
        config.priority(fact.category),
        -fact.importance,
        -fact.last_confirmed_at.timestamp(),
        fact.id,
    )
