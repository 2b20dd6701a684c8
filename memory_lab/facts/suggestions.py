"""Proactive suggestions: the memory offering to pick up what was left open.

Dated items, stale items and follow-ups.

Offered as prompts the user may click, never sent as unsolicited messages. An
open item with a date ("file the VAT return before May 12") is offered before
that date and flagged as overdue after it; an undated open item is offered once
it has been open a while; a recent decision is offered a follow-up once it has
had time to play out, whatever words it was stated in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from memory_lab.config import FactConfig
from memory_lab.facts.valid_time import resolve_deadline
from memory_lab.types import Fact

FOLLOW_UP_SPAN = 4
"""Decisions are followed up from `stale_open_item_days` old to this many times that."""


class Suggestion(BaseModel):
    """A prompt the UI can offer, with the fact that prompted it."""

    model_config = ConfigDict(frozen=True)

    prompt: str
    reason: str
    fact_id: str
    due: datetime | None = None
    overdue: bool = False


def deadline_of(fact: Fact) -> datetime | None:
    """When an open item is due, read from its statement, dated when it was said."""
    return resolve_deadline(fact.evidence or fact.value, fact.valid_from)


def _dated(fact: Fact, due: datetime, now: datetime) -> Suggestion:
    when = due.date().isoformat()
    overdue = now >= due
    if overdue:
        prompt = f"Overdue since {when}: {fact.value}. Is it done?"
        reason = f"was due {(now - due).days} day(s) ago"
    else:
        prompt = f"Coming up by {when}: {fact.value}. Shall we prepare?"
        reason = f"due in {(due - now).days} day(s)"
    return Suggestion(
        prompt=prompt, reason=reason, fact_id=fact.id, due=due, overdue=overdue
    )


def suggest(
    active: Sequence[Fact], now: datetime, config: FactConfig
) -> list[Suggestion]:
    """Dated items (overdue first, then soonest), stale open items, follow-ups."""
    dated, stale, follow = [], [], []
    for f in sorted(active, key=lambda f: (f.valid_from, f.id)):
        age = (now - f.valid_from).days
        due = deadline_of(f) if f.category in ("unresolved", "decision") else None
        if due is not None:
            dated.append(_dated(f, due, now))
        elif f.category == "unresolved" and age >= config.stale_open_item_days:
            stale.append(
                Suggestion(
                    prompt=f"Earlier you mentioned: {f.value}. Shall we pick that up?",
                    reason=f"open item from {age} days ago",
                    fact_id=f.id,
                )
            )
        elif (
            f.category == "decision"
            and config.stale_open_item_days
            <= age
            <= FOLLOW_UP_SPAN * config.stale_open_item_days
        ):
            follow.append(
                Suggestion(
                    prompt=f"You decided: {f.value}. How is it working out?",
                    reason=f"decision from {age} days ago",
                    fact_id=f.id,
                )
            )
    dated.sort(key=lambda s: (not s.overdue, s.due, s.fact_id))
    return dated + stale + follow
