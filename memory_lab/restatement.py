"""Replies that read memory back: which spans restate it, and what is left to remember.

A reply is stored as the assistant's turn, but a reply that says "you told me on
2 March that you live in Porto" is memory quoted, not something new. Summarised,
compressed, indexed and fact-extracted like any turn, every such reply would copy
memory into memory, and a stale value could outlive its correction through the
copy. So the respond node marks the spans of a reply that restate the context it
was given (`Message.restated`), and everything that builds memory from turns reads
`memory_view` of them: the turn without those spans, or nothing at all when the
reply added nothing. Ingested turns carry no marks and pass through unchanged.

The rule, per sentence (and per `;`-separated clause, which is how lists of
memory are joined): a sentence restates memory when at least `RESTATED_SHARE` of
its content words occur in context lines it draws on. A line is drawn on when it
shares at least two content words with the sentence (or all of its own, for a
line of one word), so words scattered over a large context do not add up to a
quote. Words that only frame a quote ("you said", "I remember") are not counted.
Every block but the instructions is context, the window included, so a reply
repeating an earlier reply restates it too. A sentence with no content word
("Yes, I can.") is neither: it stays, and a reply whose kept text has no content
word contributes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memory_lab.text import content_words, split_sentences, unescape_data
from memory_lab.types import ContextBundle, Message

RESTATED_SHARE = 0.75
"""Share of a sentence's content words that must come from memory lines it draws
on: a quote with its date or source still passes, a sentence that adds an idea of
its own to a remembered one does not."""

FRAMING_WORDS = frozenset(
    """said say says saying told tell telling mentioned mention mentions asked ask
    noted note remember remembered recall recalled memory according earlier
    previously before""".split()
)
"""Words that frame a restatement rather than add to it; not counted either way."""

_NOT_RESTATABLE = ("instructions",)
"""Blocks a reply cannot restate as memory: how to answer is not what was said.
Every other block is context the reply was given, whatever its kind."""
_TAG = re.compile(r"^</?[a-z_]+\b[^>]*>$")
_BULLET = re.compile(r"^(?:[-+*•]|\d+[.)])\s+")
_CLAUSE = re.compile(r";\s+")

Span = tuple[int, int]


def restated_spans(
    reply: str, context: ContextBundle, *, given: Iterable[Span] = ()
) -> list[Span]:
    """The spans of `reply` that restate lines of `context`, merged and in order.

    Args:
        reply: The reply's text as it will be stored.
        context: What the responder was shown.
        given: Spans the responder itself knows it quoted (the offline responder
            knows exactly); they are kept and the rule adds what it finds.
    """
    lines = [words for words in context_words(context) if words]
    found = [(max(0, a), min(len(reply), b)) for a, b in given]
    for start, stop in segments(reply):
        if restates(content_words(reply[start:stop]) - FRAMING_WORDS, lines):
            found.append((start, stop))
    return merge_spans(reply, found)


def restates(sentence: set[str], lines: Sequence[set[str]]) -> bool:
    """Whether a sentence's content words mostly come from lines it draws on."""
    if not sentence:
        return False
    covered: set[str] = set()
    for words in lines:
        shared = sentence & words
        if len(shared) >= min(2, len(words)):
            covered |= shared
    return len(covered) >= RESTATED_SHARE * len(sentence)


def context_words(context: ContextBundle) -> list[set[str]]:
    """Content words of each line of the context but its instructions."""
    out = []
    for block in context.blocks:
        if block.kind in _NOT_RESTATABLE:
            continue
        for raw in block.text.splitlines():
            line = unescape_data(raw.strip())
            if line and not _TAG.match(line):
                out.append(content_words(_BULLET.sub("", line)) - FRAMING_WORDS)
    return out


def segments(text: str) -> list[Span]:
    """Sentences of `text`, split again at semicolons, as spans of it."""
    out: list[Span] = []
    at = 0
    for sentence in split_sentences(text):
        start = text.index(sentence, at)
        at = start + len(sentence)
        clause_start = start
        for cut in _CLAUSE.finditer(sentence):
            out.append((clause_start, start + cut.start() + 1))
            clause_start = start + cut.end()
        out.append((clause_start, at))
    return out


def merge_spans(text: str, spans: Iterable[Span]) -> list[Span]:
    """Spans sorted, with overlapping ones and those only whitespace apart joined."""
    merged: list[list[int]] = []
    for start, stop in sorted(s for s in spans if s[0] < s[1]):
        if merged and not text[merged[-1][1] : start].strip():
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([start, stop])
    return [(start, stop) for start, stop in merged]


def adds_nothing(message: Message) -> bool:
    """Whether a marked turn has nothing left for memory once restatement is out."""
    return bool(message.restated) and not content_words(message.memory_text)


def memory_view(messages: Sequence[Message]) -> list[Message]:
    """The turns as memory is built from them: restated spans out, empty replies gone.

    An unmarked turn comes back as the same object, so ingested conversations
    are summarised, indexed and extracted exactly as before.
    """
    out = []
    for m in messages:
        if not m.restated:
            out.append(m)
        elif not adds_nothing(m):
            out.append(m.model_copy(update={"content": m.memory_text, "restated": []}))
    return out
