"""Recognising purged text where it was copied: event details, cached responses.

Events and cached LLM responses carry no turn ids to select them by, only text
derived from the turns: a fact's value, a summary, a quoted code. A purge
gathers that text as phrases while it is still held, and drops every event or
cached response that contains one. The matching is case- and spacing-blind and
on whole words, so a purged value "K2" does not take "K22" with it; a phrase is
looked up through its longest word, so thousands of phrases against a large
cache cost one pass over each record.

A paraphrase that shares no phrase with the purged text is not recognised; the
cache is a cache, so erring towards deletion only costs a repeated request.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from memory_lab.types import Episode, Fact, Message

MIN_SUMMARY_CHARS = 20
"""Summary lines shorter than this ("dinner plans") would match unrelated text."""

_WORD = re.compile(r"\w+")
_TRIM = "\"'`.,;:!?()[]{}<>"


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


class PhraseMatcher:
    """Whether a text holds any of many phrases, as whole words."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self._by_anchor: dict[str, list[re.Pattern[str]]] = defaultdict(list)
        for phrase in dict.fromkeys(_normal(p) for p in phrases):
            words = _WORD.findall(phrase)
            if not words:
                continue
            left = r"(?<!\w)" if _WORD.match(phrase[0]) else ""
            right = r"(?!\w)" if _WORD.match(phrase[-1]) else ""
            pattern = re.compile(left + re.escape(phrase) + right)
            self._by_anchor[max(words, key=len)].append(pattern)

    def __bool__(self) -> bool:
        return bool(self._by_anchor)

    def search(self, text: str) -> bool:
        """Whether `text` holds one of the phrases."""
        norm = _normal(text)
        for word in set(_WORD.findall(norm)) & self._by_anchor.keys():
            if any(p.search(norm) for p in self._by_anchor[word]):
                return True
        return False


def purged_phrases(
    turns: Iterable[Message],
    facts: Iterable[Fact],
    summaries: Iterable[Episode],
    running: Iterable[str] = (),
) -> list[str]:
    """Text a purge looks for: what the turns and facts said, what was made of it.

    Whole turns, fact values and the evidence quoted for them; the codes,
    numbers and ids inside turns and values on their own (they are what a
    summary or a reply copies verbatim); summaries and their listed items of
    the episodes and days removed, and the running summaries rebuilt.
    """
    phrases: list[str] = []
    said: list[str] = []
    for m in turns:
        phrases.append(m.content)
        said.append(m.content)
    for f in facts:
        phrases += [f.value, f.evidence]
        said.append(f.value)
    phrases += [t for text in said for t in distinctive_tokens(text)]
    for ep in summaries:
        items = [ep.summary, *ep.key_facts, *ep.decisions, *ep.open_questions]
        phrases += [i for i in items if len(i.strip()) >= MIN_SUMMARY_CHARS]
    phrases += [s for s in running if len(s.strip()) >= MIN_SUMMARY_CHARS]
    return [p for p in phrases if p.strip()]


def distinctive_tokens(text: str) -> Iterator[str]:
    """Codes, ids and long numbers: letters and digits mixed, or 7+ digits."""
    for raw in text.split():
        token = raw.strip(_TRIM)
        digits = sum(c.isdigit() for c in token)
        letters = sum(c.isalpha() for c in token)
        if (len(token) >= 6 and digits and letters) or digits >= 7:
            yield token


def record_text(record: Any) -> str:
    """Every string in a cached completion, JSON inside strings unpacked.

    A structured reply is JSON inside the `text` field and tool arguments are
    JSON strings, where quotes and non-ASCII letters are escaped; unpacked, the
    purged text reads as it was written.
    """
    return "\n".join(_strings(record))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            try:
                inner = json.loads(stripped)
            except ValueError:
                return
            yield from _strings(inner)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
