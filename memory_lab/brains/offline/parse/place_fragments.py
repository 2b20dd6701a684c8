"""Where the speaker is from or lives, said without a verb: "originally from Cork".

Chat drops "I'm" before a place as before a job ("still in Leeds", "from
Glasgow originally but living in London", "nope, Boulder now"). A part of the
sentence (cut at commas, dashes, "so" and "but") with no verb of its own that
opens, after adverbs, on "from" or "in" and a place, or is a place and "now",
is the speaker's. A part that asks, or that says when ("in Rome for the
weekend", "next week"), is a visit or a question, not a home.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import asked, parts
from memory_lab.brains.offline.parse.facts import located, names_a_place, value_span
from memory_lab.brains.offline.parse.keys import Reading

_SLOTS = {"from": "hometown", "in": "home_city"}
_LEADS = frozenset({"ADV", "INTJ", "CCONJ", "PUNCT", "PART"})
_WHEN = frozenset({"DATE", "TIME"})


def _a_place(token: Token) -> bool:
    """A place's name; the model types many towns as organisations ("Limerick")."""
    return token.pos_ == "PROPN" and (located(token) or names_a_place(token))


def _place(part: list[Token]) -> tuple[str, Token] | None:
    """(slot, place) if the verbless part names where the speaker is."""
    words = [t for t in part if t.pos_ not in _LEADS]
    if not words or any(t.pos_ in {"VERB", "AUX"} for t in part):
        return None
    if any(t.ent_type_ in _WHEN or t.lower_ in {"for", "visiting"} for t in part):
        return None
    first = words[0]
    if first.lower_ in _SLOTS and len(words) > 1 and _a_place(words[1]):
        return _SLOTS[first.lower_], words[1]
    now = any(t.lower_ == "now" for t in part)
    if now and len(words) == 1 and _a_place(first):
        return "home_city", first
    return None


def place_fragments(sentence: Span) -> Iterator[Reading]:
    """The speaker's hometown or home from verbless parts of the sentence."""
    asking = asked(sentence)
    for part in parts(sentence):
        if any(t.i in asking for t in part):
            continue
        found = _place(part)
        if found is None:
            continue
        slot, place = found
        span = value_span(place)
        if span is not None:
            yield Reading("identity", slot, span)
