"""Roles and kinds said without a verb: "senior designer at Finch", "vegan here".

Chat drops "I'm" before news of a job ("promoted! head of sales at Orbis now").
Such a fragment is a noun phrase that stands alone (the sentence's root, or set
off by a dash) with no article or owner, naming a person by what they do: a
head noun of an agent's form ("designer", "analyst") or a title with its field
("head of logistics"), at or for a named organisation. "dinner at Nando's" has
no agent's head and stays out.

Chat also names the speaker's kind with "here" after a bare phrase that opens
the sentence ("teacher here", "gluten intolerant here, so ..."). The phrase
must name a kind of person: a doer, a diet, or an adjective a noun narrows
("dairy free"); "snow here" and "busy day here" describe the place.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import is_question
from memory_lab.brains.offline.parse.facts import value_span
from memory_lab.brains.offline.parse.keys import Reading, key_word, slug
from memory_lab.brains.offline.parse.pipeline import base_forms
from memory_lab.brains.offline.rules.vocabulary import value_class

_PRACTICE_ENDINGS = ("ist", "ian")
"""Endings of nouns for people by their practice ("analyst", "technician")."""

_BREAKS = frozenset({"—", "–", "-", ":"})
_NOT_EMPLOYERS = frozenset({"GPE", "LOC", "DATE", "TIME", "NORP"})


def _stands_alone(noun: Token) -> bool:
    """The sentence's root, or a phrase a dash or colon sets off from its head."""
    if noun.dep_ == "ROOT":
        return not any(t.pos_ in {"VERB", "AUX"} for t in noun.sent)
    if noun.dep_ not in {"appos", "npadvmod", "dep"} or noun.head.i > noun.i:
        return False
    return any(t.text in _BREAKS for t in noun.doc[noun.head.i + 1 : noun.i])


def _bare(noun: Token) -> bool:
    return not any(c.dep_ in {"det", "poss", "nummod"} for c in noun.children)


def _names_a_doer(noun: Token) -> bool:
    """An agent's noun ("designer"), or a title with its field ("head of sales")."""
    word = noun.lower_
    if noun.tag_ == "NN" and _agent(word):
        return True
    return any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children)


def _agent(word: str) -> bool:
    """A doer of a verb ("designer", "driver", "auditor") or of a practice.

    "-er"/"-or" makes a doer only from a verb the model knows: "dinner" and
    "burger" have no verb inside them.
    """
    if word.endswith(("er", "or")):
        stem = word[:-2]
        return stem in base_forms("verb") or f"{stem}e" in base_forms("verb")
    return len(word) > 5 and word.endswith(_PRACTICE_ENDINGS)


def _employer(noun: Token) -> Token | None:
    """The named organisation the role is at, or its field is at ("of sales at X")."""
    fields = [
        g
        for c in noun.children
        if c.dep_ == "prep" and c.lower_ == "of"
        for g in c.children
        if g.dep_ == "pobj"
    ]
    for prep in (c for head in [noun, *fields] for c in head.children):
        if prep.dep_ != "prep" or prep.lower_ not in {"at", "for"}:
            continue
        for obj in prep.children:
            if (
                obj.dep_ == "pobj"
                and obj.pos_ == "PROPN"
                and obj.ent_type_ not in _NOT_EMPLOYERS
            ):
                return obj
    return None


def _role_span(noun: Token, employer: Token) -> Span:
    """The role's words: its modifiers and "of" field, up to the employer's "at"."""
    doc = noun.doc
    start = min(
        [noun.i] + [c.left_edge.i for c in noun.lefts if c.dep_ in {"amod", "compound"}]
    )
    end = employer.head.i
    return doc[start:end]


def role_fragments(sentence: Span) -> Iterator[Reading]:
    """The speaker's role and employer from verbless fragments of the sentence."""
    if is_question(sentence):
        return
    for noun in sentence:
        if noun.pos_ != "NOUN" or not _stands_alone(noun) or not _bare(noun):
            continue
        if not _names_a_doer(noun):
            continue
        employer = _employer(noun)
        if employer is None:
            continue
        role = _role_span(noun, employer)
        place = value_span(employer)
        if not role.text.strip() or place is None:
            continue
        yield Reading("identity", f"is.{slug(key_word(noun))}", role)
        yield Reading("identity", "employer", place)


def _common(head: Token) -> bool:
    """A common noun or adjective, or a lower-case word tagged as a name.

    The tagger takes an opening word for a name ("plumber here").
    """
    return head.pos_ in {"NOUN", "ADJ"} or (head.pos_ == "PROPN" and head.is_lower)


def _a_kind_of_person(head: Token) -> bool:
    word = head.lower_
    if value_class(word) == "diet":
        return True
    if head.pos_ != "ADJ" and not word.endswith("s") and _agent(word):
        return True
    narrowed = any(c.dep_ == "compound" and c.pos_ == "NOUN" for c in head.lefts)
    return narrowed and word in base_forms("adj")


def kind_fragments(sentence: Span) -> Iterator[Reading]:
    """The speaker's kind from an opening "<bare phrase> here", then a break."""
    if is_question(sentence):
        return
    here = next((t for t in sentence if t.lower_ == "here"), None)
    if here is None or here.dep_ != "advmod" or here.i == sentence.start:
        return
    head = here.head
    after = here.doc[here.i + 1] if here.i + 1 < sentence.end else None
    if after is not None and not after.is_punct:
        return
    if head.i != here.i - 1 or not _common(head) or not _bare(head):
        return
    phrase = here.doc[sentence.start : here.i]
    if any(t.pos_ not in {"NOUN", "ADJ", "PROPN"} for t in phrase):
        return
    if any(t.head.i != head.i for t in phrase if t.i != head.i):
        return
    if not _a_kind_of_person(head):
        return
    key = "diet" if value_class(head.lower_) == "diet" else f"is.{slug(key_word(head))}"
    yield Reading("identity", key, phrase)
