"""The LLM brain: any OpenAI-compatible endpoint, with the rule-based brain behind it.

An endpoint can be down, slow, or answer with broken or wrongly shaped JSON; a
local model often does. Memory must keep working, so when a call yields nothing
usable the same work goes to the fallback brain, and a `brain_fallback` note says
so. A failing endpoint costs one retry budget, after which the circuit breaker
sends calls straight to the fallback until it has rested: ingestion never stops
and never crawls. Replies and background memory work have a breaker each, so a
summary that overruns on a small local model never costs a reply its model;
`status()` shows both lanes.

The model's output is not trusted either. Extracted facts are kept only when the
cited turn is one the user spoke and it contains the value, so neither an invented
value nor an instruction smuggled into a turn or into stored memory can write a
fact. Every refusal is a `fact_rejected` note and is counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from memory_lab.brains.base import (
    Brain,
    BrainNote,
    BrainResult,
    noted,
    zero_usage,
)
from memory_lab.brains.llm.breaker import CircuitBreaker
from memory_lab.brains.llm.endpoint import CallFailed, ModelEndpoint, UnusableReply
from memory_lab.brains.llm.extraction import (
    facts_in_play,
    readable_turns,
    vet_facts,
)
from memory_lab.brains.llm.fallback_reply import (
    FAILED_PREAMBLE,
    NOTHING_HELD,
    read_back,
)
from memory_lab.brains.llm.lanes import lane_status
from memory_lab.brains.llm.titles import TITLE_CHARS, TITLE_MAX_TOKENS, clean_title
from memory_lab.brains.llm.tool_loop import ToolUse, reply_with_tools
from memory_lab.brains.status import ModelStatus, Role
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.config import FactConfig, LLMSettings
from memory_lab.llm_client.client import ChatClient, LLMUsage
from memory_lab.llm_client.response_cache import ResponseCache
from memory_lab.prompts import chat_title as title_prompt
from memory_lab.prompts import condense as condense_prompt
from memory_lab.prompts import extract as extract_prompt
from memory_lab.prompts import respond as respond_prompt
from memory_lab.prompts import respond_tools as tools_prompt
from memory_lab.prompts import summarize as summarize_prompt
from memory_lab.prompts.condense import CondenseResponse
from memory_lab.prompts.extract import ExtractionResponse
from memory_lab.prompts.summarize import SummaryResponse
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import (
    ContextBundle,
    EpisodeDraft,
    Fact,
    FactCandidate,
    Message,
)

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

__all__ = [
    "FAILED_PREAMBLE",
    "NOTHING_HELD",
    "TITLE_CHARS",
    "TITLE_MAX_TOKENS",
    "OpenAICompatBrain",
    "clean_title",
]

T = TypeVar("T")
S = TypeVar("S", SummaryResponse, CondenseResponse)

# Room for the JSON fields around a summary.
_SUMMARY_OVERHEAD_TOKENS = 200


class OpenAICompatBrain:
    """Summarises, extracts and answers through an OpenAI-compatible chat endpoint.

    Args:
        settings: Endpoint, models, retry budget, breaker, cache and
            structured-output dialect.
        fallback: The brain that takes over when the endpoint fails; normally
            `RuleBasedBrain`. Its notes are passed on after ours.
        counter: Token counter that holds summaries to their budget.
        facts: Fact vocabulary; proposals outside it are refused.
        read_facts: False for the `none` extractor: no turn is sent to be read
            for facts, so an ablation of facts holds with a model as the brain.
        monotonic: Time source of the circuit breaker (tests inject one).
    """

    def __init__(
        self,
        settings: LLMSettings,
        fallback: Brain,
        counter: TokenCounter | None = None,
        *,
        facts: FactConfig | None = None,
        read_facts: bool = True,
        monotonic: Callable[[], float] | None = None,
    ) -> None:
        self.settings = settings
        self._read_facts = read_facts
        self.fallback = fallback
        self._counter = counter or default_counter()
        self._categories = tuple((facts or FactConfig()).categories)
        self._llm_usage = LLMUsage()
        cache = ResponseCache(settings.cache_path) if settings.use_cache else None
        # One breaker per lane and endpoint: a summary that times out on a slow
        # local model must not send the next reply to the fallback.
        breakers: dict[tuple[Role, str], CircuitBreaker] = {}

        def endpoint(role: Role, base_url: str, model: str) -> ModelEndpoint:
            breaker = breakers.setdefault(
                (role, base_url.rstrip("/")),
                CircuitBreaker(
                    settings.breaker_failures,
                    settings.cooldown_for(role),
                    **({"monotonic": monotonic} if monotonic else {}),
                ),
            )
            client = ChatClient(
                base_url,
                model,
                api_key=settings.api_key.get_secret_value(),
                timeout_s=settings.timeout_for(role),
                max_attempts=settings.max_attempts,
                backoff_s=settings.backoff_s,
                max_backoff_s=settings.max_backoff_s,
                cache=cache,
                use_cache=settings.use_cache,
                max_connections=settings.max_connections,
                usage=self._llm_usage,
            )
            return ModelEndpoint(
                client,
                breaker,
                structured_output=settings.structured_output,
                output_attempts=settings.output_attempts,
                cache=cache,
            )

        #: Replies: the only lane a person waits on.
        self.responder = endpoint("reply", settings.base_url, settings.model)
        #: Summaries and condensing, in the engine's background worker.
        self.summarizer = endpoint("background", settings.base_url, settings.model)
        extract_url = settings.extract_base_url or settings.base_url
        extract_model = settings.extract_model or settings.model
        same = (extract_url, extract_model) == (settings.base_url, settings.model)
        self.extractor = (
            self.summarizer
            if same
            else endpoint("background", extract_url, extract_model)
        )
        self._lock = named_lock("llm.brain")  # guards the counts and last report
        self._counts = {
            "facts_proposed": 0,
            "facts_rejected": 0,
            "fallbacks": 0,
            "tool_calls": 0,
            "tool_errors": 0,
            "tool_round_limits": 0,
        }

    @property
    def name(self) -> str:
        """`llm:<model>`, the responder's model id."""
        return f"llm:{self.settings.model}"

    # -- Brain protocol ------------------------------------------------------------

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> BrainResult[EpisodeDraft]:
        """A compressed record of `messages`; the summary is held to `max_tokens`."""
        if not messages:
            # Nothing for a model to read; the fallback defines the empty record.
            return self.fallback.summarize(messages, max_tokens=max_tokens)
        reply, fell_back = self._ask_summary(
            "summarize",
            summarize_prompt.build(messages, max_tokens=max_tokens),
            SummaryResponse,
            max_tokens=max_tokens,
            refs=[m.id for m in messages],
            fallback=lambda: self.fallback.summarize(messages, max_tokens=max_tokens),
        )
        if fell_back is not None:
            return fell_back
        assert reply is not None  # _ask_summary gives a reply or a fallback
        return BrainResult(
            EpisodeDraft(
                summary=self._fit(reply.summary.strip(), max_tokens),
                intent=reply.intent.strip(),
                key_facts=_clean(reply.key_facts),
                decisions=_clean(reply.decisions),
                open_questions=_clean(reply.open_questions),
            )
        )

    def condense(self, text: str, *, max_tokens: int) -> BrainResult[str]:
        """`text` shortened to `max_tokens`; text that already fits is kept as is."""
        if self._counter.count(text) <= max_tokens:
            return BrainResult(text)
        reply, fell_back = self._ask_summary(
            "condense",
            condense_prompt.build(text, max_tokens=max_tokens),
            CondenseResponse,
            max_tokens=max_tokens,
            refs=[],
            fallback=lambda: self.fallback.condense(text, max_tokens=max_tokens),
        )
        if fell_back is not None:
            return fell_back
        assert reply is not None  # _ask_summary gives a reply or a fallback
        return BrainResult(self._fit(reply.summary.strip(), max_tokens))

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> BrainResult[list[FactCandidate]]:
        """Facts the user's turns state, each grounded in the turn it cites.

        Proposals their cited turn does not back are refused with a
        `fact_rejected` note. Without `read_facts`, nothing, and no call.
        """
        if not self._read_facts:
            return BrainResult([])
        turns = readable_turns(
            messages, include_assistant=self.settings.extract_from_assistant
        )
        if not turns:
            return BrainResult([])
        shown = facts_in_play(known, turns, self.settings.known_facts_shown)
        prompt = extract_prompt.build(turns, categories=self._categories, known=shown)
        try:
            reply = self.extractor.ask_json(
                prompt, ExtractionResponse, max_tokens=self.settings.extract_max_tokens
            )
        except CallFailed as failure:
            return self._fall_back(
                "extract",
                failure,
                [m.id for m in turns],
                lambda: self.fallback.extract(messages, known=known),
            )
        vetting = vet_facts(
            reply.facts,
            turns,
            categories=self._categories,
            known=known,
            all_ids={m.id for m in messages},
        )
        self._add(facts_proposed=vetting.proposed, facts_rejected=len(vetting.notes))
        return BrainResult(vetting.kept, vetting.notes)

    def respond(self, question: Message, context: ContextBundle) -> BrainResult[str]:
        """The model's reply; when the endpoint fails, what memory holds, said so."""
        try:
            text = self.responder.ask_text(
                respond_prompt.build(question, context),
                max_tokens=self.settings.respond_max_tokens,
            )
        except CallFailed as failure:
            return self._fall_back(
                "respond",
                failure,
                [question.id],
                lambda: read_back(question, context),
                used="the memory line that best answers",
            )
        return BrainResult(text)

    @property
    def agentic_memory(self) -> bool:
        """Whether replies are offered the memory tools (`LLMSettings`)."""
        return self.settings.agentic_memory

    def respond_with_tools(
        self, question: Message, context: ContextBundle, tools: Sequence[BaseTool]
    ) -> BrainResult[str]:
        """The model's reply, for which it may call `tools` (agentic memory).

        Every round is one request on the reply lane: the breaker, timeout,
        usage counters and response cache apply to each. The cache key holds
        the whole conversation so far, tool specs and results included, so a
        cached round is replayed only for the same memory and the same calls;
        calls in a replayed round are carried out again, as the model asked.
        Each call becomes a `tool_called` or `tool_failed` note. When the
        endpoint fails mid-way, the calls already carried out stay done and
        the reply is the fallback's, said so.
        """
        uses: list[ToolUse] = []

        def ask(sent, specs, choice):
            return self.responder.ask_with_tools(
                sent,
                specs,
                max_tokens=self.settings.respond_max_tokens,
                tool_choice=choice,
            )

        try:
            reply = reply_with_tools(
                ask,
                tools_prompt.build(question, context),
                tools,
                max_rounds=self.settings.tool_rounds,
                uses=uses,
            )
        except CallFailed as failure:
            notes = self._tool_notes(question, uses)
            fell = self._fall_back(
                "respond",
                failure,
                [question.id],
                lambda: read_back(question, context),
                used="the memory line that best answers",
            )
            return noted(fell, *notes)
        notes = self._tool_notes(question, list(reply.uses))
        self._add(tool_round_limits=int(reply.hit_limit))
        if not reply.text:
            why = "tool round limit reached" if reply.hit_limit else "empty reply"
            fell = self._fall_back(
                "respond",
                CallFailed(why),
                [question.id],
                lambda: read_back(question, context),
                used="the memory line that best answers",
            )
            return noted(fell, *notes)
        return BrainResult(reply.text, notes)

    def _tool_notes(
        self, question: Message, uses: Sequence[ToolUse]
    ) -> tuple[BrainNote, ...]:
        failed = sum(not u.ok for u in uses)
        self._add(tool_calls=len(uses), tool_errors=failed)
        return tuple(
            BrainNote(
                "tool_called" if use.ok else "tool_failed",
                use.line(),
                (question.id, f"call {i}"),
            )
            for i, use in enumerate(uses, 1)
        )

    def title(self, first_message: str) -> str | None:
        """A short title for a chat from its first message; None when none came.

        One plain call on the reply lane: a failing endpoint gives no title
        (the chat keeps the one its first message gave it), never an error.
        """
        try:
            text = self.responder.ask_text(
                title_prompt.build(first_message), max_tokens=TITLE_MAX_TOKENS
            )
        except CallFailed:
            return None
        return clean_title(text)

    def usage(self) -> dict[str, int]:
        """Requests, tokens and cache hits (all models), facts and fallbacks.

        Beyond `USAGE_FIELDS`: `failures`, `retries` and `gave_up` of requests,
        `unusable_replies` (answers that could not be parsed or checked),
        `breaker_opened` (times a lane set the endpoint aside, over both lanes),
        and with agentic memory `tool_calls`, `tool_errors` (calls answered
        with an error) and `tool_round_limits` (replies that ran out of rounds).
        """
        llm = self._llm_usage.snapshot()
        with self._lock:
            counts = dict(self._counts)
        endpoints = self._endpoints(self.responder, self.summarizer, self.extractor)
        breakers = {id(e.breaker): e.breaker for e in endpoints}.values()
        return {
            **zero_usage(),
            **llm,
            **counts,
            "unusable_replies": sum(e.unusable_replies for e in endpoints),
            "breaker_opened": sum(b.times_opened for b in breakers),
        }

    def status(self) -> ModelStatus:
        """Each lane's state now: ready, busy, or failing over to the fallback."""
        return ModelStatus(
            self.settings.model,
            (
                lane_status("reply", self._endpoints(self.responder)),
                lane_status(
                    "background", self._endpoints(self.summarizer, self.extractor)
                ),
            ),
        )

    @staticmethod
    def _endpoints(*endpoints: ModelEndpoint) -> list[ModelEndpoint]:
        """Each endpoint once: the extractor is often the summarizer itself."""
        return list({id(e): e for e in endpoints}.values())

    # -- fallback ------------------------------------------------------------------

    def _ask_summary(
        self,
        operation: str,
        prompt: list[dict[str, str]],
        schema: type[S],
        *,
        max_tokens: int,
        refs: list[str],
        fallback: Callable[[], BrainResult[T]],
    ) -> tuple[S, None] | tuple[None, BrainResult[T]]:
        """A summary-shaped reply, or the fallback's result when the model gave none.

        The reply may run to twice the summary's budget plus room for its other
        fields; `_fit` holds the summary itself to `max_tokens` afterwards.
        """
        try:
            reply = self.summarizer.ask_json(
                prompt,
                schema,
                max_tokens=2 * max_tokens + _SUMMARY_OVERHEAD_TOKENS,
                check=_check_summary,
            )
        except CallFailed as failure:
            return None, self._fall_back(operation, failure, refs, fallback)
        return reply, None

    def _fall_back(
        self,
        operation: str,
        failure: CallFailed,
        refs: list[str],
        run: Callable[[], BrainResult[T]],
        *,
        used: str | None = None,
    ) -> BrainResult[T]:
        self._add(fallbacks=1)
        note = BrainNote(
            "brain_fallback",
            f"{operation}: {self.name} {'skipped' if failure.skipped else 'failed'} "
            f"({failure.reason}); used {used or self.fallback.name}",
            tuple(refs),
        )
        return noted(run(), note)

    def _add(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                self._counts[name] += delta

    def _fit(self, text: str, max_tokens: int) -> str:
        """`text` cut to `max_tokens` at a word boundary; models overshoot."""
        if self._counter.count(text) <= max_tokens:
            return text
        words = text.split()
        lo, hi = 0, len(words)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._counter.count(" ".join(words[:mid])) <= max_tokens:
                lo = mid
            else:
                hi = mid - 1
        return " ".join(words[:lo])


def _check_summary(reply: SummaryResponse | CondenseResponse) -> None:
    if not reply.summary.strip():
        raise UnusableReply("empty summary")


def _clean(items: Sequence[str]) -> list[str]:
    return [s.strip() for s in items if s.strip()]
