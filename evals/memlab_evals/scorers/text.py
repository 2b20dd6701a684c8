"""Text matching shared by every scorer, so "present in the context" means one thing.

Contexts are HTML-escaped by assembly (memory blocks are delimited as data), so every
comparison first unescapes; otherwise "R&D" in a turn would never match "R&amp;D" in
the context.

The stop words and `content_words` here are the scorers' own, deliberately not
imported from `memory_lab.text` (see `STOPWORDS`).
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

ARTICLES = frozenset({"a", "an", "the"})

# A fixed list, not `memory_lab.text.STOP_WORDS`: a scorer must not share its
# vocabulary with the system it judges, or a change in the system silently changes
# the metric. The two lists differ, and that is on purpose.
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his
    how i if in into is it its itself just me more most my myself no nor not now of off
    on once only or other our ours ourselves out over own same she should so some such
    than that the their theirs them themselves then there these they this those through
    to too under until up very was we were what when where which while who whom why will
    with would you your yours yourself yourselves s t d ll m re ve im""".split()
)

CONTAINMENT = 0.8
"""Share of a multi-word value's content words that must appear for a lenient match."""

_WORD = re.compile(r"[a-z0-9]+")
_FACT_LINE = re.compile(
    r"^- \[(?P<category>[A-Za-z_.-]+)\] (?P<body>.+?) = (?P<value>.*?)"
    r"(?: \(unsure\))?(?: \(since [^)]*\))?\s*$"
)
_GROUPED_FACT_LINE = re.compile(
    r"^- (?P<body>.+?) = (?P<value>.*?)(?: \(unsure\))?(?: \(since [^)]*\))?\s*$"
)
_SENTENCE_FACT_LINE = re.compile(
    r"^- (?P<sentence>.+?)(?: \(unsure\))?"
    r"(?: \((?:since|historical, decided) [^)]*\))?\s*$"
)
_FACTS_OPEN = '<memory type="facts">'
_BLOCK_CLOSE = "</memory>"


# Every scorer of a probe reads the same context again (evidence recall, word
# overlap, answer recall once per gold value), and a `full` context of a long
# conversation is tens of thousands of words: the recent ones are kept.
@functools.lru_cache(maxsize=256)
def normalise(text: str) -> str:
    """Lower-cased words without punctuation or articles, single-spaced."""
    words = _WORD.findall(html.unescape(str(text)).lower())
    return " ".join(w for w in words if w not in ARTICLES)


@functools.lru_cache(maxsize=256)
def content_words(text: str) -> frozenset[str]:
    """Lower-cased words minus stop words: what "the content" of a turn is."""
    return frozenset(_WORD.findall(html.unescape(str(text)).lower())) - STOPWORDS


def mentions(text: str, value: str) -> bool:
    """Whether `text` holds `value`.

    The normalised value must occur as a whole phrase in the normalised text; a value
    of two or more content words also counts when at least `CONTAINMENT` of its
    content words occur anywhere in the text, so "moved to Berlin in May" matches
    "moved to Berlin last May". An empty value never matches.
    """
    needle = normalise(value)
    if not needle:
        return False
    haystack = normalise(text)
    if f" {needle} " in f" {haystack} ":
        return True
    wanted = content_words(value)
    if len(wanted) < 2:
        return False
    found = wanted & set(haystack.split())
    return len(found) / len(wanted) >= CONTAINMENT


@dataclass(frozen=True)
class FactLine:
    """One fact line of an injected facts block.

    Either `- key = value (since DATE)`, or a sentence (`- Your home city is Oslo
    (since DATE)`), which names no key apart from its value: both `key` and
    `value` are then the whole sentence, and `sentence` is set.
    """

    category: str
    """The line's `[category]` tag, or the header it is listed under."""
    key: str
    value: str
    sentence: bool = False


def fact_lines(context: str) -> list[FactLine]:
    """The facts lines a context serves as current truth.

    Superseded facts never reach a facts block, so a value on one of these lines is
    being asserted as the current value. Two layouts are read: lines tagged
    `- [category] key = value` anywhere (episode lines also start with a bracket,
    but theirs holds a timespan, which the one-word category pattern rejects), and
    untagged lines under `Header:` lines inside a `<memory type="facts">` block,
    as `key = value` or as a sentence. The block's tags are found before
    unescaping, so a turn quoting them cannot open or close one. The subject
    prefix ("Name: key") is kept in `key`; callers use `key_matches`.
    """
    lines = []
    in_facts, header = False, ""
    for escaped in context.splitlines():
        stripped = escaped.strip()
        if stripped == _FACTS_OPEN:
            in_facts, header = True, ""
            continue
        if stripped == _BLOCK_CLOSE:
            in_facts = False
            continue
        raw = html.unescape(stripped)
        match = _FACT_LINE.match(raw)
        if match:
            lines.append(
                FactLine(match["category"], match["body"].strip(), match["value"])
            )
            continue
        if not in_facts:
            continue
        grouped = _GROUPED_FACT_LINE.match(raw)
        sentence = None if grouped else _SENTENCE_FACT_LINE.match(raw)
        if grouped:
            lines.append(FactLine(header, grouped["body"].strip(), grouped["value"]))
        elif sentence:
            said = sentence["sentence"].strip()
            lines.append(FactLine(header, said, said, sentence=True))
        elif not raw.startswith("-") and raw.endswith(":"):
            header = raw[:-1].strip().lower()
    return lines


def _bare(word: str) -> str:
    """A word without a final "s", so "likes" and "like" meet."""
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def key_matches(line: FactLine, key: str) -> bool:
    """Whether a facts line is about fact key `key` (assembly renders _ as spaces).

    A sentence line is about a key when it holds every word of the key, in any
    order and with or without a final "s" ("Your rent budget is 900" for
    `budget.rent`, "You like oat milk" for `likes.oat_milk`); it cannot say which
    of its words are the key's, so this reads a little wider than `key = value`.
    """
    if line.sentence:
        said = {_bare(w) for w in normalise(line.key).split()}
        spoken = normalise(key.replace("_", " ").replace(".", " ")).split()
        return {_bare(w) for w in spoken} <= said
    spoken = normalise(key.replace("_", " "))
    body = normalise(line.key)
    return body == spoken or body.endswith(f" {spoken}")
