"""Names given by apposition: "my labrador Bruno", "Mochi (my rabbit)".

The speaker's people are read by their relation nouns ("my sister Ana",
`relation_readings`); a pet, a car or a boat is named the same way, and
what names it is the word order, not the noun: a thing the speaker owns ("my",
"our"), and a proper name right after it or beside it in brackets. The name
becomes the speaker's fact under the noun ("labrador.bruno = Bruno"), as a
relative's does, so a question that names either finds it.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.lexicon import (
    GENERAL_NOUNS,
    RELATION_NOUNS,
    TIME_NOUNS,
)

OWNERS = frozenset({"my", "our"})

NOT_NAMES = frozenset(
    {"DATE", "TIME", "MONEY", "QUANTITY", "PERCENT", "CARDINAL", "ORDINAL"}
)
"""Entity types a proper noun after a noun may have that name no one."""


def _owned(token: Token) -> bool:
    return any(c.dep_ == "poss" and c.lower_ in OWNERS for c in token.children)


def _namable(noun: Token) -> bool:
    word = noun.lemma_.lower()
    return (
        noun.pos_ in {"NOUN", "ADJ"}
        and word.isalpha()
        and word not in GENERAL_NOUNS | TIME_NOUNS
    )


def name_after(noun: Token) -> Token | None:
    """The proper name right after a relation noun: "my grandad Stan"."""
    doc = noun.doc
    if noun.i + 1 >= noun.sent.end:
        return None
    name = doc[noun.i + 1]
    if name.pos_ != "PROPN" or name.ent_type_ in NOT_NAMES:
        return None
    return name


def _name_from(token: Token) -> Span | None:
    """The proper name that starts at `token` (consecutive proper nouns)."""
    if token.pos_ != "PROPN" or token.ent_type_ in NOT_NAMES:
        return None
    doc = token.doc
    end = token.i
    while end + 1 < len(doc) and doc[end + 1].pos_ == "PROPN":
        end += 1
    return doc[token.i : end + 1]


def possessed_names(sentence: Span) -> Iterator[tuple[str, Span]]:
    """(noun, name) for each thing the speaker owns and names in `sentence`."""
    doc = sentence.doc
    for token in sentence:
        if token.pos_ == "NOUN" and _owned(token) and _namable(token):
            # "my labrador Bruno", "my tortoise Gerald"
            if token.i + 1 < sentence.end:
                name = _name_from(doc[token.i + 1])
                if name is not None:
                    yield token.lemma_.lower(), name
        elif token.pos_ == "PROPN" and token.ent_type_ not in NOT_NAMES:
            before = [c for c in token.children if c.i < token.i]
            nouns = [c for c in before if c.dep_ == "compound" and _namable(c)]
            if _owned(token) and nouns:
                # "our beagle Ziggy": the possessive hangs on the name
                yield nouns[-1].lemma_.lower(), doc[token.i : token.i + 1]
            for appos in token.children:
                if appos.dep_ == "appos" and _owned(appos) and _namable(appos):
                    # "Biscuit (our cat)"
                    yield appos.lemma_.lower(), doc[token.i : token.i + 1]


def relation_readings(sentence: Span, speaker: str) -> Iterator[tuple[str, Span]]:
    """The relation in "my husband Tom" as the speaker's fact, valued by the name."""
    for token in sentence:
        if token.lemma_.lower() not in RELATION_NOUNS:
            continue
        if not any(
            c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in token.children
        ):
            continue
        for child in token.children:
            if (
                child.dep_ in {"appos", "compound", "npadvmod"}
                and child.pos_ == "PROPN"
            ):
                yield token.lemma_.lower(), sentence.doc[child.i : child.i + 1]
        name = name_after(token)
        if name is not None and name.head.i != token.i:
            # "my grandad Stan": the model may hang the relation on the name, or
            # make both subjects of the verb; the name right after it is still
            # the relative's.
            yield token.lemma_.lower(), sentence.doc[name.i : name.i + 1]
