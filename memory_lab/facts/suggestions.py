"""Proactive suggestions: the memory offering to pick up what was left open.

They cover stale open items and decisions to follow up.

Offered as prompts the user may click, never sent as unsolicited messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from memory_lab.config import FactConfig
from memory_lab.types import Fact

_FOLLOW_UP = re.compile(
    r"\b(will|going to|plan(?:ning)? to|next|deadline|by (?:monday|tuesday|wednesday|"
    r"thursday|friday|the end)|prepare|file|submit|hire|book|schedule)\b",
    re.IGNORECASE,
)


class Suggestion(BaseModel):
    """A prompt the UI can offer, with the fact that prompted it."""

    model_config = ConfigDict(frozen=True)

    prompt: str
    reason: str
    fact_id: str


def suggest(
    active: Sequence[Fact], now: datetime, config: FactConfig
) -> list[Suggestion]:
    """Open items older than the configured days, and decisions to follow up."""
    out = []
    for f in sorted(active, key=lambda f: (f.valid_from, f.id)):
        age = (now - f.valid_from).days
        if f.category == "unresolved" and age >= config.stale_open_item_days:
            out.append(
                Suggestion(
                    prompt=f"Earlier you mentioned: {f.value}. Shall we pick that up?",
                    reason=f"open item from {age} days ago",
                    fact_id=f.id,
                )
            )
        elif f.category == "decision" and _FOLLOW_UP.search(f.value):
            out.append(
                Suggestion(
                    prompt=f"You decided: {f.value}. Want help with the next step?",
                    reason="decision that needs a follow-up",
                    fact_id=f.id,
                )
            )
    return out
