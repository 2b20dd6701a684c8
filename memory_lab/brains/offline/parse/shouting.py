"""Chat typed in capitals, written in ordinary case before it is parsed.

"MY SISTER LIVES IN BRIGHTON" and "GOT TICKETS for ..." shout; the small model
reads every capitalised word as a name and the parse falls apart. A run of two
or more words in capitals is written in lower case (a turn that is all
capitals opens with a capital again); a single word in capitals ("ADHD",
"NHS") is left as it is, since it is more often an acronym than a shout.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_RUN = re.compile(r"\b[A-Z][A-Z']+(?:\W+[A-Z][A-Z']+)+\b")


def _shouted(word: str) -> bool:
    return len(word) > 1 and word.isupper()


def unshouted(text: str) -> str:
    """`text` with each run of shouted words in lower case ("I" stays "I")."""
    words = _WORD.findall(text)
    if sum(_shouted(w) for w in words) < 2:
        return text

    def lower(match: re.Match[str]) -> str:
        return re.sub(r"\bi\b", "I", match.group(0).lower())

    mended = _RUN.sub(lower, text)
    if mended and mended[0].islower() and text[:1].isupper():
        mended = mended[0].upper() + mended[1:]
    return mended
