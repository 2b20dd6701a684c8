"""The rules table, in the order the driver tries it.

Order matters only for ties: when two rules give the same slot the same
confidence in one turn, the earlier rule's statement is kept.
"""

from __future__ import annotations

from memory_lab.brains.rule_based.extraction.rule import Rule
from memory_lab.brains.rule_based.extraction.rules.constraints import CONSTRAINTS
from memory_lab.brains.rule_based.extraction.rules.decisions import DECISIONS
from memory_lab.brains.rule_based.extraction.rules.identity import (
    IDENTITY,
    THIRD_PARTIES,
)
from memory_lab.brains.rule_based.extraction.rules.instructions import INSTRUCTIONS
from memory_lab.brains.rule_based.extraction.rules.knowledge import KNOWLEDGE
from memory_lab.brains.rule_based.extraction.rules.open_items import OPEN_ITEMS
from memory_lab.brains.rule_based.extraction.rules.preferences import PREFERENCES

RULES: tuple[Rule, ...] = (
    *IDENTITY,
    *THIRD_PARTIES,
    *PREFERENCES,
    *CONSTRAINTS,
    *INSTRUCTIONS,
    *DECISIONS,
    *KNOWLEDGE,
    *OPEN_ITEMS,
)

__all__ = ["RULES", "Rule"]
