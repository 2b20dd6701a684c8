"""A facts block line as the offline reply says it.

Facts blocks show each fact as its sentence ("You live in a flat near the
harbour (since 2025-03-03)"), which the reply can say as it is. Lines in the
older layout, `[category] who: key = value (since DATE)`, still arrive from
stored contexts and from the live block, and are said through the same
phrasing (`facts.phrasing`), so neither reads "Your live in flat is flat ...".
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memory_lab.facts.phrasing import phrase

_KEYED = re.compile(
    r"^(?:\[(?P<category>[^\]]+)\]\s+)?(?:(?P<who>[^=:]+?):\s+)?"
    r"(?P<key>[a-z0-9][a-z0-9 _.]*?) = "
    r"(?P<value>.+?)(?P<unsure> \(unsure\))?(?: \((?P<when>[^()]*)\))?$"
)
"""The older layout; a key is lower-case words, so a sentence holding " = " is
not read as one."""
_SENTENCE = re.compile(
    r"^(?P<sentence>.+?)(?P<unsure> \(unsure\))? \((?P<when>[^()]*)\)$"
)
"""A sentence line ends with when it holds from; a header ("Knowledge:") does not."""


class SaidFact(NamedTuple):
    """A fact line read back: the words to match it on and the sentence to say."""

    matched: str
    sentence: str


def read_fact_line(text: str) -> SaidFact | None:
    """The fact a facts block line states, None for a header or anything else.

    Args:
        text: The line without its leading "- ", unescaped.
    """
    keyed = _KEYED.match(text)
    if keyed:
        subject = (keyed["who"] or "user").strip().lower()
        key = re.sub(r"\s+", "_", keyed["key"].strip())
        said = phrase(subject, key, keyed["value"].strip()).text
        return _said(said, keyed["unsure"], keyed["when"])
    line = _SENTENCE.match(text)
    if line:
        return _said(line["sentence"].strip(), line["unsure"], line["when"])
    return None


def _said(sentence: str, unsure: str | None, when: str | None) -> SaidFact:
    hedge = " (not certain)" if unsure else ""
    since = f" ({when})" if when else ""
    return SaidFact(sentence, f"{sentence}{hedge}{since}")
