"""Health conditions: what a person has, and what their medicine is for.

"I have asthma", "I've got eczema on my hands", "my husband has ADHD", "I'm on
metformin for my diabetes", "I take propranolol for anxiety". "have" says little
on its own ("I have work tomorrow"), so its object counts as a condition only
when English marks it as one: a bare noun (no article, owner or number) built
with a suffix of medicine ("tendonitis", "insomnia", "eczema") or written as an
acronym ("ADHD", "IBS"). What a medicine is taken for needs no such mark: the
frame says it is a condition.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Token

from memory_lab.brains.offline.parse.clauses import Statement
from memory_lab.brains.offline.parse.facts import value_span
from memory_lab.brains.offline.parse.keys import Reading, key_word, slug
from memory_lab.brains.offline.parse.lexicon import GENERAL_NOUNS, TIME_NOUNS

MEDICAL_SUFFIXES = (
    "itis",
    "osis",
    "emia",
    "aemia",
    "algia",
    "pathy",
    "oma",
    "ia",
    "sthma",
    "zema",
    "lepsy",
    "etes",
    "ism",
)
"""Greek and Latin endings English names illnesses with ("tendonitis",
"psoriasis", "anaemia", "neuralgia", "neuropathy", "glaucoma", "insomnia",
"asthma", "eczema", "epilepsy", "diabetes", "autism")."""

_HAVING = frozenset({"have", "get"})
_TAKING = frozenset({"take"})


def _acronym(token: Token) -> bool:
    return token.text.isalpha() and token.text.isupper() and 2 <= len(token.text) <= 5


def _marked(noun: Token) -> bool:
    """A bare noun English marks as an illness, by its ending or as an acronym."""
    if noun.pos_ not in {"NOUN", "PROPN"}:
        return False
    if any(c.dep_ in {"det", "poss", "nummod"} for c in noun.children):
        return False
    if _acronym(noun):
        return True
    return noun.pos_ == "NOUN" and noun.lemma_.lower().endswith(MEDICAL_SUFFIXES)


def _present(verb: Token) -> bool:
    """A state now ("have", "has", "have got"), not "had" or "will have"."""
    if verb.tag_ in {"VBP", "VBZ"}:
        return True
    return verb.tag_ in {"VBN", "VBD"} and any(
        c.dep_ == "aux" and c.lemma_.lower() == "have" for c in verb.children
    )


def _condition(noun: Token) -> Reading | None:
    if noun.lemma_.lower() in TIME_NOUNS | GENERAL_NOUNS or noun.pos_ == "PRON":
        return None
    span = value_span(noun)
    if span is None:
        return None
    return Reading("constraint", f"condition.{slug(key_word(noun))}", span)


def _treated(holder: Token) -> Iterator[Reading]:
    """The "for" object of a medicine or of taking it: what it treats."""
    for prep in holder.children:
        if prep.dep_ != "prep" or prep.lower_ != "for":
            continue
        for obj in prep.children:
            if obj.dep_ == "pobj" and obj.pos_ == "NOUN" and not obj.ent_type_:
                reading = _condition(obj)
                if reading is not None:
                    yield reading


def condition_readings(statement: Statement) -> Iterator[Reading]:
    """The conditions one asserted clause says its person has or is treated for."""
    verb = statement.verb
    if statement.owner_noun is not None:
        return
    lemma = verb.lemma_.lower()
    if lemma in _HAVING and _present(verb):
        for obj in verb.children:
            if obj.dep_ == "dobj" and _marked(obj):
                reading = _condition(obj)
                if reading is not None:
                    yield reading
    elif lemma in _TAKING and any(c.dep_ == "dobj" for c in verb.children):
        yield from _treated(verb)
    elif lemma == "be":
        for prep in verb.children:
            if prep.dep_ == "prep" and prep.lower_ == "on":
                for medicine in prep.children:
                    if medicine.dep_ == "pobj":
                        yield from _treated(medicine)
