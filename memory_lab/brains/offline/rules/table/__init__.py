"""The rules table, in the order the driver tries it.

Order matters only for ties: when two rules give the same slot the same
confidence in one turn, the earlier rule's statement is kept.
"""

from __future__ import annotations

from memory_lab.brains.offline.rules.rule import Rule
from memory_lab.brains.offline.rules.table.constraints import CONSTRAINTS
from memory_lab.brains.offline.rules.table.decisions import DECISIONS
from memory_lab.brains.offline.rules.table.identity import (
    IDENTITY,
    THIRD_PARTIES,
)
from memory_lab.brains.offline.rules.table.instructions import INSTRUCTIONS
from memory_lab.brains.offline.rules.table.knowledge import KNOWLEDGE
from memory_lab.brains.offline.rules.table.open_items import OPEN_ITEMS
from memory_lab.brains.offline.rules.table.preferences import PREFERENCES

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
