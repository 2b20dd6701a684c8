"""A plan or goal the speaker names: "the plan is to cycle the Danube path".

The clause's subject is the plan, not the person, so the verb readers find no
one's fact in it; what the plan is (the "to" complement, or the noun after
"is") is the speaker's aim. "the plan was to ..." is told because it changed,
and a dream or a wish is not a plan, so only the present tense of a closed set
of nouns for aims counts.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Token

from memory_lab.brains.offline.parse.clauses import Statement
from memory_lab.brains.offline.parse.facts import value_span, with_place
from memory_lab.brains.offline.parse.keys import Reading, key_word, nominal, slug

AIM_NOUNS = frozenset("plan goal aim target resolution ambition mission".split())
"""Nouns for what a person is working towards (not "dream" or "wish")."""


def _aim(head: Token, owner: Token) -> Reading | None:
    span = value_span(head)
    if span is None:
        return None
    span = with_place(head, span)  # "a place at Juilliard"
    objects = [c for c in head.children if c.dep_ == "dobj"]
    word = key_word(objects[0] if objects else head)
    return Reading("knowledge", f"{owner.lemma_.lower()}.{slug(word)}", span)


def aim_readings(statement: Statement) -> Iterator[Reading]:
    """The aim in "the plan is to X", "my goal is a sub-3 marathon"."""
    owner, verb = statement.owner_noun, statement.verb
    if owner is None or owner.lemma_.lower() not in AIM_NOUNS:
        return
    if verb.lemma_ != "be" or verb.tag_ not in {"VBZ", "VBP"}:
        return
    for child in verb.children:
        if child.dep_ == "xcomp" and child.pos_ == "VERB":
            reading = _aim(child, owner)
        elif child.dep_ == "attr" and nominal(child):
            reading = _aim(child, owner)
        else:
            continue
        if reading is not None:
            yield reading
            return
