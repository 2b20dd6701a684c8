"""The driver: turns to fact candidates, sentence by sentence.

Each sentence passes the filters, then every rule of the table, then the
corrections; per turn one candidate per slot survives, the most confident.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory_lab.brains.offline.rules.corrections import (
    FactLike,
    correction_hits,
    facts_of,
    switch_hits,
)
from memory_lab.brains.offline.rules.filters import (
    HYPOTHETICAL,
    JOKE,
    OPEN_IF,
    QUESTION_START,
    REQUEST_START,
    UNCERTAIN,
    confidence,
)
from memory_lab.brains.offline.rules.rule import Hit
from memory_lab.brains.offline.rules.table import RULES
from memory_lab.brains.offline.rules.vocabulary import SLOT_ALIASES
from memory_lab.text import split_sentences, strip_injected_memory
from memory_lab.types import FactCandidate, Message

# Standing rules and constraints matter on every turn; knowledge fades.
CATEGORY_IMPORTANCE: dict[str, float] = {
    "instruction": 0.9,
    "constraint": 0.9,
    "identity": 0.85,
    "decision": 0.75,
    "preference": 0.7,
    "unresolved": 0.6,
    "knowledge": 0.55,
}


def speaker_subject(message: Message) -> str | None:
    """Whose first-person facts a turn states, or None when it states none.

    Assistant turns only count when a speaker is named (two people talking, as in
    LoCoMo); otherwise they are the assistant's own suggestions.
    """
    if message.role == "system":
        return None
    if message.speaker:
        return message.speaker.strip().lower()
    return "user" if message.role == "user" else None


def sentence_hits(
    sentence: str,
    subject: str,
    earlier: Sequence[FactLike] = (),
    recent: Sequence[FactLike] = (),
    *,
    to_assistant: bool = True,
) -> list[Hit]:
    """Facts one sentence states; empty for questions, hypotheticals and the like."""
    text = sentence.strip()
    is_question = text.endswith("?") or bool(QUESTION_START.match(text))
    is_request = is_question and bool(REQUEST_START.match(text))
    if (is_question and not is_request) or HYPOTHETICAL.search(OPEN_IF.sub("", text)):
        return []
    uncertain = bool(UNCERTAIN.search(text))
    hits: list[Hit] = []
    sureness = {flag: confidence(text, open_item=flag) for flag in (False, True)}
    for rule in RULES:
        if (is_request and not rule.request_ok) or (uncertain and not rule.open_item):
            continue
        if rule.to_assistant and not to_assistant:
            continue
        for key, value in rule.hits(text):
            hits.append(Hit(rule.category, key, value, sureness[rule.open_item]))
    if is_request or uncertain:
        return hits
    hits.extend(switch_hits(text, subject, earlier, to_assistant=to_assistant))
    hits.extend(correction_hits(text, subject, earlier, recent, sureness[False]))
    return hits


def sentence_has_fact(sentence: str) -> bool:
    """Whether a sentence states any first-person fact the rules recognise."""
    return bool(sentence_hits(sentence, "user"))


@dataclass(frozen=True)
class Prior:
    """A fact found earlier in the same batch, as later corrections see it."""

    subject: str
    category: str
    key: str
    value: str


def settled_favorite(key: str, subject: str, earlier: Sequence[FactLike]) -> str:
    """A bare "X is my favourite (now)" updates the favourite last talked about."""
    if key != "favorite":
        return key
    for fact in reversed(facts_of(subject, earlier)):
        if fact.key.startswith("favorite_"):
            return fact.key
    return key


def settled_category(hit: Hit, subject: str, earlier: Sequence[FactLike]) -> str:
    """The category a slot already has: one slot, one category.

    "We chose K2" then "I use K3" must collide on one slot to supersede.
    """
    for fact in reversed(facts_of(subject, earlier)):
        if fact.key == hit.key:
            return fact.category
    return hit.category


def extract_candidates(
    messages: Sequence[Message], *, prior: Sequence[FactLike] = ()
) -> list[FactCandidate]:
    """Fact candidates the turns state, in transcript order.

    Args:
        messages: Turns to read. Only user turns, and turns with a named speaker,
            are read; system turns never are.
        prior: Facts already known (any objects with subject, category, key and
            value), so a correction such as "not K2 anymore, K3" can land on the
            slot it corrects even when the original statement is in an older batch.

    Returns:
        One candidate per fact and turn; a slot stated twice in one turn keeps the
        more confident statement.
    """
    found: list[FactLike] = []
    out: list[FactCandidate] = []
    for message in messages:
        subject = speaker_subject(message)
        if subject is None:
            continue
        text = strip_injected_memory(message.content)
        if JOKE.search(text):
            continue
        best: dict[tuple[str, str], tuple[Hit, str]] = {}
        for sentence in split_sentences(text):
            earlier = [*prior, *found]
            hits = sentence_hits(
                sentence, subject, earlier, found, to_assistant=subject == "user"
            )
            for hit in hits:
                key = settled_favorite(hit.key, subject, earlier)
                hit.key = SLOT_ALIASES.get(key, key)
                hit.category = settled_category(hit, subject, earlier)
                slot = (hit.category, hit.key)
                if slot not in best or hit.confidence > best[slot][0].confidence:
                    best[slot] = (hit, sentence)
        for hit, sentence in best.values():
            candidate = FactCandidate(
                category=hit.category,
                key=hit.key,
                value=hit.value,
                subject=subject,
                confidence=hit.confidence,
                importance=CATEGORY_IMPORTANCE.get(hit.category, 0.5),
                source="extracted",
                session=message.session,
                turn_ids=[message.id],
                evidence=sentence,
            )
            out.append(candidate)
            found.append(Prior(subject, hit.category, hit.key, hit.value))
    return out
