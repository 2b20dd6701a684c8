"""Chat's dropped subjects: "booked flights to Lisbon", "been freelancing since 2019".

A diary-like line often leaves its "I" out. Parsed as it stands, the clause has
no subject, so nothing in it is read as the speaker's. Where a sentence opens
(after interjections and adverbs such as "wow", "finally") with a past-tense
verb that has no subject and takes an object or a complement ("booked flights",
"moved to Leeds"; a participle only with an object or a particle, "signed up
for a class"), or with "been" before a participle, the speaker is the subject,
and "I" (or "I've") is written in before the parse is made again (see
`runons.repunctuated`). A verb whose only complement is how
something went ("went well", "turned out great", "looked amazing") has a
dropped "it", not "I", and is left alone.
"""

from __future__ import annotations

from spacy.tokens import Doc, Token

_LEADS = frozenset({"INTJ", "ADV", "PUNCT"})
"""Parts of speech that may come before the verb: "oh", "finally", a comma."""

_COMPLEMENTS = frozenset({"dobj", "prep", "xcomp", "ccomp", "dative", "prt"})
"""Dependents that say what the speaker did, not how it went."""

_HOW_IT_WENT = frozenset({"acomp", "oprd"})
"""Complements that say how something went or was: "looked lovely"."""

_DOINGS = frozenset({"dobj", "prt", "dative", "xcomp", "ccomp"})
"""Dependents that name what was done; without one, a manner after the verb
("went fine", "worked well") says how it went."""

MAX_LEAD = 2
"""Lead words skipped before the opening verb is looked for."""


def _opening_verb(sentence: list[Token]) -> Token | None:
    lead = 0
    for token in sentence:
        if token.pos_ in _LEADS and lead < MAX_LEAD:
            lead += 1
            continue
        return token
    return None


def _subjectless(verb: Token) -> bool:
    return not any(c.dep_ in {"nsubj", "nsubjpass", "expl"} for c in verb.children)


def _said_of_the_speaker(verb: Token) -> bool:
    deps = {c.dep_ for c in verb.children}
    if deps & _HOW_IT_WENT:
        return False
    if not deps & _DOINGS and any(
        c.dep_ == "advmod" and c.i > verb.i for c in verb.children
    ):
        return False  # "went fine in the end": how it went
    if verb.tag_ == "VBN":
        # Read as a participle, it is active only with an object or a particle:
        # "signed up for a class", not "booked for Tuesday".
        return bool(deps & (_DOINGS - {"xcomp", "ccomp"}))
    return bool(deps & _COMPLEMENTS)


def dropped_subjects(doc: Doc) -> list[tuple[int, str]]:
    """Where a subject was left out, as (character offset, words to write in)."""
    found = []
    for sent in doc.sents:
        verb = _opening_verb(list(sent))
        if verb is None:
            continue
        if verb.lower_ == "been" and verb.dep_ == "aux":
            head = verb.head
            if head.tag_ in {"VBG", "VBN"} and _subjectless(head):
                found.append((verb.idx, "I've "))
        elif (
            verb.tag_ in {"VBD", "VBN"}
            and verb.dep_ not in {"aux", "auxpass", "amod"}
            and not any(c.dep_ in {"aux", "auxpass"} for c in verb.children)
            and _subjectless(verb)
            and _said_of_the_speaker(verb)
        ):
            found.append((verb.idx, "I "))
    return found
