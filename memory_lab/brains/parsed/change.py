"""Whether a clause says a value changed, so it must update something stored.

"My budget got smaller, it's $50 a week now" names its slot in other words than
the stored "I can't spend more than $80 a week on takeaways"; nothing in the
words joins them, but the clause says it is a change, and a change changes
something. The signals are the parse's: a verb of change or replacement, a
comparative ("more into", "prefer ... now"), or a closed class of adverbs that
mark the present against the past ("now", "anymore", "lately", "these days").
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from memory_lab.brains.parsed.clauses import Statement
from memory_lab.brains.parsed.lexicon import CHANGE_VERBS, REPLACE_VERBS

NOW_MARKERS = frozenset("now anymore lately nowadays currently instead".split())
"""Adverbs that set the present against an earlier state."""

NOW_PHRASES = frozenset({("these", "days"), ("at", "present"), ("any", "more")})
"""Two-word markers of the same."""

_COMPARATIVES = frozenset({"more", "rather", "prefer"})
_CHANGE_FRAMES = frozenset({"get", "become", "turn"})
"""Copular verbs of becoming: "my budget got tighter"."""


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
    if lemma in CHANGE_VERBS | REPLACE_VERBS | _CHANGE_FRAMES:
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


def sentence_past_only(sentence: Span) -> bool:
    """The same for a sentence: some clause in it says what used to hold."""
    return any(past_only(t) for t in sentence if t.dep_ == "xcomp")
