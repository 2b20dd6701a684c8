"""What happens when a new fact meets the stored one: the pure decision.

Facts carry a trust tier (explicit, saved by the user, outranks extracted) and a
validity window, so a changed value supersedes the old row instead of
overwriting it, and the history of a key can always be read back.

Kept free of storage so the rules can be read, tested and property-checked on
their own: add, supersede, confirm, skip, or flag a contradiction. Rows are
never deleted; an update end-dates the old row and points it at the new one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from memory_lab.config import FactConfig
from memory_lab.events import EventKind
from memory_lab.types import Fact, FactCandidate

Action = Literal[
    "added",
    "superseded",
    "confirmed",
    "skipped_duplicate",
    "skipped_lower_confidence",
    "contradiction",
    "noop",
]


@dataclass(frozen=True)
class Outcome:
    """Rows to insert and rows to update, and what to tell the user."""

    action: Action
    inserts: list[Fact] = field(default_factory=list)
    updates: list[Fact] = field(default_factory=list)
    fact: Fact | None = None
    previous: Fact | None = None


def normalise_value(value: str) -> str:
    """Compare values ignoring case, spacing and trailing punctuation."""
    return re.sub(r"\s+", " ", value).strip().strip(".!,;:").casefold()


def fact_id(tenant: str, candidate: FactCandidate, now: datetime) -> str:
    """A deterministic id, so replays and retries produce the same rows."""
    raw = "|".join(
        [
            tenant,
            candidate.subject,
            candidate.category,
            candidate.key,
            normalise_value(candidate.value),
            candidate.source,
            ",".join(candidate.turn_ids),
            now.isoformat(),
        ]
    )
    return "f_" + hashlib.sha1(raw.encode()).hexdigest()[:16]


def effective_confidence(fact: Fact, now: datetime, config: FactConfig) -> float:
    """Confidence after decay: extracted facts fade with time since last confirmed.

    Explicit facts (saved by the user through a tool) never decay.
    """
    if fact.source == "explicit":
        return fact.confidence
    half_life = config.categories.get(fact.category)
    days = half_life.half_life_days if half_life else None
    if not days:
        return fact.confidence
    age = max(0.0, (now - fact.last_confirmed_at).total_seconds() / 86400)
    return fact.confidence * 0.5 ** (age / days)


def new_fact(
    tenant: str, candidate: FactCandidate, now: datetime, config: FactConfig
) -> Fact:
    """The row a candidate becomes when it is stored.

    Valid time starts when the statement says the fact began (or when it was
    said); record time starts now.
    """
    # What the user said to remember stays until they say otherwise.
    ttl = None if candidate.source == "explicit" else config.ttl(candidate.category)
    return Fact(
        id=fact_id(tenant, candidate, now),
        tenant=tenant,
        subject=candidate.subject,
        category=candidate.category,
        key=candidate.key,
        value=candidate.value,
        confidence=candidate.confidence,
        importance=candidate.importance,
        source=candidate.source,
        session=candidate.session,
        turn_ids=list(candidate.turn_ids),
        evidence=candidate.evidence,
        body=candidate.body,
        valid_from=candidate.valid_from or now,
        expires_at=None if ttl is None else now + ttl,
        last_confirmed_at=now,
        created_at=now,
    )


def reconcile(
    tenant: str,
    candidate: FactCandidate,
    active: Fact | None,
    now: datetime,
    config: FactConfig,
) -> Outcome:
    """Decide what a candidate does to the active row of its (subject, category, key).

    Rules, in order:
    - nothing active: add;
    - same value from the same source and turns: identical re-save, no-op;
    - same value otherwise: a much less confident restatement is skipped, else the
      stored row is re-confirmed (confidence boosted, TTL renewed);
    - different value: an extracted fact never replaces an explicit one (the
      candidate is stored as a flagged contradiction); otherwise the newer value
      supersedes unless it is clearly less confident, which is also flagged;
      when both values were extracted, the new row is flagged for review
      (`conflicts_with` names the row it replaced) until it is confirmed.
    """
    config.policy(candidate.category)
    if active is None:
        row = new_fact(tenant, candidate, now, config)
        return Outcome("added", inserts=[row], fact=row)
    same_value = normalise_value(candidate.value) == normalise_value(active.value)
    stored_conf = effective_confidence(active, now, config)
    if same_value:
        no_upgrade = candidate.source == active.source or active.source == "explicit"
        if no_upgrade and set(candidate.turn_ids) <= set(active.turn_ids):
            return Outcome("noop", fact=active)
        if (
            candidate.source == "extracted"
            and candidate.confidence < stored_conf - config.restate_margin
        ):
            return Outcome("skipped_lower_confidence", fact=active)
        explicit = "explicit" in (candidate.source, active.source)
        ttl = None if explicit else config.ttl(active.category)
        confirmed = active.model_copy(
            update={
                "confidence": min(
                    1.0, max(stored_conf, candidate.confidence) + config.confirm_boost
                ),
                "last_confirmed_at": now,
                "expires_at": None if ttl is None else now + ttl,
                "conflicts_with": None,
                "turn_ids": sorted(set(active.turn_ids) | set(candidate.turn_ids)),
                "source": "explicit" if explicit else "extracted",
            }
        )
        return Outcome(
            "confirmed", updates=[confirmed], fact=confirmed, previous=active
        )
    blocked = active.source == "explicit" and candidate.source == "extracted"
    weaker = (
        candidate.source == "extracted"
        and candidate.confidence < stored_conf - config.supersede_margin
    )
    if blocked or weaker:
        flagged = new_fact(tenant, candidate, now, config).model_copy(
            update={"status": "contradiction", "conflicts_with": active.id}
        )
        return Outcome(
            "contradiction", inserts=[flagged], fact=flagged, previous=active
        )
    row = new_fact(tenant, candidate, now, config)
    if candidate.source == active.source == "extracted":
        # Neither value was stated as a command, so the newer wins but a person
        # should look: the row points at the value it replaced until confirmed.
        row = row.model_copy(update={"conflicts_with": active.id})
    ended = active.model_copy(
        update={
            "status": "superseded",
            "superseded_by": row.id,
            # The old value held until the new one began (never before it began).
            "valid_until": max(row.valid_from, active.valid_from),
            "ended_at": now,
        }
    )
    return Outcome(
        "superseded", inserts=[row], updates=[ended], fact=row, previous=active
    )


def close(fact: Fact, candidate: FactCandidate, now: datetime) -> Fact:
    """The row an ending leaves: valid until the ending began, still on record.

    "I quit the choir" does not replace the choir with a new value; the fact
    held, and stops holding when the ending was said (or dated). The row stays
    believed for the past, so "did I sing in a choir?" still finds it.
    """
    said = candidate.valid_from or now
    # An ending dated before the fact began says the dates are unreliable ("I
    # joined last spring", stored at the day it was said): it ends when said.
    until = said if said > fact.valid_from else max(now, fact.valid_from)
    return fact.model_copy(
        update={"valid_until": until, "turn_ids": [*fact.turn_ids, *candidate.turn_ids]}
    )


def describe_outcome(outcome: Outcome) -> tuple[EventKind, str]:
    """The event kind and the sentence a UI shows for a write's outcome."""
    fact = outcome.fact
    assert fact is not None
    label = f"{fact.subject}.{fact.category}.{fact.key}"
    match outcome.action:
        case "added":
            return "fact_added", f"Remembered {label} = {fact.value!r}"
        case "superseded":
            old = outcome.previous.value if outcome.previous else "?"
            review = " (flagged for review)" if fact.conflicts_with else ""
            return (
                "fact_superseded",
                f"Updated {label}: {old!r} -> {fact.value!r}{review}",
            )
        case "confirmed":
            return "fact_confirmed", f"Confirmed {label} = {fact.value!r}"
        case "contradiction":
            old = outcome.previous.value if outcome.previous else "?"
            return (
                "contradiction",
                f"Flagged {label}: {fact.value!r} disputes stored {old!r}"
                " (kept stored)",
            )
        case "skipped_lower_confidence":
            return "fact_skipped", f"Skipped a less confident restatement of {label}"
        case _:
            return "fact_skipped", f"Already stored: {label} = {fact.value!r}"


def as_rewording(outcome: Outcome) -> Outcome:
    """The outcome of a paraphrase: rewording is not a dispute, nothing to review."""
    fact = outcome.fact
    if fact is None or not outcome.inserts or fact.status != "active":
        return outcome
    reworded = fact.model_copy(update={"conflicts_with": None})
    inserts = [reworded if r.id == reworded.id else r for r in outcome.inserts]
    return Outcome(outcome.action, inserts, outcome.updates, reworded, outcome.previous)


def with_unique_ids(outcome: Outcome, taken: Callable[[str], bool]) -> Outcome:
    """Salt insert ids that would collide with a stored row (`taken`).

    Ids derive from content and time; a value set back at the same instant
    (A -> B -> A in one batch) would reuse a row's id.
    """
    if not outcome.inserts or outcome.action == "noop":
        return outcome
    # Keyed by str | None so `superseded_by` (None for a current row) looks up as is.
    renamed: dict[str | None, str] = {}
    inserts = []
    for row in outcome.inserts:
        new_id, n = row.id, 1
        while taken(new_id):
            new_id, n = f"{row.id}-{n}", n + 1
        renamed[row.id] = new_id
        inserts.append(row.model_copy(update={"id": new_id}))
    updates = [
        u.model_copy(
            update={"superseded_by": renamed.get(u.superseded_by, u.superseded_by)}
        )
        for u in outcome.updates
    ]
    fact = outcome.fact
    if fact is not None and fact.id in renamed:
        fact = fact.model_copy(update={"id": renamed[fact.id]})
    return Outcome(outcome.action, inserts, updates, fact, outcome.previous)
