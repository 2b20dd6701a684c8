"""The LLM brain: any OpenAI-compatible endpoint, with the rule-based brain behind it.

An endpoint can be down, slow, or answer with broken or wrongly shaped JSON; a
local model often does. Memory must keep working, so every operation makes a
bounded number of attempts and then hands the same call to the fallback brain,
recording a `brain_fallback` event so the switch is visible.

The model's output is not trusted either. Extracted facts are kept only when the
cited turn actually contains the value, so neither an invented value nor an
instruction smuggled into a turn or into stored memory can write a fact.
"""

from __future__ import annotations

import html
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import httpx
import openai
from langchain_core.messages import AIMessage, BaseMessage
from langchain_openai import ChatOpenAI
from langchain_openai.chat_models.base import OpenAIRefusalError
from pydantic import BaseModel

from memory_lab.brains.base import Brain
from memory_lab.clock import Clock, SystemClock
from memory_lab.config import FactConfig, LLMSettings
from memory_lab.prompts import condense as condense_prompt
from memory_lab.prompts import extract as extract_prompt
from memory_lab.prompts import respond as respond_prompt
from memory_lab.prompts import summarize as summarize_prompt
from memory_lab.prompts.condense import CondenseResponse
from memory_lab.prompts.extract import ExtractedFact, ExtractionResponse
from memory_lab.prompts.summarize import SummaryResponse
from memory_lab.tokens import TokenCounter, default_counter, install_offline_encodings
from memory_lab.types import (
    ContextBundle,
    EpisodeDraft,
    Fact,
    FactCandidate,
    MemoryEvent,
    Message,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

SYSTEM_TENANT = "system"

# What a failed attempt can raise. Anything else is a bug in this code and should
# surface, not be papered over by the fallback.
RECOVERABLE: tuple[type[BaseException], ...] = (
    openai.OpenAIError,  # HTTP status, timeout, connection, length/content filter
    OpenAIRefusalError,
    httpx.HTTPError,
    ValueError,  # malformed JSON, pydantic validation, output parser errors
)

# Client errors that another identical request will not fix.
_PERMANENT_STATUS = frozenset({400, 401, 403, 404, 422})

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


class BadOutputError(ValueError):
    """The endpoint answered, but not with something this brain can use."""


class AttemptsExhaustedError(Exception):
    """Every attempt at one operation failed; carries the last error."""

    def __init__(self, operation: str, attempts: int, last: BaseException) -> None:
        super().__init__(f"{operation} failed after {attempts} attempt(s): {last!r}")
        self.operation = operation
        self.attempts = attempts
        self.last = last


class OpenAICompatBrain:
    """Summarises, extracts and answers through an OpenAI-compatible chat endpoint.

    Args:
        settings: Endpoint, model, timeout, retry budget and structured-output
            method (`json_schema`, `json_mode` or `function_calling`; local servers
            differ in which they support).
        fallback: The brain that takes over when the endpoint fails; normally
            `RuleBasedBrain`. Its events are passed through `drain_events`.
        counter: Token counter used to hold summaries to their budget.
        clock: Time source for event timestamps.
        facts: Fact vocabulary; extracted facts outside it are rejected.
        backoff_s: Pause before the first retry, doubled for each later one.
    """

    def __init__(
        self,
        settings: LLMSettings,
        fallback: Brain,
        counter: TokenCounter | None = None,
        clock: Clock | None = None,
        *,
        facts: FactConfig | None = None,
        backoff_s: float = 0.0,
    ) -> None:
        # langchain-openai counts tokens with tiktoken, which would otherwise try
        # to download its BPE files on first use.
        install_offline_encodings()
        self.settings = settings
        self.fallback = fallback
        self.name = f"llm:{settings.model}"
        self._counter = counter or default_counter()
        self._clock = clock or SystemClock()
        self._categories = tuple((facts or FactConfig()).categories)
        self._backoff_s = backoff_s
        self._chat = ChatOpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key,
            model=settings.model,
            timeout=settings.timeout_s,
            # Retries are ours: bounded, counted and followed by the fallback.
            max_retries=0,
            temperature=0,
        )
        self._structured = {
            model: self._chat.with_structured_output(
                _wire_schema(model, settings.structured_method),
                method=settings.structured_method,
                include_raw=True,
            )
            for model in (SummaryResponse, ExtractionResponse, CondenseResponse)
        }
        self.stats: dict[str, int] = {
            "calls": 0,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "failures": 0,
            "fallbacks": 0,
        }
        self._events: list[MemoryEvent] = []
        self._lock = threading.Lock()

    # -- Brain protocol ------------------------------------------------------------

    def summarize(
        self, messages: Sequence[Message], *, max_tokens: int
    ) -> EpisodeDraft:
        """A compressed record of `messages`; the summary is held to `max_tokens`."""
        if not messages:
            # Nothing for a model to read; the fallback defines the empty record.
            return self._delegate(
                lambda: self.fallback.summarize(messages, max_tokens=max_tokens)
            )
        prompt = summarize_prompt.build(messages, max_tokens=max_tokens)
        answered, reply = self._answer_or_fall_back(
            "summarize",
            lambda: self._ask(prompt, SummaryResponse, _check_summary),
            _tenant_of(messages),
            [m.id for m in messages],
            lambda: self.fallback.summarize(messages, max_tokens=max_tokens),
        )
        if not answered:
            return reply
        return EpisodeDraft(
            summary=self._fit(reply.summary.strip(), max_tokens),
            intent=reply.intent.strip(),
            key_facts=_clean(reply.key_facts),
            decisions=_clean(reply.decisions),
            open_questions=_clean(reply.open_questions),
        )

    def condense(self, text: str, *, max_tokens: int) -> str:
        """`text` shortened to `max_tokens`; text that already fits is kept as is."""
        if self._counter.count(text) <= max_tokens:
            return text
        prompt = condense_prompt.build(text, max_tokens=max_tokens)
        answered, reply = self._answer_or_fall_back(
            "condense",
            lambda: self._ask(prompt, CondenseResponse, _check_condense),
            SYSTEM_TENANT,
            [],
            lambda: self.fallback.condense(text, max_tokens=max_tokens),
        )
        if not answered:
            return reply
        return self._fit(reply.summary.strip(), max_tokens)

    def extract(
        self, messages: Sequence[Message], *, known: Sequence[Fact] = ()
    ) -> list[FactCandidate]:
        """Facts the turns state; proposals their cited turn does not back are cut."""
        if not messages:
            return []
        prompt = extract_prompt.build(messages, categories=self._categories)
        answered, reply = self._answer_or_fall_back(
            "extract",
            lambda: self._ask(prompt, ExtractionResponse, None),
            _tenant_of(messages),
            [m.id for m in messages],
            lambda: self.fallback.extract(messages, known=known),
        )
        if not answered:
            return reply
        return self._vet_facts(reply.facts, messages)

    def respond(self, question: Message, context: ContextBundle) -> str:
        """The model's reply, or the fallback's when the endpoint fails."""
        prompt = respond_prompt.build(question, context)
        _, reply = self._answer_or_fall_back(
            "respond",
            lambda: self._chat_text(prompt),
            question.tenant,
            [question.id],
            lambda: self.fallback.respond(question, context),
        )
        return reply

    def drain_events(self) -> list[MemoryEvent]:
        """Fallbacks and rejected facts since the last call, oldest first."""
        with self._lock:
            events, self._events = self._events, []
        return events

    # -- calling the endpoint ------------------------------------------------------

    def _answer_or_fall_back(
        self,
        operation: str,
        call: Callable[[], Any],
        tenant: str,
        refs: list[str],
        fallback: Callable[[], Any],
    ) -> tuple[bool, Any]:
        """(True, the model's answer), or (False, the fallback's) after the retries."""
        try:
            return True, self._retrying(operation, call)
        except AttemptsExhaustedError as exc:
            return False, self._fall_back(exc, tenant, refs, fallback)

    def _retrying(self, operation: str, call: Callable[[], T]) -> T:
        """`call()` with at most `settings.max_retries` retries after failures."""
        attempts = self.settings.max_retries + 1
        last: BaseException | None = None
        for attempt in range(attempts):
            if attempt and self._backoff_s:
                time.sleep(self._backoff_s * 2 ** (attempt - 1))
            self._bump("calls")
            try:
                return call()
            except RECOVERABLE as exc:
                self._bump("failures")
                last = exc
                if _is_permanent(exc):
                    attempts = attempt + 1
                    break
        assert last is not None
        raise AttemptsExhaustedError(operation, attempts, last)

    def _ask(
        self,
        prompt: list[BaseMessage],
        model: type[M],
        check: Callable[[M], None] | None,
    ) -> M:
        """One structured call: parsed, shape-checked and counted."""
        out: dict[str, Any] = self._structured[model].invoke(prompt)
        raw = out.get("raw")
        if isinstance(raw, AIMessage):
            self._count_usage(raw)
        if out.get("parsing_error") is not None:
            raise BadOutputError(f"unparsable reply: {out['parsing_error']}")
        parsed = out.get("parsed")
        if parsed is None:
            raise BadOutputError(_why_unparsed(raw))
        if self.settings.structured_method != "function_calling":
            # langchain's JSON parser repairs truncated JSON by closing it; a cut-off
            # reply must count as malformed, not as a shorter answer.
            _require_complete_json(raw.content if isinstance(raw, AIMessage) else "")
        reply = parsed if isinstance(parsed, model) else model.model_validate(parsed)
        if check is not None:
            check(reply)
        return reply

    def _chat_text(self, prompt: list[BaseMessage]) -> str:
        """One plain chat call: the reply text, counted."""
        reply = self._chat.invoke(prompt)
        self._count_usage(reply)
        text = reply.text.strip() if isinstance(reply, AIMessage) else ""
        if not text:
            raise BadOutputError("empty reply")
        return text

    def _count_usage(self, reply: AIMessage) -> None:
        usage = reply.usage_metadata or {}
        with self._lock:
            self.stats["prompt_tokens"] += int(usage.get("input_tokens", 0) or 0)
            self.stats["completion_tokens"] += int(usage.get("output_tokens", 0) or 0)

    # -- fallback and events -------------------------------------------------------

    def _fall_back(
        self,
        exc: AttemptsExhaustedError,
        tenant: str,
        refs: list[str],
        run: Callable[[], T],
    ) -> T:
        self._bump("fallbacks")
        error = _one_line(f"{type(exc.last).__name__}: {exc.last}")
        fallback_name = getattr(self.fallback, "name", type(self.fallback).__name__)
        self._record(
            tenant,
            "brain_fallback",
            f"{exc.operation}: {self.name} failed after {exc.attempts} attempt(s) "
            f"({error}); used {fallback_name}",
            refs,
        )
        return self._delegate(run)

    def _delegate(self, run: Callable[[], T]) -> T:
        """`run()` on the fallback, passing its events on to our caller."""
        result = run()
        # The caller drains only this brain; the fallback's events must not be lost.
        with self._lock:
            self._events.extend(self.fallback.drain_events())
        return result

    def _record(self, tenant: str, kind: str, detail: str, refs: list[str]) -> None:
        event = MemoryEvent(
            id=f"evt-{uuid.uuid4().hex[:16]}",
            tenant=tenant,
            at=self._clock.now(),
            kind=kind,
            detail=detail,
            refs=refs,
        )
        with self._lock:
            self._events.append(event)

    def _bump(self, stat: str) -> None:
        with self._lock:
            self.stats[stat] += 1

    # -- output checks -------------------------------------------------------------

    def _vet_facts(
        self, proposed: Sequence[ExtractedFact], messages: Sequence[Message]
    ) -> list[FactCandidate]:
        """Keep the proposals whose cited turn states the value; record the rest."""
        turns = {m.id: m for m in messages}
        tenant = _tenant_of(messages)
        kept: list[FactCandidate] = []
        seen: set[tuple[str, str, str, str]] = set()
        for fact in proposed:
            outcome = self._vet(fact, turns)
            if isinstance(outcome, str):
                detail = f"{fact.category}/{fact.key}={fact.value!r}: {outcome}"
                self._record(tenant, "fact_rejected", _one_line(detail), [fact.turn_id])
                continue
            identity = (
                outcome.category,
                outcome.key,
                outcome.value.casefold(),
                outcome.subject.casefold(),
            )
            if identity not in seen:
                seen.add(identity)
                kept.append(outcome)
        return kept

    def _vet(
        self, fact: ExtractedFact, turns: dict[str, Message]
    ) -> FactCandidate | str:
        """The candidate for `fact`, or why it was rejected."""
        turn = turns.get(fact.turn_id)
        if turn is None:
            return f"cites turn {fact.turn_id!r}, which is not in the span"
        if fact.category not in self._categories:
            return f"category {fact.category!r} is not in the vocabulary"
        key = _normalise_key(fact.key)
        # The model saw escaped turns; compare what the user actually wrote.
        value = " ".join(html.unescape(fact.value).split())
        if not key or not value:
            return "empty key or value"
        span = _locate(turn.content, value)
        if span is None:
            return f"value {value!r} does not appear in turn {turn.id!r}"
        return FactCandidate(
            category=fact.category,
            key=key,
            # Store the words as the user wrote them, not the model's rendering.
            value=" ".join(turn.content[span[0] : span[1]].split()),
            subject=fact.subject.strip() or "user",
            confidence=_unit(fact.confidence),
            importance=_unit(fact.importance),
            source="extracted",
            session=turn.session,
            turn_ids=[turn.id],
            evidence=_evidence(turn.content, fact.evidence, span),
        )

    def _fit(self, text: str, max_tokens: int) -> str:
        """`text` cut to `max_tokens`; models overshoot length instructions."""
        if self._counter.count(text) <= max_tokens:
            return text
        truncate = getattr(self._counter, "truncate", None)
        if callable(truncate):
            return str(truncate(text, max_tokens))
        words = text.split()
        while words and self._counter.count(" ".join(words)) > max_tokens:
            words.pop()
        return " ".join(words)


def _wire_schema(model: type[BaseModel], method: str) -> type[BaseModel] | dict:
    """What to hand `with_structured_output` for `model`.

    For `json_schema`, a pydantic class makes the openai SDK parse the reply
    itself and raise before the reply (and its token usage) reaches us. The same
    schema as a dict is sent byte for byte the same (our response models are
    already strict: every field required, no extra keys), and leaves parsing and
    validation here. The other methods parse after the reply is returned.
    """
    if method != "json_schema":
        return model
    return {"name": model.__name__, "schema": model.model_json_schema(), "strict": True}


def _check_summary(reply: SummaryResponse) -> None:
    if not reply.summary.strip():
        raise BadOutputError("empty summary")


def _check_condense(reply: CondenseResponse) -> None:
    if not reply.summary.strip():
        raise BadOutputError("empty condensed summary")


def _require_complete_json(content: Any) -> None:
    text = content if isinstance(content, str) else json.dumps(content)
    match = _FENCE.match(text)
    try:
        json.loads(match.group(1) if match else text)
    except json.JSONDecodeError as exc:
        raise BadOutputError(f"reply is not complete JSON: {exc}") from exc


def _why_unparsed(raw: object) -> str:
    if isinstance(raw, AIMessage) and raw.invalid_tool_calls:
        call = raw.invalid_tool_calls[0]
        return f"invalid tool call arguments: {call.get('error') or call.get('args')!r}"
    return "reply held no structured answer"


def _is_permanent(exc: BaseException) -> bool:
    return (
        isinstance(exc, openai.APIStatusError) and exc.status_code in _PERMANENT_STATUS
    )


def _tenant_of(messages: Sequence[Message]) -> str:
    return messages[0].tenant if messages else SYSTEM_TENANT


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _clean(items: Sequence[str]) -> list[str]:
    return [s.strip() for s in items if s.strip()]


def _unit(x: float) -> float:
    return min(1.0, max(0.0, float(x)))


def _normalise_key(key: str) -> str:
    return re.sub(r"\W+", "_", key.strip().casefold()).strip("_")


def _locate(text: str, value: str) -> tuple[int, int] | None:
    """Where `value` occurs in `text`, ignoring case and runs of whitespace.

    The match may not start or end inside a word, so "Osl" is not found in
    "Oslo" and "12" is not found in "120k".
    """
    words = value.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    if re.match(r"\w", words[0]):
        pattern = r"(?<!\w)" + pattern
    if re.search(r"\w$", words[-1]):
        pattern += r"(?!\w)"
    match = re.search(pattern, text, flags=re.IGNORECASE)
    return match.span() if match else None


def _evidence(text: str, proposed: str, span: tuple[int, int], pad: int = 80) -> str:
    """The model's evidence when the turn holds it and it contains the value.

    Otherwise a window of the turn around the value, so evidence is always a real
    span of the cited turn.
    """
    evidence = " ".join(html.unescape(proposed).split())
    where = _locate(text, evidence) if evidence else None
    if where is not None and where[0] <= span[0] and span[1] <= where[1]:
        return text[where[0] : where[1]]
    start, end = max(0, span[0] - pad), min(len(text), span[1] + pad)
    return text[start:end].strip()
