"""The offline default brain: rules and extractive summaries, no model.

It is what the app, the tests and the evals run when no endpoint is configured,
so it must be deterministic (same input, same output, byte for byte) and honest:
it never paraphrases, never invents a fact, and its replies say plainly that no
language model answered.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.brains.base import BrainResult, zero_usage
from memory_lab.brains.offline.answer import Embed, answer_reply
from memory_lab.brains.offline.parse.pipeline import pipeline, require_parser
from memory_lab.brains.offline.rules import extract_candidates
from memory_lab.brains.offline.summarizer import condense_text, summarize_extractive
from memory_lab.brains.status import NO_MODEL, ModelStatus
from memory_lab.config import DEFAULT_EXTRACTOR, Extractor, FactConfig
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import (
    ContextBundle,
    EpisodeDraft,
    Fact,
    FactCandidate,
    Message,
)

PREAMBLE = "[offline responder: no language model is configured]"
NOTHING = f"{PREAMBLE} Memory holds nothing that answers your message."


class RuleBasedBrain:
    """Summarises, extracts and answers without a language model.

    Args:
        extractor: `parse` reads facts from a dependency parse (with the rules
            for instructions, constraints and corrections); `rules` is the
            pattern table alone, kept for ablations; `none` reads no facts, the
            ablation that measures what facts add over turns alone.
        counter: Measures summary budgets; the process-wide tiktoken counter when
            None, so budgets match what a model would be charged.
        categories: The fact vocabulary; candidates outside it are dropped, so a
            researcher can switch a category off by removing it from the config.
        embed: Sentence vectors for matching a reply's memory lines by meaning
            (`answer.answer_reply`); without it replies match words only.

    Raises:
        ParserMissingError: with `parse`, when spaCy or its English pipeline is
            not installed; extraction runs in the background, where it would
            otherwise fail on every job.
    """

    name = "rule"

    def __init__(
        self,
        counter: TokenCounter | None = None,
        categories: FactConfig | None = None,
        extractor: Extractor = DEFAULT_EXTRACTOR,
        embed: Embed | None = None,
    ) -> None:
        self._counter = counter if counter is not None else default_counter()
        self._embed = embed
        self._facts = categories if categories is not None else FactConfig()
        if extractor == "parse":
            require_parser()
        self._extractor = extractor

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> BrainResult[EpisodeDraft]:
        """An extractive record of `messages` whose summary fits `max_tokens`."""
        return BrainResult(
            summarize_extractive(messages, max_tokens=max_tokens, counter=self._counter)
        )

    def condense(self, text: str, *, max_tokens: int) -> BrainResult[str]:
        """`text` cut to its most informative sentences within `max_tokens`."""
        return BrainResult(
            condense_text(text, max_tokens=max_tokens, counter=self._counter)
        )

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> BrainResult[list[FactCandidate]]:
        """Facts the turns state, limited to the configured categories.

        With `none`, nothing: a memory command's statement then finds no slot,
        and the command keeps it as a note in the user's words.
        """
        categories = self._facts.categories
        if self._extractor == "none":
            return BrainResult([])
        if self._extractor == "parse":
            # spaCy is imported whole under the parser's load lock before the
            # modules that import parts of it: a question's thread may be
            # loading it at the same moment, and a package imported from two
            # threads at once can fail half-made ("KeyError: 'spacy'").
            pipeline()
            from memory_lab.brains.offline.parse.merge import merged_candidates

            found = merged_candidates(messages, prior=known)
        else:
            found = extract_candidates(messages, prior=known)
        return BrainResult([c for c in found if c.category in categories])

    def title(self, first_message: str) -> str | None:
        """No title: without a model the chat keeps its first question as one."""
        return None

    def respond(self, question: Message, context: ContextBundle) -> BrainResult[str]:
        """The memory line that best answers `question`, said as a sentence.

        Without a model nothing is composed: the reply quotes the line the
        context holds (a fact, a dated turn, an episode) with its source, then
        a few related lines, and says so when memory holds nothing relevant.
        The reply is marked as restated whole, so memory is not built again
        from its own lines.
        """
        found = answer_reply(question.content, context, self._embed)
        reply = NOTHING if found is None else f"{PREAMBLE} {found}"
        # The reply is a function of the context alone, so all of it is memory
        # read back, even saying that memory holds nothing.
        return BrainResult(reply, restated=((0, len(reply)),))

    def usage(self) -> dict[str, int]:
        """All zero: no model is called, no fact is proposed or refused."""
        return zero_usage()

    def status(self) -> ModelStatus:
        """No model, so nothing to wait on and nothing to fail over from."""
        return NO_MODEL
