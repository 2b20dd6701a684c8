"""Shared text vocabulary: stop words, sentences, escaping, turn lines, truncation.

Retrieval, assembly, both brains and the evals all cut, escape and compare chat
text. When each kept its own copy the copies drifted (two stop-word lists, two
ways to escape, four ways to cut to a budget), so a fix in one place silently
missed the others. This module is the one owner; it is pure and imports nothing
heavier than the records.
"""

from __future__ import annotations

import functools
import html
import re
from datetime import date, datetime
from typing import Literal

from memory_lab.tokens import TokenCounter
from memory_lab.types import Message

__all__ = [
    "CHAT_STOP_WORDS",
    "STOP_WORDS",
    "content_words",
    "escape_data",
    "fact_words",
    "split_sentences",
    "spoken_date",
    "strip_injected_memory",
    "truncate_to_tokens",
    "turn_line",
    "unescape_data",
]

# --- stop words and content words ---------------------------------------------------

STOP_WORDS = frozenset(
    "a an the and or but of to in on at for with from by is are was were be been am i "
    "you he she it we they me my your his her its our their what when where who whom "
    "which why how do does did have has had this that these those there here not no "
    "yes so as if than then too very can could would should will just about into "
    "over after before up down out".split()
)
"""Words that say nothing about what a text is about: relevance ignores them."""

CHAT_STOP_WORDS = (STOP_WORDS - {"yes"}) | frozenset(
    """above again against all any because being below between both doing during each
    few further having hers herself him himself itself more most myself nor now off
    once only other ours ourselves own same some such theirs them themselves through
    under until while yours yourself yourselves im i'm i've i'll i'd you're you've
    you'll it's that's there's what's let's don't doesn't didn't can't won't isn't
    aren't wasn't weren't haven't hasn't wouldn't shouldn't couldn't he's she's
    we're they're we've they've also really get got gonna going go one thing things
    something anything lot lots much many way well even still yet though like kind
    sort maybe oh ah um uh""".split()
)
"""`STOP_WORDS` plus contractions and chat fillers: words no summary needs to cover.

The extractive summariser picks sentences for the new words they add, and in chat
"gonna", "really" or "don't" add nothing. "yes" is left to the summariser's own
list of pleasantries, which weighs it as small talk rather than dropping it.
"""


# Counts written as words ("two weeks ago", "for a couple of months"), shared
# by relative-date rendering and validity windows so both read the same phrases.
NUMBER_WORDS = {
    "a couple of": 2,
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
# Longest first, so "a couple of" is tried before "a".
NUMBER_WORD_PATTERN = "|".join(
    re.escape(w) for w in sorted(NUMBER_WORDS, key=len, reverse=True)
)


def content_words(text: str) -> set[str]:
    """Lower-cased words minus stop words: the vocabulary relevance is judged on."""
    return {
        w
        for w in re.findall(r"[a-z0-9]+", text.lower())
        if w not in STOP_WORDS and len(w) > 1
    }


@functools.lru_cache(maxsize=16_384)
def stored_content_words(text: str) -> frozenset[str]:
    """`content_words` of a stored text, kept: every question reads the same ones."""
    return frozenset(content_words(text))


def quotes_value(words: set[str] | frozenset[str], value: frozenset[str]) -> bool:
    """Whether a text with content `words` quotes a value with content words `value`.

    All of a value of one or two words; two thirds of a longer one, so "300
    euros" quotes "300 euros a month" and a value said in part still counts;
    and every number of it, so "50 dollars a week" does not quote "250 dollars
    a week".
    """
    if not value:
        return False
    needed = len(value) if len(value) <= 2 else -(-2 * len(value) // 3)
    shared = value & words
    return len(shared) >= needed and all(
        w in shared for w in value if any(c.isdigit() for c in w)
    )


@functools.lru_cache(maxsize=200_000)
def fact_words(key: str, value: str) -> frozenset[str]:
    """Content words of a fact's key and value, cached.

    Cached because facts are ranked against every query. The subject is left out:
    in a two-person chat every fact names one of the two, so a name in the question
    says little about which fact it asks.
    """
    return frozenset(
        content_words(f"{key.replace('_', ' ').replace('.', ' ')} {value}")
    )


@functools.lru_cache(maxsize=10_000)
def subject_words(subject: str) -> frozenset[str]:
    """Content words of whom a fact is about ("melanie", "user's sister" -> sister)."""
    return frozenset(content_words(subject.replace("user's", " "))) - {"user"}


# --- sentences ----------------------------------------------------------------------

_MEMORY_TAG = re.compile(r"<memory\b[^>]*>.*?</memory\s*>", re.I | re.S)
_MEMORY_TAG_OPEN = re.compile(r"<memory\b.*\Z", re.I | re.S)
_MEMORY_BRACKET_BLOCK = re.compile(
    r"\[[A-Z _-]*(?:MEMORY|CONTEXT)\].*?\[END\b[A-Z _-]*\]", re.S
)
_MEMORY_LINE = re.compile(r"^[ \t]*\[MEMORY[^\n]*$", re.M)


def strip_injected_memory(text: str) -> str:
    """Remove memory blocks a client pasted back into a turn.

    Memory that is echoed into a message must not be re-read as if the user had
    said it again, or stale facts would confirm themselves forever. Removed spans
    become line breaks so no sentence is glued across them and every remaining
    sentence is still a substring of the original turn.
    """
    text = _MEMORY_TAG.sub("\n", text)
    text = _MEMORY_TAG_OPEN.sub("\n", text)
    text = _MEMORY_BRACKET_BLOCK.sub("\n", text)
    return _MEMORY_LINE.sub("\n", text)


_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs mr mrs ms dr st prof jr sr no approx ca inc ltd co".split()
)
_BOUNDARY = re.compile(r"[.!?…]+[\"')\]]*(?=\s)|\n+")


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, each a stripped substring of it.

    A small splitter is enough for chat turns; it keeps "e.g." and "Dr." inside
    their sentences and treats line breaks as boundaries because chat users often
    write one thought per line without punctuation.
    """
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group().startswith("."):
            before = re.search(r"([\w.]+)\.*$", text[start : match.start()])
            word = before.group(1).lower() if before else ""
            if word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", word):
                continue
        piece = text[start : match.end()].strip()
        if piece:
            out.append(piece)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


# --- memory content as data ---------------------------------------------------------


def escape_data(text: str) -> str:
    """Neutralise markup so quoted content cannot close or open a tag around it.

    Context blocks and prompts both wrap untrusted turns and memory in tags; with
    `<` and `>` escaped, a stored message that contains the delimiter cannot end
    its block early and pose as instructions. Quotes are left alone: they cannot
    end an element's body, and keeping them keeps the text readable.
    """
    return html.escape(text, quote=False)


def unescape_data(text: str) -> str:
    """The words a reader of an escaped block sees: the inverse of `escape_data`."""
    return html.unescape(text)


def spoken_date(day: date | datetime) -> str:
    """'8 May 2023': fewer tokens than ISO with a time, and how answers are phrased."""
    return _spoken_day(day.year, day.month, day.day)


@functools.lru_cache(maxsize=8192)
def _spoken_day(year: int, month: int, day: int) -> str:
    """Kept per day: every question renders its candidate turns' dates again."""
    return f"{day} {date(year, month, day).strftime('%B %Y')}"


def turn_line(message: Message, *, content: str | None = None) -> str:
    """One turn as a line: "speaker (8 May 2023): text".

    The window block and the verbatim baselines render turns the same way, so a
    recipe and a baseline pay the same tokens for the same turn. `content`
    replaces the text (memory adds resolved dates to it).
    """
    text = message.content if content is None else content
    return f"{message.who} ({spoken_date(message.timestamp)}): {text}"


# --- truncation ---------------------------------------------------------------------


def truncate_to_tokens(
    text: str,
    max_tokens: int,
    counter: TokenCounter,
    *,
    keep: Literal["start", "end"] = "start",
    marker: str = "",
    escaped: bool = False,
) -> str:
    """The most whole words of `text`, from its start or its end, within `max_tokens`.

    Whole words keep a cut readable and verbatim word for word; a binary search
    keeps it to a logarithmic number of token counts on long texts.

    Args:
        text: What to cut. Text that already fits comes back unchanged.
        max_tokens: The budget, counted with `counter`.
        counter: Measures the budget.
        keep: Which end survives: "start" for a prefix, "end" for the newest part
            of a turn or summary.
        marker: Shows that something was cut; put before the kept words when
            keeping the end, after them when keeping the start, and counted in
            the budget.
        escaped: Measure the text as `escape_data` will render it, because escaping
            can add tokens.

    Returns:
        The kept words joined by single spaces (with `marker`), or "" when not even
        one word fits.
    """

    def size(candidate: str) -> int:
        return counter.count(escape_data(candidate) if escaped else candidate)

    if size(text) <= max_tokens:
        return text
    words = text.split()

    def cut(n: int) -> str:
        if keep == "end":
            return marker + " ".join(words[len(words) - n :])
        return " ".join(words[:n]) + marker

    lo, hi = 0, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if size(cut(mid)) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    return cut(lo) if lo else ""
