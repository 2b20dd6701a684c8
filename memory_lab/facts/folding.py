"""Which extracted facts consolidation folds into one row, and what that row says.

Pure: `FactMemory.consolidate` stores the plan. Facts group by category and key
prefix (`likes.hiking`, `likes.jazz` -> `likes`); a group of three or more becomes
one candidate whose value `summarise` writes from the members' distinct values.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from memory_lab.facts.reconciliation import normalise_value
from memory_lab.types import Fact, FactCandidate

NEVER_FOLDED = frozenset({"unresolved", "decision"})
"""Categories whose facts are offered one by one (an open item's due date, a
decision's follow-up), so consolidation never folds them into one row."""

MIN_GROUP = 3
"""Fewer related facts than this read fine as they are."""


def fold_plan(
    active: list[Fact],
    subject: str,
    summarise: Callable[[list[str]], str] | None = None,
) -> list[tuple[list[Fact], FactCandidate]]:
    """Groups to fold, oldest member first, each with the candidate replacing it.

    Explicit facts are never folded: the user said each one.
    """
    groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for fact in active:
        if (
            fact.source == "extracted"
            and "." in fact.key
            and fact.category not in NEVER_FOLDED
        ):
            groups[(fact.category, fact.key.split(".", 1)[0])].append(fact)
    plan = []
    for (category, prefix), members in sorted(groups.items()):
        if len(members) < MIN_GROUP:
            continue
        members.sort(key=lambda f: (f.created_at, f.id))
        values: list[str] = []
        for m in members:
            if normalise_value(m.value) not in {normalise_value(v) for v in values}:
                values.append(m.value)
        candidate = FactCandidate(
            category=category,
            key=f"{prefix}.all",
            value=(summarise or "; ".join)(values),
            subject=subject,
            confidence=min(m.confidence for m in members),
            importance=max(m.importance for m in members),
            source="extracted",
            session=members[-1].session,
            turn_ids=sorted({t for m in members for t in m.turn_ids}),
            evidence="consolidated from " + ", ".join(m.id for m in members),
        )
        plan.append((members, candidate))
    return plan
