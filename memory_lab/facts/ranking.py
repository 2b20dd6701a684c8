"""The one order facts are shown in.

Assembly ranks facts against a question; fact memory keeps them pre-sorted so it
can hand assembly only the facts that can reach the top. Both must agree to the
last tie-break, so the order is written once, here.
"""

from __future__ import annotations

from memory_lab.config import FactConfig
from memory_lab.types import Fact

OUTSIDE_CORE = 3
"""The `core_rank` of a fact outside the core."""


def in_core(fact: Fact, config: FactConfig) -> bool:
    """Whether a fact belongs to the core loaded into every chat (seed 000).

    The standing categories (instructions, constraints, identity) and the
    preferences of the person being assisted ("simple, beginner-level
    explanations"). What people in a conversation say about themselves (LoCoMo's
    speakers, whatever its category) is knowledge about them and competes on
    relevance: loaded into every answer it would spend the budget on who they
    are whatever was asked.
    """
    return core_rank(fact, config) < OUTSIDE_CORE


def core_rank(fact: Fact, config: FactConfig) -> int:
    """Where a fact stands in the core: 0 to 3, lower first.

    0 for the user's instructions, 1 for the rest of the standing core
    (constraints, identity), 2 for the user's preferences, 3 for everything else.
    Instructions govern every reply, so no question displaces them; the rest of
    the core yields to the facts a question asks about.
    """
    if fact.subject != "user":
        return OUTSIDE_CORE
    if fact.category == "instruction":
        return 0
    if config.standing(fact.category):
        return 1
    return 2 if fact.category == "preference" else OUTSIDE_CORE


def fact_order(fact: Fact, config: FactConfig, overlap: int = 0) -> tuple:
    """Sort key of a fact, given how many content words it shares with the query.

    The user's instructions first, then facts that share words with the question
    (more shared words first), then the rest of the core (constraints and
    identity, then preferences), then the rest; within each, category priority,
    importance, recency of confirmation and id. At a tight budget a standing
    preference such as "bullet points" or a job title must not crowd out the
    fact a question asks for. With `overlap` left at 0 it is the
    query-independent order.
    """
    rank = core_rank(fact, config)
    tier = 0 if rank == 0 else (1 if overlap else 2)
    return (
        tier,
        -overlap,
        rank,
        config.priority(fact.category),
        -fact.importance,
        -fact.last_confirmed_at.timestamp(),
        fact.id,
    )
