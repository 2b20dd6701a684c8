"""Whether a question asks about the past or about how things stand now.

A value that moved or was corrected answers "where do I live?" with the new
value, and "where did I live before?" or "what was my budget in March?" with the
old one. The parse says which: the tense of the question's finite verb (the
root, or the auxiliary that carries its tense: "did", "was", "have" of a
perfect), read from spaCy's morphology, so no phrasing is listed. A few
adverbs say it outright and win over the tense: "now", "currently", "still"
for the present; "before", "previously", "originally", "formerly", "earlier"
and "used to" for the past. A verb of saying ("what did I tell you about my
budget?") asks what holds, and reads the tense of what was said, if anything.

Only questions whose memory holds a replaced value are parsed (see `current`);
the parse of a text is kept (`parse_many`), so the turn path rarely pays it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory_lab.errors import MemoryLabError

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

PRESENT = frozenset({"now", "currently", "presently", "nowadays", "still", "anymore"})
"""Adverbs that put a question in the present, whatever its verb."""
PAST = frozenset({"before", "previously", "originally", "formerly", "earlier"})
"""Adverbs that put it in the past (as an adverb: "before the trip" does not)."""
SAYING = frozenset({"say", "tell", "mention", "write"})
"""Verbs of saying: their own tense is when it was said, not when it held."""

_WORDS = re.compile(r"[a-z']+")
_PAST_LEAD = re.compile(r"\b(?:did|was|were|used to)\b")


def asks_about_past(question: str) -> bool:
    """Whether `question` asks how things stood before, not how they stand now."""
    words = set(_WORDS.findall(question.lower()))
    if words & PRESENT:
        return False
    try:
        from memory_lab.brains.offline.parse.pipeline import parse_many

        doc = parse_many([question])[0]
    except (MemoryLabError, ImportError):
        # Without the parser: the adverbs, and a past auxiliary anywhere.
        return bool(words & PAST) or bool(_PAST_LEAD.search(question.lower()))
    asked = [s for s in doc.sents if s.text.rstrip().endswith("?")] or list(doc.sents)
    return any(_sentence_past(s) for s in asked)


def _sentence_past(sentence: Span) -> bool:
    for token in sentence:
        if token.lower_ in PAST and not any(c.dep_ == "pobj" for c in token.children):
            return True
        if token.lemma_ == "use" and any(c.dep_ == "xcomp" for c in token.children):
            return True
    return _verb_past(sentence.root)


def _verb_past(verb: Token) -> bool:
    """The tense of a clause's finite verb; a perfect counts as the past."""
    if verb.lemma_ in SAYING:
        said = [c for c in verb.children if c.dep_ == "ccomp"]
        return bool(said) and _verb_past(said[0])
    helpers = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if any(h.lemma_ == "have" for h in helpers) and "Perf" in verb.morph.get(
        "Aspect", []
    ):
        return True
    finite = [t for t in (verb, *helpers) if "Fin" in t.morph.get("VerbForm", [])]
    return any("Past" in t.morph.get("Tense", []) for t in finite)
