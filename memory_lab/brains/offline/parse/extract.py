"""The driver: turns to fact candidates through the parse.

Turns are parsed in one batch; each sentence's asserted clauses become facts
about whoever they are about. A clause that ends something ("I quit the choir",
"we sold the Golf") lands on the key of the known fact it ends, so that fact is
superseded rather than left standing beside the news.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.amounts import amount_readings
from memory_lab.brains.offline.parse.as_roles import as_role_readings
from memory_lab.brains.offline.parse.change import (
    done,
    past_only,
    past_state,
    reports_event,
    signals_change,
)
from memory_lab.brains.offline.parse.clauses import Statement, future, statements
from memory_lab.brains.offline.parse.dated_events import dated_event_readings
from memory_lab.brains.offline.parse.facts import Reading, readings, slug
from memory_lab.brains.offline.parse.fragments import (
    kind_fragments,
    role_fragments,
)
from memory_lab.brains.offline.parse.frames import (
    NAMING_VERBS,
    frame_readings,
    made_readings,
    named_by_verb,
    placed_readings,
)
from memory_lab.brains.offline.parse.lexicon import (
    ENDING_PHRASALS,
    ENDING_VERBS,
    PARTING_PHRASALS,
    PLAN_VERBS,
    STATE_FRAMES,
)
from memory_lab.brains.offline.parse.names import possessed_names, relation_readings
from memory_lab.brains.offline.parse.pipeline import parse_many
from memory_lab.brains.offline.parse.place_fragments import place_fragments
from memory_lab.brains.offline.parse.pronouns import Referents
from memory_lab.brains.offline.parse.runons import repunctuated
from memory_lab.brains.offline.parse.shouting import unshouted
from memory_lab.brains.offline.rules.candidates import (
    CATEGORY_IMPORTANCE,
    speaker_subject,
)
from memory_lab.brains.offline.rules.corrections import FactLike
from memory_lab.brains.offline.rules.filters import JOKE
from memory_lab.text import strip_injected_memory
from memory_lab.types import FactCandidate, Message

CONFIDENCE_STATED = 0.8
CONFIDENCE_HEDGED = 0.55


def _ends(verb: Token) -> bool:
    lemma = verb.lemma_.lower()
    if lemma in ENDING_VERBS:
        return True
    particles = {c.lower_ for c in verb.children if c.dep_ in {"prt", "advmod"}}
    return any((lemma, p) in ENDING_PHRASALS for p in particles)


def _ended_object(verb: Token) -> Token | None:
    """What an ending verb ends.

    Its object, else the object of a particle or preposition after it ("dropped
    out of the course"), never a phrase before it ("By the way, I finished ...").
    """
    after = [c for c in verb.children if c.i > verb.i]
    for child in after:
        if child.dep_ == "dobj":
            return child
    partner = _partner(verb)
    if partner is not None:
        return partner
    for child in after:
        if child.dep_ in {"prep", "prt"}:
            for grand in child.children:
                if grand.dep_ == "pobj":
                    return grand
    return None


def _partner(verb: Token) -> Token | None:
    """Who the speaker parted from: the other of "Sophie and I broke up"."""
    particles = {c.lower_ for c in verb.children if c.dep_ == "prt"}
    if not any((verb.lemma_.lower(), p) in PARTING_PHRASALS for p in particles):
        return None
    for subject in verb.children:
        if subject.dep_ != "nsubj":
            continue
        people = [subject, *(c for c in subject.children if c.dep_ == "conj")]
        others = [p for p in people if p.lower_ not in {"i", "me", "we"}]
        if len(people) == 2 and len(others) == 1 and others[0].pos_ == "PROPN":
            return others[0]
    return None


def _ending(
    statement: Statement, known: Sequence[FactLike]
) -> tuple[FactLike, Span] | None:
    """The known fact a clause ends, and the words that end it."""
    verb = statement.verb
    if statement.owner_noun is not None or not _ends(verb):
        return None
    obj = _ended_object(verb)
    if obj is None:
        return None
    names = {obj.lower_, obj.lemma_.lower()}
    for fact in reversed(known):
        if fact.subject != statement.subject:
            continue
        words = set(slug(fact.value).split("_")) | set(fact.key.split("."))
        if names & words:
            # A partner said before the verb ("Sophie and I broke up") opens
            # the words, which run to the particle.
            particles = [c.i for c in verb.children if c.dep_ == "prt"]
            end = max(t.i for t in obj.subtree if not t.is_punct)
            end = max(end, verb.i, *particles)
            return fact, verb.doc[min(verb.i, obj.i) : end + 1]
    return None


def _gone(statement: Statement) -> Token | None:
    """What a done ending verb ends when no known fact held it: "sold my Vespa".

    The object was the subject's until now, so its reading is kept as past.
    """
    verb = statement.verb
    if statement.owner_noun is not None or not _ends(verb) or not done(verb):
        return None
    return _ended_object(verb)


def _covers(reading: Reading, token: Token) -> bool:
    return reading.value.start <= token.i < reading.value.end


_STATE_SLOTS = frozenset(STATE_FRAMES.values())


def _planned_state(statement: Statement, reading: Reading) -> bool:
    """A state only wanted, planned or to come: no home or status yet.

    "wants to move to Spain", "we'll move to Spain", "planning to get married".
    """
    verb = statement.verb
    planned = (
        verb.lemma_.lower() in PLAN_VERBS
        or (verb.dep_ == "xcomp" and verb.head.lemma_.lower() in PLAN_VERBS)
        or future(verb)
    )
    return planned and (
        reading.key in _STATE_SLOTS or reading.key.startswith("status.")
    )


def _candidate(
    message: Message,
    subject: str,
    reading: Reading,
    sentence: Span,
    hedged: bool,
    changes: bool = False,
    ends: bool = False,
    past: bool = False,
    event: bool = False,
) -> FactCandidate:
    return FactCandidate(
        category=reading.category,
        # Events are many under one relation ("went to" a group, then a
        # parade): each keeps a key of its own, so none replaces another.
        key=_event_key(reading) if event else reading.key,
        value=reading.value.text,
        subject=subject,
        confidence=CONFIDENCE_HEDGED if hedged else CONFIDENCE_STATED,
        importance=CATEGORY_IMPORTANCE.get(reading.category, 0.5),
        source="extracted",
        session=message.session,
        turn_ids=[message.id],
        evidence=sentence.text.strip(),
        changes=changes,
        ends=ends,
        past=past,
        event=event,
    )


def _event_key(reading: Reading) -> str:
    """The relation's key with the event's own value, unless it ends with it."""
    own = slug(reading.value.text)
    return reading.key if reading.key.endswith(own) else f"{reading.key}.{own}"


def parse_candidates(
    messages: Sequence[Message], *, prior: Sequence[FactLike] = ()
) -> list[FactCandidate]:
    """Fact candidates the turns state, read from their parse, in order.

    Args:
        messages: Turns to read; user turns and turns with a named speaker.
        prior: Facts already known, so an ending lands on the key it ends.
    """
    readable = []
    for message in messages:
        subject = speaker_subject(message)
        if subject is None:
            continue
        text = unshouted(strip_injected_memory(message.content))
        if not text.strip() or JOKE.search(text):
            continue
        readable.append((message, subject, text))
    docs = parse_many(t for _, _, t in readable)
    # Chat's run-on clauses are parsed again with their breaks marked.
    mended = {i: fixed for i, d in enumerate(docs) if (fixed := repunctuated(d))}
    if mended:
        reparsed = dict(zip(mended, parse_many(mended.values()), strict=True))
        docs = [reparsed.get(i, d) for i, d in enumerate(docs)]
    found: list[FactCandidate] = []
    people: dict[str, Referents] = {}
    spoken: tuple[str, str] | None = None  # (speaker, relation) last spoken of
    for (message, speaker, _), doc in zip(readable, docs, strict=True):
        seen: set[tuple[str, str]] = set()
        if speaker not in people:
            people[speaker] = Referents.from_facts(speaker, prior)
        referents = people[speaker]
        referents.theirs = (
            spoken[1] if spoken is not None and spoken[0] != speaker else None
        )
        for sentence in doc.sents:
            named = [
                *relation_readings(sentence, speaker),
                *possessed_names(sentence),
                *named_by_verb(sentence),
            ]
            for relation, name in named:
                referents.note(name.text.lower(), relation)
                reading = Reading("identity", f"{relation}.{slug(name.text)}", name)
                if (speaker, reading.key) not in seen:
                    seen.add((speaker, reading.key))
                    found.append(_candidate(message, speaker, reading, sentence, False))
            clauses = list(statements(sentence, speaker, referents))
            for statement in clauses:
                referents.note(statement.subject)
                owner, _, relation = statement.subject.partition("'s ")
                if owner == speaker and relation:
                    spoken = (speaker, relation)
            for statement in clauses:
                if named and statement.verb.lemma_.lower() in NAMING_VERBS:
                    continue  # the name was read as the relation's
                ended = _ending(statement, [*prior, *found])
                gone = _gone(statement) if ended is None else None
                framed = []
                if ended is not None:
                    fact, words = ended
                    stated = [Reading(fact.category, fact.key, words)]
                else:
                    framed = frame_readings(statement)
                    spans = {(r.value.start, r.value.end) for r in framed}
                    stated = [
                        r
                        for r in readings(statement)
                        if (r.value.start, r.value.end) not in spans
                        and not _planned_state(statement, r)
                    ] + framed
                if statement.ceased:
                    found += _ceased(
                        message, statement, stated, sentence, [*prior, *found]
                    )
                    continue
                for reading in stated:
                    if not reading.value.text.strip():
                        continue
                    slot = (statement.subject, reading.key)
                    if slot in seen and ended is None:
                        continue
                    seen.add(slot)
                    event = (
                        ended is None
                        and statement.owner_noun is None
                        and reading not in framed
                        and reading.key not in _STATE_SLOTS
                        and reports_event(statement.verb)
                    )
                    found.append(
                        _candidate(
                            message,
                            statement.subject,
                            reading,
                            sentence,
                            statement.hedged,
                            ended is None and not event and signals_change(statement),
                            ends=ended is not None,
                            past=past_only(statement.verb)
                            or past_state(statement.verb)
                            or (gone is not None and _covers(reading, gone)),
                            event=event,
                        )
                    )
            found += _amounts(message, speaker, sentence, seen, found)
            found += _dated_events(message, speaker, sentence, seen, found)
            for reading in [
                *role_fragments(sentence),
                *kind_fragments(sentence),
                *place_fragments(sentence),
                *as_role_readings(sentence),
                *placed_readings(sentence),
                *made_readings(sentence),
            ]:
                if (speaker, reading.key) not in seen:
                    seen.add((speaker, reading.key))
                    found.append(_candidate(message, speaker, reading, sentence, False))
    return found


def _ceased(
    message: Message,
    statement: Statement,
    stated: list[Reading],
    sentence: Span,
    known: Sequence[FactLike],
) -> list[FactCandidate]:
    """What "not ... anymore" ends: the known fact it restates, else a past one.

    "I don't live in Denver anymore" closes the stored home in Denver; with
    nothing stored, the value is kept as held before and not now.
    """
    out = []
    for reading in stated:
        words = set(slug(reading.value.text).split("_"))
        fact = next(
            (
                f
                for f in reversed(known)
                if f.subject == statement.subject
                and (f.key == reading.key or words & set(slug(f.value).split("_")))
            ),
            None,
        )
        if fact is not None:
            reading = Reading(fact.category, fact.key, reading.value)
        out.append(
            _candidate(
                message,
                statement.subject,
                reading,
                sentence,
                statement.hedged,
                ends=fact is not None,
                past=fact is None,
            )
        )
    return out


def _amounts(
    message: Message,
    speaker: str,
    sentence: Span,
    seen: set[tuple[str, str]],
    found: list[FactCandidate],
) -> list[FactCandidate]:
    """The sums of money the sentence states that no clause reading holds yet.

    A clause reading keyed by the number itself ("pay.250") says less than the
    amount's reading ("card.credit"), and gives way to it.
    """
    read = []
    for reading in amount_readings(sentence):
        amount = reading.value.text
        if (speaker, reading.key) in seen:
            continue
        holders = [
            i
            for i, c in enumerate(found)
            if c.turn_ids == [message.id] and c.subject == speaker and amount in c.value
        ]
        number = slug(re.search(r"\d[\d,.]*", amount).group())  # type: ignore[union-attr]
        numbered = [i for i in holders if number in found[i].key.split(".")]
        if holders and len(numbered) < len(holders):
            continue
        seen.add((speaker, reading.key))
        read.append(_in_place_of(numbered, found, message, speaker, reading, sentence))
    return read


def _dated_events(
    message: Message,
    speaker: str,
    sentence: Span,
    seen: set[tuple[str, str]],
    found: list[FactCandidate],
) -> list[FactCandidate]:
    """Events on a date; the clause readings of their parts give way to them.

    "job interview" and "Spotify", read from "a job interview with Spotify on
    Wednesday", are parts of the one event value and are not kept beside it.
    """
    read = []
    for reading in dated_event_readings(sentence):
        value = reading.value.text
        parts = [
            i
            for i, c in enumerate(found)
            if c.turn_ids == [message.id]
            and c.subject == speaker
            and c.category == "knowledge"
            and c.value in value
        ]
        if (speaker, reading.key) in seen and not any(
            found[i].key == reading.key for i in parts
        ):
            continue  # the key holds a value this event does not contain
        seen.add((speaker, reading.key))
        read.append(_in_place_of(parts, found, message, speaker, reading, sentence))
    return read


def _in_place_of(
    replaced: list[int],
    found: list[FactCandidate],
    message: Message,
    speaker: str,
    reading: Reading,
    sentence: Span,
) -> FactCandidate:
    """The reading's candidate, the `replaced` ones taken out of `found`.

    A past occurrence stays an event ("went to a fair on Saturday").
    """
    event = any(found[i].event for i in replaced)
    past = any(found[i].past for i in replaced)
    for i in sorted(replaced, reverse=True):
        del found[i]
    return _candidate(
        message, speaker, reading, sentence, False, past=past, event=event
    )
