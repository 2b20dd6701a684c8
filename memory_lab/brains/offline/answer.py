"""The offline reply: the memory line that best answers the message, said plainly.

With no language model there is no answer to compose, but the context already
holds the lines memory chose for the message. Listing all of them buried the one
that answers; this picks it. Each fact, excerpt, episode summary and window turn
of the context is ranked against the message twice, by the rare words it shares
(idf over the context's own lines) and, when an embedder is given, by meaning
(cosine of MiniLM vectors); the two rankings are fused by reciprocal rank, a fact
first on a tie (it is the shorter, exact line). The best line becomes a sentence
with where it came from (who said it and when, or since when a fact holds),
followed by at most three other relevant lines. A line counts as relevant when
it shares a content word with the message or its cosine reaches `MEANING_FLOOR`.
When no line shares a word, the line closest in meaning is offered as that and
no more (MiniLM does not separate "where do I live?" from "what is the capital
of Peru?" against "home city Lisbon" by any one threshold); when none is even
that close, the reply says memory holds nothing that answers.

The assistant's own turns are never offered as answers: a reply restating
memory is not a new source of it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memory_lab.brains.offline.current_lines import current_first
from memory_lab.brains.offline.fact_line import read_fact_line
from memory_lab.fusion import fuse_ranks
from memory_lab.text import content_words, unescape_data
from memory_lab.types import ContextBundle

MEANING_FLOOR = 0.3
"""Cosine at which a line sharing no word with the message is still offered:
unrelated sentences sit near 0.1 with MiniLM, paraphrases above 0.5."""
RELATED = 3
"""Further relevant lines shown after the answer."""
RELATED_WORDS = 24
"""Each further line is cut to this many words."""
ANSWER_WORDS = 60
"""The answer line is cut to this many words (an episode summary can be long)."""

_TURN = re.compile(r"^(?P<who>[^()]+?) \((?P<date>\d{1,2} \w+ \d{4})\): (?P<text>.+)$")
_EPISODE = re.compile(r"^\[(?P<span>[^;\]]+); turns [^\]]+\] (?P<summary>.+)$")
_ASSISTANT = "assistant"

Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class Line:
    """One memory line of the context, as it can be matched and said."""

    kind: str
    """`fact`, `turn` (an excerpt or a window turn) or `episode`."""
    matched: str
    """The words it is matched on."""
    sentence: str
    """How the reply says it."""


def answer_reply(
    message: str, context: ContextBundle, embed: Embed | None = None
) -> str | None:
    """The answer sentence and related lines; None when no line is relevant."""
    lines = [
        line
        for line in memory_lines(context)
        if line.matched.strip() and line.matched.strip() != message.strip()
    ]
    if not lines:
        return None
    ranked, worded = rank_lines(message, lines, embed)
    ranked = current_first(ranked, lines, context.replaced, shown=1 + RELATED)
    if not ranked:
        return None
    best, *rest = ranked
    if worded:
        reply = f"From memory: {_stop(_shorten(best.sentence, ANSWER_WORDS))}"
    else:
        reply = (
            "Nothing in memory shares a word with your message; the closest in "
            f"meaning is: {_stop(_shorten(best.sentence, ANSWER_WORDS))}"
        )
    if rest:
        related = "; ".join(
            _shorten(r.sentence, RELATED_WORDS).rstrip(".") for r in rest[:RELATED]
        )
        reply += f" Also in memory: {_stop(related)}"
    return reply


def rank_lines(
    message: str, lines: Sequence[Line], embed: Embed | None
) -> tuple[list[Line], bool]:
    """The relevant lines, best first, and whether any shares a word with `message`."""
    asked = content_words(message)
    words = [content_words(line.matched) for line in lines]
    df: dict[str, int] = {}
    for held in words:
        for word in held:
            df[word] = df.get(word, 0) + 1
    n = len(lines)
    lexical = [sum(math.log(1 + n / df[w]) for w in asked & held) for held in words]
    cosines = [0.0] * n
    if embed is not None:
        vectors = embed([message, *(line.matched for line in lines)])
        cosines = [round(float(v), 6) for v in vectors[1:] @ vectors[0]]
    relevant = [i for i in range(n) if lexical[i] > 0 or cosines[i] >= MEANING_FLOOR]
    if not relevant:
        return [], False
    # Ties: meaning decides, then a fact (the shorter, exact line) goes first.
    tie = {i: (-cosines[i], 0 if lines[i].kind == "fact" else 1, i) for i in relevant}
    by_words = sorted(
        (i for i in relevant if lexical[i] > 0), key=lambda i: (-lexical[i], tie[i])
    )
    by_meaning = sorted(relevant, key=lambda i: tie[i])
    fused = fuse_ranks([by_words, by_meaning] if embed is not None else [by_words])
    # A question someone asked earlier shares the words of the question asked
    # now, but does not answer it: statements go first, questions after them.
    asks = {i: _asks(lines[i]) for i in relevant}
    order = sorted(relevant, key=lambda i: (asks[i], -fused.get(i, 0.0), tie[i]))
    return [lines[i] for i in order], bool(by_words)


def memory_lines(context: ContextBundle) -> list[Line]:
    """Every live value, fact, excerpt, episode summary and non-assistant turn.

    Live lines are written as fact lines are and read as facts.
    """
    out: list[Line] = []
    for kind in ("live", "facts", "episodes", "window"):
        block = context.block(kind)
        if block is None:
            continue
        for raw in block.text.splitlines():
            stripped = unescape_data(raw.strip())
            text = re.sub(r"^(?:[-+*•])\s+", "", stripped)
            line = _parse(text, facts=kind in ("live", "facts"))
            if line is not None:
                out.append(line)
            elif (
                out
                and out[-1].kind == "episode"
                and stripped
                and not stripped.startswith(("-", "+", "<"))
            ):
                # An episode's summary may run over several lines.
                last = out[-1]
                out[-1] = Line(
                    "episode", f"{last.matched} {text}", f"{last.sentence} {text}"
                )
    return out


def _parse(text: str, *, facts: bool) -> Line | None:
    """A line as memory says it; only facts block lines are read as facts.

    Fact lines carry no tag that marks them, so a turn holding " = " elsewhere
    must not be read as one.
    """
    if facts:
        said = read_fact_line(text)
        return Line("fact", said.matched, said.sentence) if said else None
    turn = _TURN.match(text)
    if turn:
        who = turn["who"].strip()
        if who.lower() == _ASSISTANT:
            return None
        speaker = "you" if who.lower() == "user" else who
        return Line(
            "turn",
            turn["text"],
            f"{speaker[0].upper()}{speaker[1:]} said on {turn['date']}: "
            f"\u201c{turn['text']}\u201d",
        )
    episode = _EPISODE.match(text)
    if episode:
        return Line(
            "episode",
            episode["summary"],
            f"From {episode['span'].strip()}: {episode['summary']}",
        )
    return None


_NOTE = re.compile(r"\s*\[[^\]]*\]\s*$")


def _asks(line: Line) -> bool:
    """Whether a turn only asks: every sentence of it is a question."""
    if line.kind != "turn":
        return False
    text = _NOTE.sub("", line.matched).strip()
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    return bool(sentences) and all(s.rstrip().endswith("?") for s in sentences)


def _stop(text: str) -> str:
    """End with one full stop, not two."""
    return text if text.endswith((".", "!", "?", "\u201d")) else text + "."


def _shorten(sentence: str, limit: int) -> str:
    words = sentence.split()
    if len(words) <= limit:
        return sentence
    return " ".join(words[:limit]) + " ..."
