"""What a forgotten fact keeps out of every context: its turns and its words.

`forget` ends a fact but keeps the turns it was read from in the transcript, for
audit until a purge. Left alone, the retrieval over turns, the summaries and the
window would go on quoting what the user asked memory to drop. So each context
build reads the tenant's forgotten facts once (`withheld_for`) and filters what
it shows, by one rule per kind of text:

- Turns (the window's verbatim tail and the excerpts ranked for a question) are
  shown without the sentences that quote a forgotten value or give a forget
  command (which repeats what it drops); the rest of the turn stays. A turn a
  forgotten fact was read from in which no sentence quotes the value (the brain
  stored it in other words) is left out whole: which sentence stated it is
  unknown. So a turn that stated two facts, one forgotten, keeps the sentences
  of the other; one sentence stating both goes, and the fact still held answers
  from the facts tier.
- Summaries (episodes, days and weeks, the running summary) are compressed:
  a sentence no longer says which turn it came from, so the words decide, as
  for turns. A summary written before the forget is filtered the same way as
  one written after; an episode left with nothing is not shown.
- A value an active fact holds (said again since, or another slot's value) is
  not withheld by its words, only through the forgotten fact's turns.
- A forget command in the window or the question counts before the worker
  carries it out (the reply to "forget that I live in Uppsala" is made before
  that, often before the fact is even read): active facts whose value it
  quotes are left out with their turns and words, and so is a sentence said
  before it that quotes what it names ("I live in Uppsala with my partner").

A sentence quotes a value when it holds the value's content words
(`text.quotes_value`: all of a short value's, two thirds of a longer one's).
The offline summaries are extractive, whole sentences of the turns, so this
finds them; what an LLM's summary says in other words ("moved up north") is
not caught, and only a purge removes it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory_lab.facts.commands import sentence_command, split_sentences
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.reconciliation import normalise_value
from memory_lab.text import content_words, quotes_value, stored_content_words
from memory_lab.types import Episode, Fact, Message

_FORGET = re.compile(r"\bforget\b", re.I)
"""Cheap test first: only a sentence with the word can give the command."""
_DATED = re.compile(r"^\[[^\]]*\]\s*")
"""The running summary's `[date]` line prefix, kept with the sentences after it."""


@dataclass(frozen=True)
class Withheld:
    """The turns and words a context must not show, read once per build."""

    turns: frozenset[str] = frozenset()
    """Ids of the turns forgotten facts were read from."""
    values: tuple[frozenset[str], ...] = ()
    """Content words of each forgotten value no active fact holds."""
    requests: tuple[tuple[frozenset[str], int | None], ...] = ()
    """Content words of what each forget command in the window or the question
    names, with its turn's position (None: the question, after every turn)."""
    facts: frozenset[str] = frozenset()
    """Active facts such a command names, left out until the worker forgets them."""

    @functools.cached_property
    def _words(self) -> frozenset[str]:
        """Every word a withheld value or request has: a text with none is kept."""
        return frozenset().union(*self.values, *(n for n, _ in self.requests))

    def _may_withhold(self, text: str) -> bool:
        """A cheap first look, so the usual text is not split into sentences."""
        return bool(_FORGET.search(text)) or bool(
            self._words and self._words & stored_content_words(text)
        )

    def quotes(self, sentence: str) -> bool:
        """Whether a summary's `sentence` quotes a forgotten value or asks to forget.

        A summary is of turns older than the window, so every request counts.
        """
        return self._quotes_value(sentence) or _gives_forget(_DATED.sub("", sentence))

    def _quotes_value(self, sentence: str, seq: int | None = None) -> bool:
        """Whether it holds a forgotten value, or what a later request names."""
        if not self.values and not self.requests:
            return False
        words = content_words(sentence)
        return any(quotes_value(words, v) for v in self.values) or any(
            quotes_value(words, named) and (seq is None or after is None or seq < after)
            for named, after in self.requests
        )

    def text(self, text: str) -> str:
        """`text` without its withheld sentences, line by line."""
        if not text or not self._may_withhold(text):
            return text
        lines: list[str] = []
        date = ""  # a dropped line's date goes to the next line of its entry
        for line in text.split("\n"):
            prefix = _DATED.match(line)
            if prefix:
                date = ""
            kept = self._kept_line(line)
            if not kept:
                date = date or (prefix.group() if prefix else "")
                continue
            lines.append(kept if prefix else date + kept)
            date = ""
        return "\n".join(lines)

    def _kept_line(self, line: str) -> str:
        prefix = _DATED.match(line)
        head = prefix.group() if prefix else ""
        sentences = split_sentences(line[len(head) :])
        kept = [s for s in sentences if not self.quotes(s)]
        if len(kept) == len(sentences):
            return line
        return head + " ".join(kept) if kept else ""

    def message(self, m: Message) -> Message | None:
        """The turn as a context may show it, or None when nothing of it may.

        Only the user gives commands, so only a user's sentence is withheld
        for asking to forget.
        """
        source = m.id in self.turns
        if not source and not self._may_withhold(m.content):
            return m
        asks = m.role == "user" and bool(_FORGET.search(m.content))
        sentences = split_sentences(m.content)
        if not sentences:
            return m
        kept = [
            s
            for s in sentences
            if not self._quotes_value(s, m.seq) and not (asks and _gives_forget(s))
        ]
        if not kept or (source and len(kept) == len(sentences)):
            return None
        if len(kept) == len(sentences):
            return m
        # The spans marked restated were spans of the whole text.
        return m.model_copy(update={"content": " ".join(kept), "restated": []})

    def held(self, facts: Iterable[Fact]) -> list[Fact]:
        """The facts a context may show: not those a pending command forgets."""
        return [f for f in facts if f.id not in self.facts]

    def messages(self, turns: Iterable[Message]) -> list[Message]:
        """The turns a context may show, each as it may show it, in order."""
        return [kept for m in turns if (kept := self.message(m)) is not None]

    def episode(self, ep: Episode) -> Episode | None:
        """An episode (or day or week) without its withheld sentences.

        None when its summary and lists are left with nothing.
        """
        summary = self.text(ep.summary)
        lists = {
            name: [kept for item in getattr(ep, name) if (kept := self.text(item))]
            for name in ("key_facts", "decisions", "open_questions")
        }
        if not summary and not lists["decisions"] and not lists["open_questions"]:
            return None
        if summary == ep.summary and all(
            lists[name] == getattr(ep, name) for name in lists
        ):
            return ep
        return ep.model_copy(update={"summary": summary, **lists})

    def episodes(
        self, hits: Sequence[tuple[Episode, float]]
    ) -> list[tuple[Episode, float]]:
        """Episode hits as a context may show them, in order."""
        return [
            (kept, score)
            for ep, score in hits
            if (kept := self.episode(ep)) is not None
        ]


def withheld_for(
    facts: FactMemory,
    tenant: str,
    said: Sequence[Message],
    query: str = "",
    *,
    now: datetime,
) -> Withheld:
    """What a context for `tenant` must leave out, read once.

    `said` are the turns the context may show verbatim (the window) and `query`
    the question (not stored yet when a tool asks): a forget command among
    them counts before the worker carries it out.
    """
    forgotten = facts.store.rows(tenant, status="forgotten")
    active = facts.active(tenant)
    asked = _forget_requests(said, query, now)
    pending = [f for f in active if _requested(f, asked)]
    ended = [*forgotten, *pending]
    requests = tuple(
        (words, seq)
        for text, _, seq in asked
        if (words := frozenset(content_words(text)))
    )
    if not ended and not requests:
        return Withheld()
    gone = {f.id for f in pending}
    held = {normalise_value(f.value) for f in active if f.id not in gone}
    values = {
        words
        for f in ended
        if normalise_value(f.value) not in held
        and (words := frozenset(content_words(f.value)))
    }
    turns = frozenset(t for f in ended for t in f.turn_ids)
    return Withheld(turns, tuple(sorted(values, key=sorted)), requests, frozenset(gone))


def _gives_forget(sentence: str) -> bool:
    if not _FORGET.search(sentence):
        return False
    found = sentence_command(sentence)
    return found is not None and found[0] == "forget"


def _forget_requests(
    said: Sequence[Message], query: str, now: datetime
) -> list[tuple[str, datetime, int | None]]:
    """What each forget command in the turns or the question names, when, where."""
    texts: list[tuple[str, datetime, int | None]] = [
        (m.content, m.timestamp, m.seq) for m in said if m.role == "user"
    ]
    texts.append((query, now, None))
    out = []
    for text, when, seq in texts:
        if not _FORGET.search(text):
            continue
        for sentence in split_sentences(text):
            found = sentence_command(sentence)
            if found is not None and found[0] == "forget":
                out.append((found[1], when, seq))
    return out


def _requested(fact: Fact, asked: Sequence[tuple[str, datetime, int | None]]) -> bool:
    """Whether a forget command quotes this fact's value after it was stored."""
    value = frozenset(content_words(fact.value))
    return any(
        quotes_value(content_words(said), value) and fact.created_at <= when
        for said, when, _ in asked
    )


def shown_window(
    facts: FactMemory, tenant: str, summary: str, tail: Sequence[Message]
) -> tuple[str, list[Message]]:
    """A session window as a model may see it, without what forgets withhold.

    The running summary and the tail lose the sentences forgotten facts (or a
    forget command in the tail) withhold; for the ways a window reaches a model
    outside a context build, such as a chat history handed to an agent.
    """
    latest = max((m.timestamp for m in tail), default=None)
    withheld = withheld_for(facts, tenant, tail, now=latest or facts.clock.now())
    return withheld.text(summary), withheld.messages(tail)
