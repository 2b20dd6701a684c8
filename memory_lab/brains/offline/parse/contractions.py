"""A "'s" the parser read as a possessive where chat meant "is" or "has".

"my wife's a paramedic", "rent's £1,150 a month", "the landlord's put the rent
up": a possessive is followed by what it owns, a noun phrase's words, never by
an article, a number or a past participle. There the "'s" is the verb, and the
turn is parsed again with it written out (see `runons.repunctuated`).
"""

from __future__ import annotations

from spacy.tokens import Doc

_IS_BEFORE = frozenset({"DT", "CD", "$"})
"""What follows "is": "a paramedic", "34 next week", "£1,150"."""

_HAS_BEFORE = frozenset({"VBN", "VBD"})
"""What follows "has": "put the rent up", "been living with us"."""


def misread_contractions(doc: Doc) -> list[tuple[int, int, str]]:
    """Each "'s" read as a possessive that is a verb: (start, end, words to write)."""
    found = []
    for token in doc[:-1]:
        if token.tag_ != "POS" or token.lower_ not in {"'s", "’s"}:
            continue
        after = doc[token.i + 1]
        if token.i > 0 and doc[token.i - 1].lower_ == "name":
            # "her name's Pepper": a name owns nothing; its "'s" is "is".
            found.append((token.idx, token.idx + len(token.text), " is"))
        elif after.tag_ in _IS_BEFORE and after.lower_ not in {"every", "each", "all"}:
            found.append((token.idx, token.idx + len(token.text), " is"))
        elif after.tag_ in _HAS_BEFORE:
            found.append((token.idx, token.idx + len(token.text), " has"))
    return found
