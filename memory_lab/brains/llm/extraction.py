"""What the extractor is shown, and which of its proposals are kept.

Shown: only what people said (user turns, with any memory a client pasted back
into them removed), so the assistant never re-learns its own replies or stale
memory confirms itself; and the stored facts about the people in those turns, so
an update lands on the stored key and supersedes it.

Kept: proposals that cite one of the turns shown, use a known category, and whose
value is grounded in the cited turn. Every refusal becomes a `fact_rejected` note.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from memory_lab.brains.base import BrainNote
from memory_lab.brains.llm.grounding import (
    evidence_span,
    locate,
    plain,
    ungrounded_words,
)
from memory_lab.prompts.extract import ExtractedFact
from memory_lab.text import content_words, fact_words, strip_injected_memory
from memory_lab.types import Fact, FactCandidate, Message

_NOTE_CHARS = 300


def subject_of(message: Message) -> str:
    """Whom a turn's first-person statements are about: its speaker, else `user`."""
    return message.speaker.strip().lower() or "user"


def readable_turns(
    messages: Sequence[Message], *, include_assistant: bool = False
) -> list[Message]:
    """The turns the extractor may read, with injected memory cut out.

    Turns left empty by the cut (nothing but pasted memory) are dropped.
    """
    roles = ("user", "assistant") if include_assistant else ("user",)
    out = []
    for m in messages:
        if m.role not in roles:
            continue
        text = strip_injected_memory(m.content).strip()
        if text:
            out.append(m.model_copy(update={"content": text}))
    return out


def facts_in_play(
    known: Sequence[Fact], turns: Sequence[Message], limit: int
) -> list[Fact]:
    """Stored facts about the turns' subjects, those the turns mention first.

    Returned in a fixed order (subject, category, key) so that the same memory
    gives the same prompt, which is what lets the response cache answer a re-run.
    """
    if limit <= 0 or not turns:
        return []
    subjects = {"user", *(subject_of(t) for t in turns)}
    said = set().union(*(content_words(t.content) for t in turns))
    about = [f for f in known if f.subject in subjects]
    about.sort(
        key=lambda f: (
            -len(said & fact_words(f.key, f.value)),
            -f.last_confirmed_at.timestamp(),
            f.id,
        )
    )
    return sorted(about[:limit], key=lambda f: (f.subject, f.category, f.key, f.id))


def normalise_key(key: str) -> str:
    """Lower-case snake case that keeps dots, so `preference.drink` stays grouped.

    Consolidation folds facts by the part before the first dot.
    """
    key = re.sub(r"[^\w.]+", "_", key.strip().casefold())
    key = re.sub(r"_*\._*", ".", key)
    key = re.sub(r"\.{2,}", ".", key)
    return key.strip("._")


@dataclass(frozen=True)
class Vetting:
    """The kept candidates, a note per refused proposal, and how many there were."""

    kept: list[FactCandidate]
    notes: tuple[BrainNote, ...]
    proposed: int


def vet_facts(
    proposed: Sequence[ExtractedFact],
    turns: Sequence[Message],
    *,
    categories: Collection[str],
    known: Sequence[Fact] = (),
    all_ids: Collection[str] = (),
) -> Vetting:
    """Keep the grounded proposals; note why each of the others was refused.

    Args:
        proposed: What the model returned.
        turns: The turns the model was shown (`readable_turns`).
        categories: The fact vocabulary.
        known: Stored active facts, to settle keys on the stored ones.
        all_ids: Every turn id of the span, so a citation of an assistant turn
            is told apart from an invented id.
    """
    by_id = {t.id: t for t in turns}
    kept: list[FactCandidate] = []
    notes: list[BrainNote] = []
    seen: set[tuple[str, str, str, str]] = set()
    for fact in proposed:
        outcome = _vet(fact, by_id, categories, known, all_ids)
        if isinstance(outcome, str):
            detail = f"{fact.category}/{fact.key}={fact.value!r}: {outcome}"
            notes.append(BrainNote("fact_rejected", _one_line(detail), (fact.turn_id,)))
            continue
        identity = (
            outcome.subject,
            outcome.key,
            outcome.value.casefold(),
            outcome.category,
        )
        if identity not in seen:
            seen.add(identity)
            kept.append(outcome)
    return Vetting(kept, tuple(notes), len(proposed))


def _vet(
    fact: ExtractedFact,
    turns: dict[str, Message],
    categories: Collection[str],
    known: Sequence[Fact],
    all_ids: Collection[str],
) -> FactCandidate | str:
    """The candidate for `fact`, or why it was refused."""
    turn = turns.get(fact.turn_id)
    if turn is None:
        if fact.turn_id in all_ids:
            return f"cites turn {fact.turn_id!r}, which is not the user speaking"
        return f"cites turn {fact.turn_id!r}, which is not in the span"
    if fact.category not in categories:
        return f"category {fact.category!r} is not in the vocabulary"
    key = normalise_key(fact.key)
    value = plain(fact.value)
    if not key or not value:
        return "empty key or value"
    missing = ungrounded_words(value, turn.content)
    if missing:
        words = ", ".join(sorted(missing))
        return f"value is not grounded in turn {turn.id!r} (missing: {words})"
    span = locate(turn.content, value)
    subject = _subject(fact.subject, turn)
    key, category = _settled(key, fact.category, subject, known)
    return FactCandidate(
        category=category,
        key=key,
        # Store the words as the user wrote them when they occur as a phrase.
        value=" ".join(turn.content[span[0] : span[1]].split()) if span else value,
        subject=subject,
        confidence=_unit(fact.confidence),
        importance=_unit(fact.importance),
        source="extracted",
        session=turn.session,
        turn_ids=[turn.id],
        evidence=evidence_span(turn.content, fact.evidence, value, span),
    )


def _subject(proposed: str, turn: Message) -> str:
    """The model's subject, with the speaker's own words pinned to the speaker."""
    name = proposed.strip().lower()
    if name in ("", "user", "i", "me", "myself", "the user"):
        return subject_of(turn)
    return name


def _settled(
    key: str, category: str, subject: str, known: Sequence[Fact]
) -> tuple[str, str]:
    """The stored key and category when the proposal names a stored fact.

    Exact keys first; else the one stored key of this subject whose last dotted
    part is the proposed key (`drink` -> `preference.drink`). One slot, one
    category: a stored fact keeps its category, so the update supersedes it.
    """
    mine = [f for f in known if f.subject == subject]
    for f in mine:
        if f.key == key:
            return f.key, f.category
    tail = key.rsplit(".", 1)[-1]
    matches = {f.key: f.category for f in mine if f.key.rsplit(".", 1)[-1] == tail}
    if len(matches) == 1:
        return next(iter(matches.items()))
    return key, category


def _unit(x: float) -> float:
    return min(1.0, max(0.0, float(x)))


def _one_line(text: str, limit: int = _NOTE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
