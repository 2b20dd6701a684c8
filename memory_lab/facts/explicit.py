"""What the user says goes: memory commands applied to the fact tier.

"Remember that ..." stores an explicit fact (the top trust tier: extraction never
overrides it), "forget that ..." end-dates the facts it names (never deletes
them), and "that's wrong, it is ..." replaces a stored value with an explicit
one. The statement inside a command is read by the same brain that extracts
facts, so "remember that I'm vegetarian" lands on the slot "I'm vegetarian"
would, and what the brain cannot place is kept as a note in the user's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from memory_lab.events import make_event
from memory_lab.facts.commands import MemoryCommand, split_commands, statement_turn
from memory_lab.facts.dedup import meaning_text
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.reconciliation import normalise_value
from memory_lab.facts.valid_time import date_candidates
from memory_lab.types import Fact, FactCandidate, MemoryEvent, Message

Extract = Callable[[Sequence[Message], Sequence[Fact]], list[FactCandidate]]
"""A brain's extraction: turns and the known facts to candidates."""

NOTE_CATEGORY = "knowledge"
"""Where a remembered statement no extraction rule places is kept."""

FORGET_MATCH = 0.6
"""Similarity of a forget request to a stored 'key: value' that picks the fact
when neither its key nor its value is named outright (below the dedup threshold:
a request is phrased unlike a stored slot)."""


def _subject(message: Message) -> str:
    return message.speaker.strip().lower() or "user"


def _slug(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[:4]) or "note"


def _explicit(command: MemoryCommand, found: Sequence[FactCandidate]) -> list:
    message = command.message
    out = [
        c.model_copy(
            update={
                "source": "explicit",
                "confidence": 1.0,
                "session": message.session,
                "turn_ids": [message.id],
                "evidence": command.sentence,
            }
        )
        for c in found
    ]
    return date_candidates(out, [message])


def _remember(
    command: MemoryCommand, tenant: str, facts: FactMemory, extract: Extract
) -> list[MemoryEvent]:
    found = extract([statement_turn(command)], facts.active(tenant))
    if not found:
        found = [
            FactCandidate(
                category=NOTE_CATEGORY,
                key="note." + _slug(command.text),
                value=command.text,
                subject=_subject(command.message),
                importance=0.7,
            )
        ]
    return facts.write_many(
        tenant, _explicit(command, found), now=command.message.timestamp
    )


def _closest(facts: FactMemory, text: str, pool: Sequence[Fact]) -> Fact | None:
    """The stored fact a bare corrected value most likely replaces."""
    if not pool:
        return None
    meaning = facts.meaning
    if meaning is None:
        return max(pool, key=lambda f: (f.last_confirmed_at, f.id))
    return max(
        pool,
        key=lambda f: (meaning.similarity(text, f.value), f.last_confirmed_at),
    )


def _correct(
    command: MemoryCommand, tenant: str, facts: FactMemory, extract: Extract
) -> list[MemoryEvent]:
    if not command.bare_value:
        return _remember(command, tenant, facts, extract)
    subject = _subject(command.message)
    target = _closest(facts, command.text, facts.active(tenant, subject=subject))
    if target is None:
        return _remember(command, tenant, facts, extract)
    candidate = FactCandidate(
        category=target.category,
        key=target.key,
        value=command.text,
        subject=subject,
        importance=target.importance,
    )
    return facts.write_many(
        tenant, _explicit(command, [candidate]), now=command.message.timestamp
    )


def forget_targets(
    command: MemoryCommand, tenant: str, facts: FactMemory, extract: Extract
) -> list[Fact]:
    """The active facts a forget request names.

    Those on the slots its statement extracts to, those whose value it quotes,
    and failing both the one most similar in meaning above `FORGET_MATCH`.
    """
    subject = _subject(command.message)
    active = facts.active(tenant, subject=subject)
    slots = {c.key for c in extract([statement_turn(command)], active)}
    said = f" {normalise_value(command.text)} "
    named = [
        f for f in active if f.key in slots or f" {normalise_value(f.value)} " in said
    ]
    if named or facts.meaning is None or not active:
        return named
    scored = [
        (facts.meaning.similarity(command.text, meaning_text(f.key, f.value)), f)
        for f in active
    ]
    score, best = max(scored, key=lambda pair: (pair[0], pair[1].id))
    return [best] if score >= FORGET_MATCH else []


def _forget(
    command: MemoryCommand, tenant: str, facts: FactMemory, extract: Extract
) -> list[MemoryEvent]:
    targets = forget_targets(command, tenant, facts, extract)
    if not targets:
        event = make_event(
            tenant,
            "fact_not_found",
            command.message.timestamp,
            f"Nothing stored matches {command.text!r}; nothing was forgotten",
            [command.message.id],
        )
        facts.events.append(tenant, [event])
        return [event]
    return [facts.forget(tenant, f.id, now=command.message.timestamp) for f in targets]


_APPLY = {"remember": _remember, "forget": _forget, "correct": _correct}


def apply_command(
    command: MemoryCommand, tenant: str, facts: FactMemory, extract: Extract
) -> list[MemoryEvent]:
    """Carry out one command; returns the events it caused."""
    return _APPLY[command.kind](command, tenant, facts, extract)


def extract_with_commands(
    turns: Sequence[Message],
    tenant: str,
    facts: FactMemory,
    extract: Extract,
    *,
    now: datetime | None = None,
) -> list[MemoryEvent]:
    """Extract facts from turns in order, carrying out commands where they occur.

    Turns before a command are extracted first, so "forget that" acts on what
    was said before it and not on what follows; command sentences are never
    extracted themselves. Extracted facts are written at `now` (the clock's
    time if None), commands at the time they were said.
    """
    events: list[MemoryEvent] = []
    pending: list[Message] = []

    def flush() -> None:
        if pending:
            found = extract(list(pending), facts.active(tenant))
            events.extend(
                facts.write_many(tenant, date_candidates(found, pending), now=now)
            )
            pending.clear()

    for turn in turns:
        commands, rest = split_commands(turn)
        if commands:
            flush()
            for command in commands:
                events.extend(apply_command(command, tenant, facts, extract))
        if rest is not None:
            pending.append(rest)
    flush()
    return events
