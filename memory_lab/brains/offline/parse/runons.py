"""Chat's unpunctuated clause breaks, found in a first parse and marked.

"i'm a teacher i live in leeds" is two statements with no full stop between
them; parsed as one sentence, the second clause hangs off the first and is
lost. A new clause starts where a subject pronoun ("i", "she") comes right
after a word that cannot introduce it (not a conjunction, a preposition, a
complementiser or a verb that takes a clause, such as "think"), and is followed
by a verb; or where a possessive ("my brother lives ...") starts a noun phrase
followed by a finite verb after a noun or an adverb. A clause opened by "if"
or "when" is never cut: its main clause follows it; nor is a lead with no
verb ("maybe one day i'll ..."), which is no clause. The text is re-punctuated
there and parsed again; the first parse decides only where.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Token

from memory_lab.brains.offline.parse.contractions import misread_contractions
from memory_lab.brains.offline.parse.dropped_subjects import dropped_subjects

_SUBJECTS = frozenset({"i", "we", "he", "she", "they", "im"})
_POSSESSIVES = frozenset({"my", "our", "his", "her", "their"})
_OPENERS = frozenset({"CCONJ", "SCONJ", "ADP", "VERB", "AUX", "PART", "DET", "PRON"})
"""Parts of speech after which a pronoun continues the clause: "and i", "that
she", "think i", "to my"."""
_FINITE = frozenset({"VBZ", "VBD", "VBP", "MD"})
_SUBJECT_VERB_GAP = 2


def _opens_clause(token: Token) -> bool:
    doc = token.doc
    if token.i == 0 or doc[token.i - 1].is_punct or token.is_sent_start:
        return False
    before = doc[token.i - 1]
    if before.pos_ in _OPENERS or before.tag_ in {"WDT", "WP", "WRB"}:
        return False
    opened = doc[token.sent.start : token.i]
    if any(t.dep_ == "mark" or t.pos_ == "SCONJ" for t in opened):
        return False  # "if the offer comes through we'd move": one sentence
    if not any(
        t.pos_ in {"VERB", "AUX"} and t.dep_ not in {"prep", "pcomp"} for t in opened
    ):
        # "maybe one day I'll ...", "according to my dad I ...", "after leaving
        # Google I ...": no clause before it to end ("according" is a
        # preposition made of a verb, "leaving" the object of one).
        return False
    word = token.lower_
    after = doc[token.i + 1 : token.i + 1 + _SUBJECT_VERB_GAP + 2]
    if word in _SUBJECTS:
        return any(t.tag_ in _FINITE or t.lower_ in {"'m", "m"} for t in after[:2])
    if word in _POSSESSIVES:
        nouns = [t for t in after if t.pos_ in {"NOUN", "PROPN"}]
        return bool(nouns) and any(
            t.tag_ in _FINITE and t.i > nouns[0].i for t in after
        )
    return False


_LOWER_I = re.compile(r"\b(?:i|im)\b(?!['’])")


def _upper_i(match: re.Match[str]) -> str:
    return "I'm" if match.group(0) == "im" else "I"


def repunctuated(doc: Doc) -> str | None:
    """The text with a full stop at each unpunctuated clause break, or None.

    A subject chat left out is written in where it belongs (`dropped_subjects`),
    and a "'s" read as a possessive where it is a verb is written out
    (`contractions`).

    Typed "i" and "im" are written "I" and "I'm" too: the model reads them
    as nouns otherwise.
    """
    edits = [(t.idx, t.idx, ". ") for t in doc if _opens_clause(t)]
    edits += [(at, at, words) for at, words in dropped_subjects(doc)]
    edits += misread_contractions(doc)
    text, out, start = doc.text, [], 0
    for at, end, written in sorted(edits):
        before = text[start:at]
        out.append(before.rstrip() + written if written == ". " else before + written)
        start = end
    out.append(text[start:])
    mended = _LOWER_I.sub(_upper_i, "".join(out))
    return mended if mended != text else None
