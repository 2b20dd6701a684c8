"""A person's civil or working status: "we got married in June", "I'm retired".

The words are a closed class of English (married, engaged, divorced, retired,
...); the parse reads them as a passive participle ("I got engaged") or an
adjective after "be" ("I'm single"), which the verb and copula readers pass
over as a feeling or an event. Each belongs to one slot, so "divorced" later
replaces "married".
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Token

from memory_lab.brains.offline.parse.clauses import Statement, future
from memory_lab.brains.offline.parse.keys import Reading
from memory_lab.brains.offline.parse.lexicon import RELATION_NOUNS

STATUSES = {
    **dict.fromkeys(
        "married engaged divorced separated widowed single".split(), "relationship"
    ),
    **dict.fromkeys("retired unemployed freelance".split(), "work"),
    "pregnant": "pregnancy",
}
"""Each status word and the slot it fills."""


def _figurative(word: Token) -> bool:
    """Married "to" something that is no one: "married to my job"."""
    for prep in word.children:
        if prep.dep_ == "prep" and prep.lower_ == "to":
            for obj in prep.children:
                if obj.dep_ == "pobj" and not (
                    obj.pos_ == "PROPN" or obj.lemma_.lower() in RELATION_NOUNS
                ):
                    return True
    return False


def _status(word: Token) -> Reading | None:
    slot = STATUSES.get(word.lower_)
    if slot is None or _figurative(word):
        return None
    return Reading("identity", f"status.{slot}", word.doc[word.i : word.i + 1])


def status_readings(statement: Statement) -> Iterator[Reading]:
    """The status one asserted clause gives its person, if any."""
    verb = statement.verb
    if statement.owner_noun is not None or verb.dep_ == "xcomp" or future(verb):
        return  # "planning to get married", "we'll get married" is no status yet
    passive = [c for c in verb.children if c.dep_ == "auxpass"]
    if verb.tag_ == "VBN" and passive:
        # "was married" may be over; "got married" and "am retired" hold.
        # "we're getting married in June" is arranged, not yet so.
        if all(a.lower_ not in {"was", "were"} and a.tag_ != "VBG" for a in passive):
            reading = _status(verb)
            if reading is not None:
                yield reading
        return
    if verb.lemma_ == "be" and verb.tag_ in {"VBP", "VBZ"}:
        for child in verb.children:
            if child.dep_ in {"acomp", "attr"}:
                reading = _status(child)
                if reading is not None:
                    yield reading
