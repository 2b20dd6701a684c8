"""Things the speaker has on a date: the event and its date kept in one value.

"I've got the dentist on Thursday at 4:30", "driving test is booked, 14 March",
"parents evening at school is next tuesday", "we're off to my cousin's wedding
in Galway over the bank holiday". A value of the date alone ("Thursday") would
answer "when is the dentist?" only through its key, and a context shows values;
so the value runs from the event's words to the date's ("dentist on Thursday at
4:30"), and the key is the event's (`noun_key`), so a moved date supersedes.

Three shapes are read: a light verb's object with a date ("have", "book",
"get"), an event that is the subject of a date ("is next Tuesday", "is booked
for the 9th"), and an event the speaker goes to on a date. A date counts when
it names a day, month or number; "today" and "soon" name none.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import supposed, unrealised
from memory_lab.brains.offline.parse.keys import Reading, noun_key, slug
from memory_lab.brains.offline.parse.lexicon import RELATION_NOUNS, TIME_NOUNS

MAX_EVENT_TOKENS = 14
"""An event and its date further apart than this are not read as one value."""

SCHEDULING_VERBS = frozenset(
    "book schedule arrange set plan confirm move push fix organise organize".split()
)
"""Verbs whose passive puts an event on a date: "is booked for the 9th"."""

HAVING_VERBS = SCHEDULING_VERBS | {"have", "get", "make"}
"""Verbs whose object is had on a date: "I've got the dentist on Thursday"."""

MOTION_VERBS = frozenset("go head come fly drive travel".split())
_FIRST_PERSON = frozenset({"i", "we"})
_DAY_PREPS = frozenset({"on", "for", "by", "until", "till", "from"})
_OWN = frozenset({"my", "our"})


def _clause_head(token: Token) -> Token:
    """The nearest verb above `token`: the clause a date is said in."""
    node = token
    while node.head.i != node.i:
        node = node.head
        if node.pos_ in {"VERB", "AUX"}:
            return node
    return node


def _dates(verb: Token) -> list[Span]:
    """The dates and times said in `verb`'s own clause, not in one below it."""
    found = []
    for ent in verb.doc.ents:
        if ent.label_ == "ORDINAL":
            # "on the 3rd", "for the 12th": the tagger's ordinal is a day.
            if ent.root.dep_ != "pobj" or ent.root.head.lower_ not in _DAY_PREPS:
                continue
        elif ent.label_ not in {"DATE", "TIME"}:
            continue
        if not any(t.pos_ == "PROPN" or any(c.isdigit() for c in t.text) for t in ent):
            continue  # "today", "soon", "the evening": no day or hour to keep
        if _clause_head(ent.root).i == verb.i:
            found.append(ent)
    return found


def _phrase(noun: Token, dates: list[Span]) -> tuple[int, int]:
    """The event's words: its modifiers and what follows it.

    Without a leading article or "my" ("cousin's wedding", not "my cousin's").
    """
    said = {t.i for d in dates for t in d}
    tokens = [t for t in noun.subtree if t.i not in said]
    start = min(t.i for t in tokens)
    doc = noun.doc
    while start < noun.i and (
        doc[start].dep_ == "det"
        or (doc[start].dep_ == "poss" and doc[start].pos_ == "PRON")
    ):
        start += 1
    end = max(t.i for t in tokens if t.i >= noun.i) + 1
    return start, end


def event_span(noun: Token, dates: list[Span]) -> Span | None:
    """From the event's words through its dates, when they are close; else None."""
    start, end = _phrase(noun, dates)
    first = min([start, *(d.start for d in dates)])
    last = max([end, *(d.end for d in dates)])
    if last - first > MAX_EVENT_TOKENS:
        return None
    span = noun.doc[first:last]
    while len(span) > 1 and span[-1].is_punct:
        span = span[:-1]
    return span


def _eventful(noun: Token, dates: list[Span]) -> bool:
    """A thing that can be on a date: not a person, a pronoun or the date itself.

    A time word with a modifier names an event ("parents evening", "game night").
    """
    lemma = noun.lemma_.lower()
    if noun.pos_ not in {"NOUN", "PROPN"} or lemma in RELATION_NOUNS:
        return False
    if noun.ent_type_ == "PERSON" or any(d.start <= noun.i < d.end for d in dates):
        return False
    if lemma in TIME_NOUNS:
        return any(c.dep_ == "compound" for c in noun.children)
    return True


def _speakers(noun: Token) -> bool:
    """The speaker's own or nobody else's: "our offsite", "driving test"."""
    poss = [c for c in noun.children if c.dep_ == "poss"]
    return not poss or poss[0].lower_ in _OWN


def _subject(verb: Token) -> Token | None:
    return next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)


def _events(verb: Token) -> Iterator[tuple[Token, str]]:
    """The nouns `verb` puts on a date, in the module's three shapes, with keys.

    An event had or on a date is keyed by itself ("test.driving"); one gone
    to, by the going, as other motion readings are ("fly_to.rome").
    """
    subject = _subject(verb)
    lemma = verb.lemma_.lower()
    if subject is not None and subject.lower_ not in _FIRST_PERSON:
        passive = subject.dep_ == "nsubjpass" and lemma in SCHEDULING_VERBS
        if (lemma == "be" or passive) and _speakers(subject):  # not "her party"
            yield subject, noun_key(subject)
        return
    if subject is None and verb.dep_ != "ROOT":
        return
    if lemma in MOTION_VERBS:
        for prep in verb.children:
            if prep.dep_ == "prep" and prep.lower_ in {"to", "for"}:
                for noun in prep.children:
                    if noun.dep_ == "pobj":
                        yield noun, f"{slug(lemma)}_{prep.lower_}.{noun_key(noun)}"
    elif lemma in HAVING_VERBS:
        yield from ((c, noun_key(c)) for c in verb.children if c.dep_ == "dobj")


def dated_event_readings(sentence: Span) -> Iterator[Reading]:
    """Each event the speaker has or goes to on a named date, with that date."""
    for verb in sentence:
        if verb.pos_ not in {"VERB", "AUX"} or unrealised(verb) or supposed(verb):
            continue
        if any(c.dep_ == "neg" for c in verb.children):
            continue
        dates = _dates(verb)
        if not dates:
            continue
        for noun, key in _events(verb):
            if not _eventful(noun, dates):
                continue
            span = event_span(noun, dates)
            if span is not None:
                yield Reading("knowledge", key, span)
