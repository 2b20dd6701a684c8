"""The one OpenAI-compatible chat client behind the LLM brain, answer model and judge.

Every model call in the project goes through `ChatClient`, so the behaviours that
make results trustworthy and runs affordable are written once: bounded retries with
backoff that respects the server's `Retry-After`, a persistent response cache (a
re-run sends nothing), usage counters for eval logs, a cap on concurrent requests,
and the structured-output dialect the endpoint speaks. The SDK's own retries are off
so that every attempt is counted here.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, TypedDict, Unpack

import openai

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.errors import MemoryLabError
from memory_lab.llm_client.completion import Completion, LLMUsage, ToolCall
from memory_lab.llm_client.response_cache import ResponseCache, request_key
from memory_lab.llm_client.retry_policy import RetryPolicy, is_retryable
from memory_lab.llm_client.structured_output import (
    PROBE_MESSAGES,
    PROBE_SCHEMA,
    STRUCTURED_OUTPUT_MODES,
    StructuredOutput,
    check_mode,
    probe_answer_fits,
    response_format_for,
)

__all__ = [
    "ChatClient",
    "Completion",
    "LLMError",
    "LLMRequestError",
    "LLMUnavailableError",
    "LLMUsage",
    "RequestOptions",
    "ResponseCache",
    "RetryPolicy",
    "StructuredOutput",
    "ToolCall",
    "response_format_for",
]


class LLMError(MemoryLabError):
    """A chat request produced no usable completion; callers fall back on this."""


class LLMUnavailableError(LLMError):
    """The endpoint kept failing (down, overloaded, timing out) for every attempt."""


class LLMRequestError(LLMError):
    """The endpoint refused the request itself; sending it again will not help."""


class RequestOptions(TypedDict, total=False):
    """What one call may set beyond its messages and `max_tokens`.

    Attributes:
        temperature: 0 (the default) for the most repeatable answers.
        response_format: Usually `ChatClient.response_format_for(schema)`.
        tools: OpenAI-style function tools.
        tool_choice: Naming one function is what makes llama.cpp return
            `tool_calls`; with `auto` it answers in prose.
        seed: Sampling seed, for servers that honour it.
        use_cache: False sends the request and stores nothing.
        max_attempts: Overrides the client's for this call.
    """

    temperature: float
    response_format: dict[str, Any] | None
    tools: list[dict[str, Any]] | None
    tool_choice: str | dict[str, Any] | None
    seed: int | None
    use_cache: bool
    max_attempts: int | None


#: The `complete` arguments that go into the request body, in wire order.
_REQUEST_FIELDS = (
    "max_tokens",
    "temperature",
    "response_format",
    "tools",
    "tool_choice",
    "seed",
)


class _Secret:
    """Holds the API key so that no repr, log line or `vars()` dump shows it."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "'***'"


class ChatClient:
    """Chat completions against one OpenAI-compatible endpoint and model.

    Args:
        base_url: The endpoint, ending in `/v1`.
        model: The model id to ask for.
        api_key: Sent as a bearer token; never shown in reprs or errors.
        timeout_s: Per-request timeout.
        max_attempts: Attempts per completion, the first included.
        backoff_s: First pause between attempts; doubles, plus jitter up to itself.
        max_backoff_s: Cap on any pause, including a server's `Retry-After`.
        structured_output: The endpoint's JSON dialect (see `structured_output`).
        cache: Where completions are kept; None with `use_cache` uses the default
            file.
        use_cache: False sends every request and stores nothing.
        max_connections: Concurrent async requests per event loop.
        usage: Counters to add to; share one between clients to total them.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_attempts: int = 4,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
        structured_output: StructuredOutput = "json_object_schema",
        cache: ResponseCache | None = None,
        use_cache: bool = True,
        max_connections: int = 4,
        usage: LLMUsage | None = None,
    ) -> None:
        if max_connections < 1:
            raise ValueError("max_connections must be at least 1")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.structured_output = check_mode(structured_output)
        self.max_connections = max_connections
        if use_cache and cache is None:
            cache = ResponseCache()
        self.cache = cache if use_cache else None
        self.usage = usage if usage is not None else LLMUsage()
        self.retry = RetryPolicy(max_attempts, backoff_s, max_backoff_s, self.usage)
        # An empty key makes the SDK look for OPENAI_API_KEY; local servers accept
        # any token.
        self._api_key = _Secret(api_key or "not-needed")
        self._timeout_s = timeout_s
        self._sync = openai.OpenAI(**self._sdk_args())
        self._per_loop: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[openai.AsyncOpenAI, asyncio.Semaphore]
        ] = weakref.WeakKeyDictionary()
        self._loop_lock = named_lock("llm.loop")  # guards `_per_loop`

    def __repr__(self) -> str:
        return (
            f"ChatClient(base_url={self.base_url!r}, model={self.model!r}, "
            f"structured_output={self.structured_output!r})"
        )

    def response_format_for(
        self, schema: dict[str, Any], *, name: str = "response"
    ) -> dict[str, Any] | None:
        """The `response_format` asking this endpoint for JSON following `schema`."""
        return response_format_for(schema, self.structured_output, name=name)

    # -- requests ------------------------------------------------------------------

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int,
        **options: Unpack[RequestOptions],
    ) -> Completion:
        """One chat completion, from the cache when this exact request was answered.

        Args:
            messages: OpenAI-style chat messages.
            max_tokens: Cap on generated tokens.
            **options: See `RequestOptions`.

        Raises:
            LLMUnavailableError: every attempt failed with a retryable error.
            LLMRequestError: the endpoint refused the request.
        """
        body, key = self._request(messages, max_tokens, options)
        if (hit := self._cached(key)) is not None:
            return hit
        retrying = self.retry.retrying(options.get("max_attempts"))
        try:
            for attempt in retrying:
                with attempt:
                    response = self._send(self._sync, body)
        except openai.OpenAIError as exc:
            raise self._gave_up(exc, retrying.statistics) from exc
        return self._store(key, response)

    async def acomplete(
        self,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int,
        **options: Unpack[RequestOptions],
    ) -> Completion:
        """`complete` for asyncio, with at most `max_connections` in flight per loop."""
        body, key = self._request(messages, max_tokens, options)
        if (hit := self._cached(key)) is not None:
            return hit
        client, semaphore = self._loop_state()
        retrying = self.retry.async_retrying(options.get("max_attempts"))
        try:
            async with semaphore:
                async for attempt in retrying:
                    with attempt:
                        response = await self._send(client, body)
        except openai.OpenAIError as exc:
            raise self._gave_up(exc, retrying.statistics) from exc
        return self._store(key, response)

    def detect_structured_output(self) -> StructuredOutput:
        """Probe the endpoint once per mode, strongest first; keep the first that works.

        Each probe is a few tokens and bypasses the cache. A mode counts as supported
        when the endpoint answers with JSON of the probe's shape (a server that
        ignores `response_format` answers prose). The result is also stored in
        `self.structured_output`.

        Raises:
            LLMUnavailableError: no probe was answered at all (the endpoint is down,
                hanging, or failing every request), so nothing is known of it.
        """
        answered = False
        last: LLMError | None = None
        detected: StructuredOutput = "none"
        for mode in STRUCTURED_OUTPUT_MODES:
            fmt = response_format_for(PROBE_SCHEMA, mode, name="probe")
            try:
                answer = self.complete(
                    PROBE_MESSAGES,
                    max_tokens=16,
                    response_format=fmt,
                    use_cache=False,
                    max_attempts=1,
                )
            except LLMUnavailableError as exc:
                last = exc
                if isinstance(exc.__cause__, openai.APIConnectionError):
                    break  # down or hanging: one timeout is enough to know
                continue  # a 5xx is how llama.cpp rejects `json_schema`
            except LLMRequestError as exc:
                answered, last = True, exc
                continue
            answered = True
            if probe_answer_fits(mode, answer.text):
                detected = mode
                break
        if not answered:
            raise LLMUnavailableError(f"every probe failed: {last}")
        self.structured_output = detected
        return detected

    def close(self) -> None:
        """Release the sync client's connections."""
        self._sync.close()

    # -- helpers -------------------------------------------------------------------

    def _sdk_args(self) -> dict[str, Any]:
        return {
            "api_key": self._api_key.value,
            "base_url": self.base_url,
            "timeout": self._timeout_s,
            "max_retries": 0,  # every attempt is ours, so it is counted
        }

    def _request(
        self,
        messages: list[dict[str, Any]],
        max_tokens: int,
        options: RequestOptions,
    ) -> tuple[dict[str, Any], str | None]:
        """The request body and its cache key (None when the cache is bypassed)."""
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if unknown := set(options) - set(RequestOptions.__annotations__):
            # Unpack types the keywords for checkers only; a misspelt one would
            # otherwise be dropped from the request without a word.
            raise TypeError(f"unknown request option {', '.join(sorted(unknown))}")
        fields = {"max_tokens": max_tokens, "temperature": 0.0, **options}
        for name in _REQUEST_FIELDS:
            if fields.get(name) is not None:
                body[name] = fields[name]
        cached = options.get("use_cache", True) and self.cache is not None
        return body, request_key(self.base_url, body) if cached else None

    def _cached(self, key: str | None) -> Completion | None:
        if key is None or self.cache is None:
            return None
        record = self.cache.get(key)
        if record is None:
            return None
        self.usage.add(cache_hits=1)
        return Completion.from_record(record, cached=True)

    def _store(self, key: str | None, response: Any) -> Completion:
        completion = Completion.from_response(response)
        self.usage.add(
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
        )
        if key is not None and self.cache is not None:
            self.cache.put(key, completion.record())
        return completion

    def _send(self, client: Any, body: dict[str, Any]) -> Any:
        """Start one request (a coroutine for the async client), counting it."""
        self.usage.add(calls=1)
        return client.chat.completions.create(**body)

    def _gave_up(self, exc: openai.OpenAIError, stats: dict[str, Any]) -> LLMError:
        self.usage.add(gave_up=1)
        where = f"{self.base_url} (model {self.model})"
        if is_retryable(exc):
            attempts = stats.get("attempt_number", 1)
            return LLMUnavailableError(
                f"LLM endpoint {where} unavailable after "
                f"{attempts} attempt(s): {type(exc).__name__}: {exc}"
            )
        return LLMRequestError(
            f"LLM endpoint {where} refused the request: {type(exc).__name__}: {exc}"
        )

    def _loop_state(self) -> tuple[openai.AsyncOpenAI, asyncio.Semaphore]:
        """The running event loop's async client and semaphore.

        Both are bound to the loop that first uses them, so each loop (a fresh
        `asyncio.run` per eval, a notebook's loop) gets its own.
        """
        loop = asyncio.get_running_loop()
        with self._loop_lock:
            state = self._per_loop.get(loop)
            if state is None:
                client = openai.AsyncOpenAI(**self._sdk_args())
                state = (client, asyncio.Semaphore(self.max_connections))
                self._per_loop[loop] = state
        return state
