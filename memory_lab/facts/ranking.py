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


def fact_order(fact: Fact, config: FactConfig, overlap: int = 0) -> tuple:
    """Sort key of a fact, given how many content words it shares with the query.

    The core (`in_core`) first, then more shared words, category priority,
    importance, recency of confirmation and id. With `overlap` left at 0 it is
    the query-independent order.
    """
    return (
        0 if in_core(fact, config) else 1,
        -overlap,
        config.priority(fact.category),
        -fact.importance,
        -fact.last_confirmed_at.timestamp(),
        fact.id,
    )
