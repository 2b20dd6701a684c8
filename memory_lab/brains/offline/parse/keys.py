"""How a reading is keyed: lemmas of the relation and the head noun, slugged.

Keys are made from the words said, not from a table, so "rent budget" and
"budget for rent" meet on one key (`budget.rent`) and a new kind of thing gets
a key of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Span, Token


@dataclass(frozen=True)
class Reading:
    """One fact a clause states: where its value is, and how it is keyed."""

    category: str
    key: str
    value: Span


def slug(text: str) -> str:
    """A key part: lower-case words joined by underscores."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40]


def key_word(token: Token) -> str:
    """A word's dictionary form for keys.

    A singular noun or a gerund keeps its own spelling: the lemmatiser turns
    "bookkeeping" into "bookkeepe".
    """
    if token.tag_ in {"NN", "NNP", "VBG"}:
        return token.lower_
    return token.lemma_.lower()


def noun_key(noun: Token) -> str:
    """Lemma of the head, then its modifiers and "for/of" objects, sorted.

    "rent budget", "budget for rent" -> `budget.rent`; "dentist appointment" ->
    `appointment.dentist`.
    """
    parts = []
    for child in noun.children:
        if child.dep_ in {"compound", "amod", "nmod"} and child.pos_ != "PROPN":
            parts.append(key_word(child))
        if child.dep_ == "prep" and child.lower_ in {"for", "of"}:
            parts.extend(key_word(g) for g in child.children if g.dep_ == "pobj")
    head = key_word(noun)
    return ".".join([slug(head), *sorted(slug(p) for p in parts if slug(p))])


def nominal(token: Token) -> bool:
    """A noun, or an adjective-tagged word the article makes a noun.

    The tagger reads some job words as adjectives ("she's a paramedic"); after
    "a" or "an" with no noun of its own to describe, the word is the noun.
    """
    if token.pos_ in {"NOUN", "PROPN"}:
        return True
    return (
        token.pos_ == "ADJ"
        and any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in token.children)
        and not any(c.pos_ in {"NOUN", "PROPN"} for c in token.rights)
    )
