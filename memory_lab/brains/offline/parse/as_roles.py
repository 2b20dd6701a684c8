"""A role told as the frame of what the speaker says: "as a midwife I see ...".

"as a <noun>" opening the speaker's own present-tense clause says what the
speaker is, as "I'm a midwife" does. The model often hangs the clause on the
noun, so the frame is found by order: "as a <noun>" first, then "I" or "we"
and a verb in the present. The same frame makes idioms that name no kind of
person ("as a result", "as a rule"), closed in English, and told of the past
("as a kid I loved Lego") it is what the speaker was.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import (
    FIRST_PERSON,
    asked,
    supposed,
    unrealised,
)
from memory_lab.brains.offline.parse.facts import value_span
from memory_lab.brains.offline.parse.keys import Reading, key_word, slug
from memory_lab.brains.offline.parse.lexicon import GENERAL_NOUNS, TIME_NOUNS
from memory_lab.brains.offline.rules.vocabulary import value_class

AS_IDIOMS = frozenset(
    """result rule whole consequence bonus treat joke favour favor gift reminder
    precaution matter kid child teenager baby side""".split()
)
"""Nouns of "as a ..." phrases that name no kind of person."""

_LEADS = frozenset({"ADV", "INTJ", "CCONJ", "PUNCT"})


def _present(verb: Token) -> bool:
    return verb.tag_ in {"VBP", "VBZ"} or any(
        c.dep_ in {"aux", "auxpass"} and c.tag_ in {"VBP", "VBZ"} for c in verb.children
    )


def _denied(verb: Token) -> bool:
    heads = [verb, *(c for c in verb.children if c.dep_ in {"aux", "auxpass"})]
    return any(c.dep_ == "neg" for h in heads for c in h.children)


def _role(sentence: Span) -> Token | None:
    """The noun of an opening "as a <noun>", after fillers."""
    words = [t for t in sentence if t.pos_ not in _LEADS]
    if len(words) < 4 or words[0].lower_ != "as" or words[1].lower_ not in {"a", "an"}:
        return None
    role = words[2]
    lemma = role.lemma_.lower()
    if role.pos_ != "NOUN" or lemma in AS_IDIOMS | GENERAL_NOUNS | TIME_NOUNS:
        return None
    return role


def as_role_readings(sentence: Span) -> Iterator[Reading]:
    """The speaker's role from "as a <noun>" opening their own present clause."""
    role = _role(sentence)
    if role is None:
        return
    subject = next(
        (t for t in sentence if t.i > role.i and t.dep_ in {"nsubj", "nsubjpass"}),
        None,
    )
    if subject is None or subject.lower_ not in FIRST_PERSON:
        return
    verb = subject.head
    if verb.i in asked(sentence) or not _present(verb) or _denied(verb):
        return
    if supposed(verb) or unrealised(verb):
        return
    span = value_span(role)
    if span is None:
        return
    span = role.doc[span.start : role.i + 1]
    word = role.lower_
    key = "diet" if value_class(word) == "diet" else f"is.{slug(key_word(role))}"
    yield Reading("identity", key, span)
