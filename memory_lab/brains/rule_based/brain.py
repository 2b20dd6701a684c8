"""The offline default brain: rules and extractive summaries, no model.

It is what the app, the tests and the evals run when no endpoint is configured,
so it must be deterministic (same input, same output, byte for byte) and honest:
it never paraphrases, never invents a fact, and its replies say plainly that no
language model answered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_lab.brains.rule_based.extraction import extract_candidates
from memory_lab.brains.rule_based.summarizer import condense_text, summarize_extractive
from memory_lab.config import FactConfig
from memory_lab.text import unescape_data
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import (
    ContextBlock,
    ContextBundle,
    EpisodeDraft,
    Fact,
    FactCandidate,
    MemoryEvent,
    Message,
)

_FACT_WORDS = 45
_EPISODE_WORDS = 35
_FACT_ITEM_WORDS = 14
_EPISODE_ITEM_WORDS = 18
_PREAMBLE = (
    "[offline responder] No language model is configured, so here is what memory "
    "holds for your message."
)
# Block framing lines (delimiters, headers) are not memory items.
_FRAME = re.compile(r"^(?:\[.*\]|<[^>]*>|#+\s.*|```.*|[^:]{1,40}:|-{3,}|={3,})$")
_BULLET = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def _items(block: ContextBlock | None) -> list[str]:
    """The memory items a context block lists, without framing or markup escapes.

    When the block uses bullets, unbulleted lines continue the item above (an
    episode's summary spans several lines); otherwise every line is an item.
    """
    if block is None:
        return []
    lines = [unescape_data(raw.strip()) for raw in block.text.splitlines()]
    lines = [line for line in lines if line and not _FRAME.match(line)]
    bulleted = any(_BULLET.match(line) for line in lines)
    out: list[str] = []
    for line in lines:
        if bulleted and out and not _BULLET.match(line):
            out[-1] += " " + line
        else:
            out.append(_BULLET.sub("", line))
    return out


def _listing(items: Sequence[str], *, item_words: int, total_words: int) -> str:
    """Items shortened and joined until the word allowance is spent."""
    shown: list[str] = []
    used = 0
    for item in items:
        words = item.split()
        short = " ".join(words[:item_words]) + (
            " ..." if len(words) > item_words else ""
        )
        cost = min(len(words), item_words)
        if shown and used + cost > total_words:
            break
        shown.append(short)
        used += cost
    if not shown:
        return "none"
    hidden = len(items) - len(shown)
    more = f" (+{hidden} more)" if hidden else ""
    return "; ".join(shown) + more


def _stop(text: str) -> str:
    """End a listing with one full stop, not two."""
    return text if text.endswith((".", "!", "?")) else text + "."


class RuleBasedBrain:
    """Summarises, extracts and answers without a language model.

    Args:
        counter: Measures summary budgets; the process-wide tiktoken counter when
            None, so budgets match what a model would be charged.
        categories: The fact vocabulary; candidates outside it are dropped, so a
            researcher can switch a category off by removing it from the config.
    """

    name = "rule-based"

    def __init__(
        self,
        counter: TokenCounter | None = None,
        categories: FactConfig | None = None,
    ) -> None:
        self._counter = counter if counter is not None else default_counter()
        self._facts = categories if categories is not None else FactConfig()

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> EpisodeDraft:
        """An extractive record of `messages` whose summary fits `max_tokens`."""
        return summarize_extractive(
            messages, max_tokens=max_tokens, counter=self._counter
        )

    def condense(self, text: str, *, max_tokens: int) -> str:
        """`text` cut to its most informative sentences within `max_tokens`."""
        return condense_text(text, max_tokens=max_tokens, counter=self._counter)

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> list[FactCandidate]:
        """Facts the turns state, limited to the configured categories."""
        categories = self._facts.categories
        found = extract_candidates(messages, prior=known)
        return [c for c in found if c.category in categories]

    def respond(self, question: Message, context: ContextBundle) -> str:
        """A plain listing of the memory that was assembled for `question`.

        Without a model there is no answer to give; showing which facts and
        episodes were retrieved is still useful for inspecting the memory, and
        saying so avoids passing a listing off as an answer.
        """
        facts = _listing(
            _items(context.block("facts")),
            item_words=_FACT_ITEM_WORDS,
            total_words=_FACT_WORDS,
        )
        episodes = _listing(
            _items(context.block("episodes")),
            item_words=_EPISODE_ITEM_WORDS,
            total_words=_EPISODE_WORDS,
        )
        return (
            f"{_PREAMBLE} Facts used: {_stop(facts)} Episodes used: {_stop(episodes)}"
        )

    def drain_events(self) -> list[MemoryEvent]:
        """Always empty: this brain has nothing to fall back from."""
        return []
