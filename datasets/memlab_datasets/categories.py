"""The one place that says what a probe category number means.

Papers disagree on LoCoMo's category names (the Mem0 paper swaps 1, 3 and 4), so
every result is keyed by the number and this mapping is printed beside it. The
numbers 1 to 5 follow LoCoMo's own evaluation code; 6 exists only in the synthetic
generator, for knowledge updates, which LoCoMo does not test separately. 7 to 12
are LongMemEval's question types (`LONGMEMEVAL_CATEGORIES`), kept apart from
`CATEGORIES` so the LoCoMo and synthetic reports' legend stays as it was.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

ProbeKind = Literal["recall", "update", "temporal", "multi_hop", "abstention"]
PROBE_KINDS: tuple[ProbeKind, ...] = (
    "recall",
    "update",
    "temporal",
    "multi_hop",
    "abstention",
)


class Category(NamedTuple):
    """A category number's name (as LoCoMo's code reads it) and its probe kind."""

    name: str
    kind: ProbeKind


CATEGORIES: dict[int, Category] = {
    1: Category("multi-hop", "multi_hop"),
    2: Category("temporal", "temporal"),
    3: Category("open-domain", "recall"),
    4: Category("single-hop", "recall"),
    5: Category("adversarial", "abstention"),
    6: Category("knowledge-update", "update"),
}

# The category the synthetic generator files each kind under, so synthetic and
# LoCoMo results share one key space.
KIND_CATEGORY: dict[ProbeKind, int] = {
    "multi_hop": 1,
    "temporal": 2,
    "recall": 4,
    "abstention": 5,
    "update": 6,
}

# LongMemEval's question types, numbered after ours. Its abstention questions
# (ids ending in "_abs") keep their type's category and take the abstention kind.
LONGMEMEVAL_CATEGORIES: dict[int, Category] = {
    7: Category("single-session-user", "recall"),
    8: Category("single-session-assistant", "recall"),
    9: Category("single-session-preference", "recall"),
    10: Category("multi-session", "multi_hop"),
    11: Category("knowledge-update", "update"),
    12: Category("temporal-reasoning", "temporal"),
}

ABSTENTION_ANSWER = "not known"
"""Gold answer of every abstention probe: the thing was never stated."""


def category_name(number: int) -> str:
    """Name of a category number, or 'unknown' for numbers outside the mapping."""
    category = CATEGORIES.get(number) or LONGMEMEVAL_CATEGORIES.get(number)
    return category.name if category else "unknown"


def kind_of(number: int) -> ProbeKind:
    """Probe kind of a category number.

    Raises:
        KeyError: for a number outside the mapping, so a new category in a data
            file is noticed instead of silently scored as recall.
    """
    return CATEGORIES[number].kind
