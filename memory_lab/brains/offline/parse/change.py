"""Whether a clause says a value changed, so it must update something stored.

"My budget got smaller, it's $50 a week now" names its slot in other words than
the stored "I can't spend more than $80 a week on takeaways"; nothing in the
words joins them, but the clause says it is a change, and a change changes
something. The signals are the parse's: a verb of change or replacement, a
comparative ("more into", "prefer ... now"), or a closed class of adverbs that
mark the present against the past ("now", "anymore", "lately", "these days").

A verb of motion says a change only of a thing ("the rent went up to 900", "we
pushed the meeting to Friday"): a person who went somewhere went there, and
moved nowhere in memory. And a clause that reports an event ("we went to the
beach", "I signed up for a class") changes nothing: events add to the record,
where a state ("I live in", "I like", "my budget is") holds one value at a time.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import Statement, told_in_passing
from memory_lab.brains.offline.parse.lexicon import (
    CHANGE_VERBS,
    PREFERENCE_VERBS,
    REPLACE_VERBS,
    UNCHANGED_PASTS,
)

NOW_MARKERS = frozenset("now anymore lately nowadays currently instead".split())
"""Adverbs that set the present against an earlier state."""

NOW_PHRASES = frozenset({("these", "days"), ("at", "present"), ("any", "more")})
"""Two-word markers of the same."""

_COMPARATIVES = frozenset({"more", "rather"})
_CHANGE_FRAMES = frozenset({"get", "become", "turn"})
"""Copular verbs of becoming: "my budget got tighter"."""

PERSONAL_SUBJECTS = frozenset("i we you he she they".split())

STATE_VERBS = (
    frozenset(
        "be have live work stay own use know believe feel seem keep remain start "
        "begin".split()
    )
    | PREFERENCE_VERBS
)
"""Verbs whose past tense describes a state that holds, or one it began ("I
started at Deloitte"), not an occurrence."""


def _marks_now(tokens: list[Token]) -> bool:
    lowered = [t.lower_ for t in tokens]
    if NOW_MARKERS & set(lowered):
        return True
    return any(
        (a, b) in NOW_PHRASES for a, b in zip(lowered, lowered[1:], strict=False)
    )


def signals_change(statement: Statement) -> bool:
    """Whether the clause states a new value of something, not a first one."""
    return verb_signals_change(statement.verb)


def sentence_signals_change(sentence: Span) -> bool:
    """The same for a whole sentence, read at its root: for the rules' readings."""
    return verb_signals_change(sentence.root)


def verb_signals_change(verb: Token) -> bool:
    """Whether the clause `verb` heads says a value changed."""
    lemma = verb.lemma_.lower()
    if lemma in REPLACE_VERBS | _CHANGE_FRAMES:
        return True
    if lemma in CHANGE_VERBS and _moves_a_value(verb):
        return True
    near = {verb.i, *(c.i for c in verb.children)}
    if any(t.lower_ in _COMPARATIVES and t.head.i in near for t in verb.subtree):
        return True
    return _marks_now(list(verb.sent))


def past_only(verb: Token) -> bool:
    """Whether a clause says what used to hold: "I used to live in Rotterdam"."""
    head = verb.head if verb.dep_ == "xcomp" else None
    return (
        head is not None
        and head.lemma_.lower() == "use"
        and head.tag_ == "VBD"
        and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)
    )


HELD_STATES = frozenset("be live work stay".split())
"""Verbs of a state that holds: in the simple past it held then ("I lived in
Valencia", "I was a paramedic"); a move or a start in the past still holds."""


def past_state(verb: Token) -> bool:
    """Whether a clause says a state held before, not now: "I worked at Arup"."""
    # Chat's subjectless "been in Brighton ten years" is a perfect the tagger
    # may read as a simple past.
    return (
        verb.tag_ == "VBD"
        and verb.lemma_.lower() in HELD_STATES
        and verb.lower_ != "been"
    )


def done(verb: Token) -> bool:
    """Whether a clause says its verb already happened: "sold", "have left", "quit".

    A progressive or a bare present ("I'm selling", "I sell") has not; a verb
    whose past is its present form is read as past, as chat nearly always means.
    """
    if verb.tag_ == "VBD" or told_in_passing(verb):
        return True
    if verb.tag_ == "VBN":
        return any(
            c.dep_ == "aux" and c.lemma_.lower() == "have" for c in verb.children
        ) or not any(c.dep_ in {"aux", "auxpass"} for c in verb.children)
    return verb.tag_ == "VBP" and verb.lower_ in UNCHANGED_PASTS


def sentence_past_only(sentence: Span) -> bool:
    """The same for a sentence: some clause in it says what used to hold."""
    return any(past_only(t) for t in sentence if t.dep_ == "xcomp")


def _moves_a_value(verb: Token) -> bool:
    """Whether a verb of motion moves a value, not the person who is its subject.

    "The rent went up" (a thing) and "we pushed the meeting to Friday" (an
    object, and where it went) move a value; "we went to the beach" and "I
    climbed Snowdon" move only the speaker.
    """
    person = any(
        c.dep_ in {"nsubj", "nsubjpass"}
        and (c.lower_ in PERSONAL_SUBJECTS or c.ent_type_ == "PERSON")
        for c in verb.children
    )
    if not person:
        return True
    moved = any(c.dep_ in {"dobj", "obj"} for c in verb.children)
    directed = any(
        c.dep_ == "prt" or (c.dep_ == "prep" and c.lower_ in {"to", "by"})
        for c in verb.children
    )
    return moved and directed


def reports_event(verb: Token) -> bool:
    """Whether a clause reports something that happened rather than a state.

    A simple past or present perfect of a verb of doing ("we went", "I've
    signed up"), not of being, having, liking or living, nor a replacement
    ("I switched to"), which states the new value of a slot.
    """
    lemma = verb.lemma_.lower()
    if lemma in STATE_VERBS | REPLACE_VERBS | _CHANGE_FRAMES:
        return False
    if lemma in CHANGE_VERBS and _moves_a_value(verb):
        return False  # a thing's value moved: "we pushed the meeting to Friday"
    if verb.tag_ == "VBD" or told_in_passing(verb):
        return True
    return verb.tag_ == "VBN" and any(
        c.dep_ == "aux" and c.lemma_.lower() == "have" for c in verb.children
    )
