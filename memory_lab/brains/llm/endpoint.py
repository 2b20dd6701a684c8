"""One model behind one endpoint, as the brain uses it: an answer or a reason why not.

The chat client already retries what is worth retrying (timeouts, 429, 5xx) and
caches what it got. On top of that this adds what a brain needs and a client
should not decide:

- the circuit breaker: a call the client gave up on opens it, and later calls
  are refused at once instead of each waiting out the same timeouts;
- structured output: the endpoint's JSON dialect, probed once when `auto` and
  remembered in the response cache, so a cached re-run sends nothing;
- replies that arrived but cannot be used (bad JSON, wrong shape, empty): the
  model is shown its reply and what was wrong, and asked again. The corrected
  request differs from the first, so the cache never hands back the same bad
  reply, and a re-run replays both from the cache.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from memory_lab.brains.llm.breaker import CircuitBreaker
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.llm_client.client import (
    ChatClient,
    Completion,
    LLMRequestError,
    LLMUnavailableError,
)
from memory_lab.llm_client.response_cache import ResponseCache, request_key
from memory_lab.llm_client.structured_output import (
    STRUCTURED_OUTPUT_MODES,
    StructuredOutput,
    check_mode,
    response_format_for,
)

M = TypeVar("M", bound=BaseModel)

#: Bumped when the probe changes, so a remembered mode is probed again.
PROBE_VERSION = "structured-output-probe/1"
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_ECHO_CHARS = 2000


class CallFailed(Exception):
    """No usable answer; `reason` says why in one line, for the fallback note."""

    def __init__(self, reason: str, *, skipped: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.skipped = skipped


class UnusableReply(ValueError):
    """The endpoint answered, but not with something the brain can use."""


class ModelEndpoint:
    """JSON or text from one model, through its client, breaker and dialect.

    Args:
        client: The chat client for the model.
        breaker: Shared by every model on the same endpoint and lane (replies
            and background work each have their own).
        structured_output: The JSON dialect, or `auto` to probe for it.
        output_attempts: Tries per call when replies are unusable.
        cache: Where an `auto` probe's result is remembered; None probes anew.
    """

    def __init__(
        self,
        client: ChatClient,
        breaker: CircuitBreaker,
        *,
        structured_output: StructuredOutput | str = "auto",
        output_attempts: int = 2,
        cache: ResponseCache | None = None,
    ) -> None:
        self.client = client
        self.breaker = breaker
        self.output_attempts = output_attempts
        self._cache = cache
        self._mode: StructuredOutput | None = (
            None if structured_output == "auto" else check_mode(structured_output)
        )
        self._lock = named_lock("llm.endpoint")  # guards the mode and the counts
        self._unusable = 0
        self._in_flight = 0
        self._last_error: str | None = None

    @property
    def unusable_replies(self) -> int:
        """Replies that arrived but could not be used (bad JSON, wrong shape...)."""
        with self._lock:
            return self._unusable

    def activity(self) -> tuple[int, str | None]:
        """Calls in flight now, and why the last one that reached the model failed.

        The error is None once a later call has succeeded.
        """
        with self._lock:
            return self._in_flight, self._last_error

    @property
    def model(self) -> str:
        """The model's id on the endpoint."""
        return self.client.model

    @property
    def mode(self) -> StructuredOutput | None:
        """The JSON dialect in use; None until an `auto` probe has run."""
        return self._mode

    # -- calls ---------------------------------------------------------------------

    def ask_json(
        self,
        messages: list[dict[str, Any]],
        schema: type[M],
        *,
        max_tokens: int,
        check: Callable[[M], None] | None = None,
    ) -> M:
        """The model's answer parsed into `schema` and checked.

        Raises:
            CallFailed: skipped (breaker open), endpoint failed, model refused, or
                every reply was unusable.
        """
        self._admit()

        def parse(text: str) -> M:
            reply = _parse(text, schema)
            if check is not None:
                check(reply)
            return reply

        with self._tracked():
            fmt = response_format_for(
                schema.model_json_schema(), self._resolve_mode(), name=schema.__name__
            )
            return self._ask(messages, max_tokens, fmt, parse, "JSON object")

    def ask_text(self, messages: list[dict[str, Any]], *, max_tokens: int) -> str:
        """The model's plain-text reply, stripped; an empty reply is unusable."""
        self._admit()

        def parse(text: str) -> str:
            if not text.strip():
                raise UnusableReply("empty reply")
            return text.strip()

        with self._tracked():
            return self._ask(messages, max_tokens, None, parse, "reply")

    def ask_with_tools(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        max_tokens: int,
        tool_choice: str | None = None,
    ) -> Completion:
        """One turn of a tool conversation: text, tool calls, or both.

        The caller carries out the calls and asks again, so an unusable reply is
        not retried here; a refusal or a reply cut off at `max_tokens` fails.

        Raises:
            CallFailed: skipped (breaker open), endpoint failed or model refused.
        """
        self._admit()
        with self._tracked():
            completion = self._complete(
                messages, max_tokens, None, tools=tools, tool_choice=tool_choice
            )
            if completion.refusal:
                raise CallFailed(f"model refused: {_clip(completion.refusal, 200)}")
            if completion.finish_reason == "length" and not completion.tool_calls:
                self._unusable_reply()
                raise CallFailed(f"reply cut off at max_tokens={max_tokens}")
            return completion

    # -- internals -----------------------------------------------------------------

    @contextmanager
    def _tracked(self) -> Iterator[None]:
        """Count a call as in flight and remember how it ended, for `activity`."""
        with self._lock:
            self._in_flight += 1
        error: str | None = None
        try:
            yield
        except CallFailed as failure:
            error = failure.reason
            raise
        finally:
            with self._lock:
                self._in_flight -= 1
                self._last_error = error

    def _unusable_reply(self) -> None:
        with self._lock:
            self._unusable += 1

    def _admit(self) -> None:
        status = self.breaker.ask()
        if not status.allowed:
            raise CallFailed(
                f"endpoint skipped for {status.retry_in_s:.0f}s more after "
                f"{status.failures} failed call(s) in a row",
                skipped=True,
            )

    def _ask(
        self,
        messages: list[dict[str, Any]],
        max_tokens: int,
        fmt: dict[str, Any] | None,
        parse: Callable[[str], Any],
        wanted: str,
    ) -> Any:
        sent = list(messages)
        problem = ""
        for _ in range(self.output_attempts):
            completion = self._complete(sent, max_tokens, fmt)
            if completion.refusal:
                raise CallFailed(f"model refused: {_clip(completion.refusal, 200)}")
            if completion.finish_reason == "length":
                # Asking again gets the same long answer cut at the same place.
                self._unusable_reply()
                raise CallFailed(f"reply cut off at max_tokens={max_tokens}")
            try:
                return parse(completion.text)
            except UnusableReply as exc:
                self._unusable_reply()
                problem = str(exc)
            sent = [
                *messages,
                {"role": "assistant", "content": _clip(completion.text, _ECHO_CHARS)},
                {
                    "role": "user",
                    "content": f"That {wanted} could not be used: {problem}. "
                    f"Answer again with only the {wanted}.",
                },
            ]
        raise CallFailed(
            f"unusable reply after {self.output_attempts} tries: {problem}"
        )

    def _complete(
        self,
        messages: list[dict[str, Any]],
        max_tokens: int,
        fmt: dict | None,
        **tooling: Any,
    ) -> Completion:
        try:
            completion = self.client.complete(
                messages, max_tokens=max_tokens, response_format=fmt, **tooling
            )
        except LLMUnavailableError as exc:
            self.breaker.failed()
            raise CallFailed(_clip(str(exc), 240)) from exc
        except LLMRequestError as exc:
            # The endpoint is up and refused this one request: no reason to stop
            # sending it others.
            self.breaker.succeeded()
            raise CallFailed(_clip(str(exc), 240)) from exc
        except ValueError as exc:
            # The SDK could not read the response body: a broken endpoint or proxy.
            self.breaker.failed()
            why = f"{type(exc).__name__}: {_clip(str(exc), 160)}"
            raise CallFailed(f"response body unreadable: {why}") from exc
        self.breaker.succeeded()
        return completion

    def _resolve_mode(self) -> StructuredOutput:
        """The endpoint's JSON dialect, probed on first use when `auto`."""
        if self._mode is not None:
            return self._mode
        key = request_key(
            self.client.base_url, {"model": self.client.model, "probe": PROBE_VERSION}
        )
        remembered = self._cache.get(key) if self._cache is not None else None
        if remembered is not None and remembered.get("mode") in STRUCTURED_OUTPUT_MODES:
            self._mode = remembered["mode"]
            return self._mode  # type: ignore[return-value]
        mode = self._probe()
        if self._cache is not None:
            self._cache.put(key, {"mode": mode})
        self._mode = mode
        return mode

    def _probe(self) -> StructuredOutput:
        """The strongest dialect the endpoint honours, or `none`.

        An endpoint that answered no probe at all is a failed call (it feeds the
        breaker), not an endpoint without JSON support.
        """
        try:
            mode = self.client.detect_structured_output()
        except LLMUnavailableError as exc:
            self.breaker.failed()
            raise CallFailed(
                f"structured-output probe failed: {_clip(str(exc), 200)}"
            ) from exc
        self.breaker.succeeded()
        return mode


def _parse(text: str, schema: type[M]) -> M:
    fenced = _FENCE.match(text)
    raw = fenced.group(1) if fenced else text
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UnusableReply(f"not complete JSON ({exc.msg} at {exc.pos})") from exc
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the object"
        raise UnusableReply(
            f"wrong shape: {where}: {first['msg']} ({exc.error_count()} error(s))"
        ) from exc


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
